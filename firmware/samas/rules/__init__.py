"""The Samas rules (docs/samas.md): states and their object form (`state`), choices,
rounds and the game end (`rounds`), a whole game with its round limit (`game`).
Imports nothing but builtins; runs on MicroPython and CPython."""
