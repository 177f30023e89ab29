"""Engines on the computer: the host engine, the players a match seats and the match
runner behind `samsara engine match` and `samsara rules best` (docs/engine.md)."""
