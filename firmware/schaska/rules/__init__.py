"""The Schaska rules (docs/schaska.md): the layout of field values (`layout`), states and
their object form (`state`), legal actions, applying one and the game end (`actions`),
a whole game with its turn limit (`game`).  Imports nothing but builtins; runs on
MicroPython and CPython."""
