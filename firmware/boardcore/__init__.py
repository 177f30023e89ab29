"""The board core that serves every game on the board's electronics (docs/architecture.md
"firmware/boardcore/"): the debounce of the 64-sensor frames (`debounce`, `frame`), the
event queue (`events`), what the Pico's loop defers (`pacing`), the LED power limiter
(`power`), the wrapping ms clock (`ticks`), the flight recorder (`flight`, `flightsave`),
the game log's store (`storage`) and the host link (`link`), and the firmware's version
(`version`).  No game's rules live here: a game module (samsara, samas, schaska) builds
its board core on these, names its places and gives the link its host commands.
Imports no hardware module; runs unchanged on MicroPython (rp2) and CPython.
"""
