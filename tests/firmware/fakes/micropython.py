"""The parts of MicroPython's ``micropython`` module that ``board.py`` uses, for CPython.

Under MicroPython the built-in module is found first and this file is not used.
"""


def kbd_intr(char):
    """Ctrl-C handling: nothing to switch off under CPython."""
