"""The Samas game module (docs/samas.md): a race of two Sama-stones decided by hidden,
simultaneous choices of stones and jokers.  The rules are in `rules`.  Imports nothing
but builtins; runs on MicroPython and CPython."""
