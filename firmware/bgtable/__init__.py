"""Backgammon Table firmware logic: scanning, debounce, dice and protocol.

Everything in this package runs unchanged under MicroPython on the RP2040 and under
CPython, where the kiosk's simulated table and the tests drive it against a virtual
switch matrix. Hardware access lives only in ``board.py`` next to this package.
"""
