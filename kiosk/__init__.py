"""Backgammon Table: the kiosk application that runs on the table's Raspberry Pi.

Data flows one way through the sub-packages::

    table (firmware) -> link -> referee -> game (rules) -> display / tutor / store
"""

__version__ = "0.1.0"
