"""Backgammon Table: the kiosk application that runs on the table's Raspberry Pi.

Data flows one way through the sub-packages::

    table (firmware) -> link -> referee -> game (rules) -> display / tutor / store
"""

import os

__version__ = "0.1.0"

# The coach's nets multiply small matrices (a roll's twenty-odd plays at a time): BLAS
# threads gain nothing there, and while the other cores are busy (the display, the link)
# they made a rating two to three times slower. Set before numpy is first imported; a
# setting of the installer's own wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
