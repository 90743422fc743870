"""The dice sources: the table's wells, Bluetooth dice, entry with the buttons, digital dice.

Wells are read by the referee from the table's frames (a cocked die is announced
there). Their design is proven by the field model (hardware/field.py) but not yet on
the bench, so a real table enters the dice with the buttons unless
``[dice] source = "wells"`` says otherwise, and any dice-well cell that commissioning found
reading wrong turns the wells off again (``source_after_commissioning``). Where the
wells are not built, Bluetooth dice that report their face (``pixels``, ``godice``:
:mod:`kiosk.bledice`) are read as the wells are; if Bluetooth cannot be used the buttons
take over. Digital dice come from the operating system's random source. Button entry
walks each die through 1-6 with the Menu (or the player's own Done) button and takes
it with Select.

>>> entry = DiceEntry()
>>> entry.up(); entry.up(); entry.select()   # first die: 3
>>> entry.select()                           # second die: 1
(3, 1)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kiosk.config import Config, dice_addresses

if TYPE_CHECKING:
    from kiosk.bledice import BleDice

SOURCES = ("wells", "buttons", "digital", "pixels", "godice")
BLUETOOTH = ("pixels", "godice")  # the sources that are Bluetooth dice (kiosk.bledice)
# os.urandom, as the secrets module uses, without the OpenSSL library secrets loads (3 MB)
_SYSTEM = random.SystemRandom()


def resolve_source(configured: str, simulated: bool) -> str:
    """The dice source to use: ``auto`` means digital dice on a simulated table, else the
    buttons (until a table's wells are proven on the bench, ``wells`` is asked for by name)."""
    if configured == "auto":
        return "digital" if simulated else "buttons"
    if configured not in SOURCES:
        raise ValueError(f"unknown dice source {configured!r}; allowed: auto, {', '.join(SOURCES)}")
    return configured


def source_after_commissioning(configured: str, bad_cells: list[str]) -> tuple[str, str]:
    """The dice source once commissioning's findings are known, and what to say about it.

    ``bad_cells`` names the dice-well cells that read wrong; with any, wells give way to
    the buttons."""
    if configured != "wells" or not bad_cells:
        return configured, ""
    return "buttons", (
        f"commissioning found dice-well cells reading wrong ({', '.join(bad_cells)}): the "
        "dice are entered with the buttons until the wells are repaired and kiosk commission "
        "passes them"
    )


def bluetooth_dice(config: Config) -> BleDice | None:
    """The Bluetooth dice ``[dice] source`` names, over bleak (pinned to ``[dice]
    addresses`` if given), not yet started; ``None`` for the other sources. Without bleak
    or an adapter they say so once started, and the application falls back to the buttons."""
    if config.dice.source not in BLUETOOTH:
        return None
    from kiosk.bledice import VENDORS, BleDice
    from kiosk.bledice.transport import BleakTransport

    transport = BleakTransport(dice_addresses(config.dice.addresses))
    return BleDice(VENDORS[config.dice.source], transport)


def digital_throw() -> tuple[int, int]:
    """Two fair dice from the operating system's random source."""
    return _SYSTEM.randint(1, 6), _SYSTEM.randint(1, 6)


class DiceEntry:
    """Entering a throw of real dice with the buttons, one die at a time."""

    def __init__(self) -> None:
        self.taken: list[int] = []
        self.value = 1

    def up(self) -> None:
        """Show the next face (6 wraps round to 1)."""
        self.value = self.value % 6 + 1

    def select(self) -> tuple[int, int] | None:
        """Take the face shown; returns the throw once both dice are taken."""
        self.taken.append(self.value)
        self.value = 1
        if len(self.taken) == 2:
            return self.taken[0], self.taken[1]
        return None

    def back(self) -> bool:
        """Undo the first die; ``False`` when there was nothing to undo (leave the entry)."""
        if not self.taken:
            return False
        self.value = self.taken.pop()
        return True
