"""The board's hardware-free code (docs/architecture.md): the board core in this package
(frames, debounce, reading, turn, controller, scene, power limiter, events, one object
samsara.core.Board), the rules engine in `rules`, the game log in `storage` and the
host link in `link`.  Imports no hardware module; runs unchanged on MicroPython (rp2)
and CPython.
"""
