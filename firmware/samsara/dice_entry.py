"""Where the next roll's dice come from: host-set dice, the electronic random source,
or manual entry of physical dice with the roll button (docs/controller.md "Dice").

Manual entry: the first press starts entering die 1 (shown as 1); each short press
counts the die being entered up (6 wraps to 1); a long press goes on to die 2, and a
long press on die 2 finishes the roll.  The undo button steps back one stage.
"""

from samsara.rules import moves as rules
from samsara.rng import Lcg


class DiceEntry:
    """The dice source of one board.  source: 'electronic', 'manual' or 'host'
    (samsara.config.DICE_SOURCES); rng: object with die() -> 1..6, or None for
    samsara.rng.Lcg(seed).  Attributes: host ((d1, d2) set by the host for the next
    roll, or None), joint (True: those dice are joint dice, the roll's source
    "joint": a game against a far player, docs/online.md), entry (0: not entering, 1/2: entering die 1/2), e1, e2 (the values
    being entered)."""

    def __init__(self, source, rng, seed):
        self.source = source
        self.rng = rng if rng is not None else Lcg(seed)
        self.host = None
        self.joint = False
        self.entry = 0
        self.e1 = 1
        self.e2 = 1

    def set_host(self, d1, d2, joint=False):
        """Host-set dice for the next roll (each 1..6; joint: the dice both players of
        an online game drew together, docs/online.md "Fair dice").  ValueError else."""
        rules.check_die(d1)
        rules.check_die(d2)
        self.host = (d1, d2)
        self.joint = joint

    def press(self, long):
        """The roll button (long: a long press).  Returns (d1, d2, source) of the
        roll it makes, or None while manual entry goes on.  Host-set dice win over
        every source and end an entry in progress."""
        if self.host is not None:
            d1, d2 = self.host
            self.host = None
            self.entry = 0
            return (d1, d2, "joint" if self.joint else "host")
        if self.source == "manual":
            if self.entry == 0:
                self.entry = 1
                self.e1 = 1
                self.e2 = 1
            elif not long:
                if self.entry == 1:
                    self.e1 = self.e1 % 6 + 1
                else:
                    self.e2 = self.e2 % 6 + 1
            elif self.entry == 1:
                self.entry = 2
            else:
                self.entry = 0
                return (self.e1, self.e2, "manual")
            return None
        return (self.rng.die(), self.rng.die(), "electronic")

    def undo(self):
        """The undo button during manual entry: one stage back.  False (nothing done)
        when no entry is in progress."""
        if not self.entry:
            return False
        self.entry -= 1
        return True
