"""The rules engine (docs/rules.md, docs/rules-engine.md): board geometry, positions as
two 24-bit lane masks, sub-moves and complete turns (`moves`), notation, games and
matches.  Imports nothing but builtins; runs on MicroPython and CPython."""
