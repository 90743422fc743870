"""The table's locations, their sensing slots and the switch numbering.

This module is the source of the default layout numbers; ``kiosk/table/layout.py``
repeats them and a test checks that the two agree.
"""

POINT_SLOTS = 6
BAR_SLOTS = 4
TRAY_SLOTS = 15
MAX_SLOTS = 15
WELLS = 2
# How a slot senses its man: "occupancy" has one reed that closes for any man (colour then
# follows from where he is and the game), the design in hardware/README.md; "polarity",
# an option for a table built to sense colour, has two reeds (or a dual-output Hall
# switch), one closing for a white man's north pole, one for a black man's south.
SENSINGS = ("polarity", "occupancy")
SENSING = "occupancy"

# Wire order of the locations, in white's numbering of the physical table.
LOCATIONS = tuple(
    [str(n) for n in range(1, 25)] + ["bar-white", "bar-black", "off-white", "off-black"]
)


class Layout:
    """Slot counts per location, the sensing, and the canonical switch numbering.

    With occupancy sensing (the default) slot ``i`` (counting every location's slots in
    wire order) has its one reed at switch ``i``; with polarity sensing its white reed is
    at switch ``2*i`` and its black reed at ``2*i + 1``. The dice wells' Hall switches are
    not in the matrix: the board reads them through shift registers (``wells()`` of the
    reader).
    """

    def __init__(
        self,
        point_slots=POINT_SLOTS,
        bar_slots=BAR_SLOTS,
        tray_slots=TRAY_SLOTS,
        sensing=SENSING,
    ):
        for count in (point_slots, bar_slots, tray_slots):
            if count < 1 or count > MAX_SLOTS:
                raise ValueError(f"slot counts must be between 1 and {MAX_SLOTS}")
        if sensing not in SENSINGS:
            raise ValueError(f"sensing is polarity or occupancy, not {sensing}")
        self.sensing = sensing
        self.reeds_per_slot = 2 if sensing == "polarity" else 1
        self.point_slots = point_slots
        self.bar_slots = bar_slots
        self.tray_slots = tray_slots
        self.slots = tuple([point_slots] * 24 + [bar_slots] * 2 + [tray_slots] * 2)
        first = []
        total = 0
        for count in self.slots:
            first.append(total)
            total += count
        self.first = tuple(first)
        self.total_slots = total
        self.switches = self.reeds_per_slot * total

    def wire(self):
        """The layout as the identify message states it: ``points,bars,trays``."""
        return f"{self.point_slots},{self.bar_slots},{self.tray_slots}"

    def slot_index(self, location, slot):
        """The overall index of ``slot`` (0 = nearest the edge) of ``location``."""
        where = LOCATIONS.index(location)
        if not 0 <= slot < self.slots[where]:
            raise ValueError(f"{location} has no slot {slot}")
        return self.first[where] + slot

    def slot_name(self, index):
        """``location/slot`` with the slot counted from 1 at the edge, for reports."""
        where = len(self.first) - 1
        while self.first[where] > index:
            where -= 1
        return f"{LOCATIONS[where]}/{index - self.first[where] + 1}"

    def reed_switch(self, index, black):
        """The switch number of slot ``index``'s white (or black) reed; its only reed when
        the table senses occupancy."""
        if self.reeds_per_slot == 1:
            return index
        return 2 * index + (1 if black else 0)
