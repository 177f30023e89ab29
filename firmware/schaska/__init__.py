"""The Schaska game module (docs/schaska.md): figures race along a track of exchangeable
fields, jumping over occupied fields.  The rules are in `rules`.  Imports nothing but
builtins; runs on MicroPython and CPython."""
