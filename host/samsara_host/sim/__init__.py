"""The simulated board: physical signal model, simulated players and the loop that
drives the firmware's `samsara.core.Board` with them (docs/simulator.md)."""
