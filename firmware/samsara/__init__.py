"""Samsara's game module (docs/architecture.md): its board core in this package (frames,
reading, turn, controller, scene, one object samsara.core.Board), the rules engine in
`rules`, its game recorder (`recorder`, `logresume`) and its host commands (`commands`),
built on the board core every game shares (boardcore: debounce, events, power limiter,
game log store, flight recorder, host link).  Imports no hardware module; runs
unchanged on MicroPython (rp2) and CPython.
"""
