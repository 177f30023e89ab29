"""The names of the controller's states (docs/controller.md "States"): one definition,
used by the controller, the host and the tests instead of string literals.

The values are the strings a `status` reply carries (docs/protocol.md); some of them
are also event names (`turn_complete`, `game_over`, `moksha`), which are a different
thing and keep their own literals.
"""

WAITING = "waiting"              # waiting for the roll
MOVING = "moving"                # dice rolled, sub-moves being played
GOAL_PENDING = "goal_pending"    # a marble in a goal: scoring piece and reinsertion to do
TURN_COMPLETE = "turn_complete"  # both dice played and the board settled
REPAIR = "repair"                # the board is not a step of a legal move
GAME_OVER = "game_over"          # the game has a result
MOKSHA = "moksha"                # the roll had no complete turn: the game is drawn
# (no tuple of all seven: nothing needs one, and it would cost heap on the Pico)
ENDED = (GAME_OVER, MOKSHA)      # the game is over (either way)
