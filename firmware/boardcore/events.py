"""The bounded event queue of the board core (docs/controller.md "Events").

Events are small dicts, ``{"ev": NAME, "t": now_ms, ...}``, created only when something
is accepted or rejected.  The queue is a preallocated ring: when it is full the oldest
event is dropped and `dropped` counts it; pushing never fails and never grows memory.
"""


class EventQueue:
    """Ring of at most `capacity` events.  push(ev), poll() -> ev or None, len(q)."""

    def __init__(self, capacity=64):
        self.cap = capacity
        self.ring = [None] * capacity
        self.head = 0      # index of the oldest event
        self.count = 0
        self.dropped = 0   # events lost because the queue was full

    def push(self, ev):
        """Append event dict `ev`, dropping the oldest one when full."""
        if self.count == self.cap:
            self.ring[self.head] = None
            self.head = (self.head + 1) % self.cap
            self.count -= 1
            self.dropped += 1
        self.ring[(self.head + self.count) % self.cap] = ev
        self.count += 1

    def poll(self):
        """The oldest event (removed from the queue), or None when empty."""
        if not self.count:
            return None
        ev = self.ring[self.head]
        self.ring[self.head] = None
        self.head = (self.head + 1) % self.cap
        self.count -= 1
        return ev

    def clear(self):
        """Forget every queued event (the dropped counter stays)."""
        while self.count:
            self.poll()

    def __len__(self):
        return self.count
