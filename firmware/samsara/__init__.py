"""Samsara firmware core: rules engine, debounce, controller, scenes, log, protocol.

Hardware-free; runs unchanged on MicroPython (rp2) and CPython.
"""
