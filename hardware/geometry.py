"""The table's physical design in numbers: the one place its sizes, magnets, sensors and
tolerances are set. ``documents.py`` draws from them and ``field.py`` models their physics;
``tests/hardware`` holds both to the margins stated in ``hardware/README.md``.

Lengths are in millimetres. Heights (z) are measured up from the top face of the carrier
sheet, the clear sheet that carries the reeds and their wiring.
"""

from __future__ import annotations

# -- the men and the playing field ---------------------------------------------------------
MAN = 38.0  # checker diameter (tournament size)
MAN_THICKNESS = 8.0
MAN_MAGNET = (8.0, 2.0)  # N35 disc, diameter x thickness, axial, glued flush in the base
HOLE = 39.0  # hole in the guide sheet: a man cannot drift more than 0.5 mm
WEB = 4.0  # guide sheet left between two holes: at least 4 mm, so the sheet holds together
PITCH = HOLE + WEB  # 43 mm: slot pitch along a point, and a point's width
BAR = 50.0  # bar width
GAP = 30.0  # between the two halves' point rows
MARGIN = 20.0  # frame rebate around everything
TRAY_COLUMNS, TRAY_ROWS = 3, 5  # 15 tray slots in a tray beside its half of the field

# -- magnets (N35) -------------------------------------------------------------------------
# Polarization J (remanence) of grade N35 lies between these; the model takes the weak end
# for anything that must read and the strong end for anything that must not.
J_MIN, J_MAX = 1.17, 1.22  # tesla

# -- the stack-up, bottom to top (see the stack-up drawing, stackup.svg) ---------------------
PANEL_GAP = 6.0  # air between the display's glass and the carrier: nothing rests on the panel
# The clear acrylic carrier sheet, resting on the frame's ledge: the thinnest of the stock
# thicknesses below that keeps the sag under a lean within half the air gap (plate.py);
# ``CARRIER`` is the least the reeds' wiring needs.
CARRIER = 6.0
CARRIER_STOCK = (6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 25.0)
SPACER = 4.0  # clear acrylic spacer frame (ribs between the points) on the carrier
RIB = 5.0  # the spacer frame's ribs between its windows, one window a strip
TOP = 3.0  # clear polycarbonate top sheet, resting on the spacer's ribs, never on a reed
GUIDE = 3.0  # clear acrylic guide sheet with the holes, on the top sheet
SURFACE = SPACER + TOP  # where a man's base (and his magnet's face) rests

# -- the slot reeds (Littelfuse/Hamlin MITI-3V1; check against its datasheet) ----------------
REED_LENGTH = 7.0  # glass body
REED_WIDTH = 2.2  # glass diameter
REED_Z = REED_WIDTH / 2  # its axis, lying on the carrier
REED_OFFSET = 4.0  # reed centre from the slot centre toward the table's edge, axis along it
# Leads: cut 2 mm past the glass (not closer: the glass seal), not bent; a copper wire is
# soldered to each stub's end and leaves sideways. Leads left long along the axis, or bent
# down, lose the signal (field.lead_forming()).
LEAD_STUB = 2.0
LEAD_DROP = 0.0
# Pull-in of the reed in magnetic field along its axis: an estimate of the whole MITI-3V1
# range (all its AT bands) from the ampere-turns. The more sensitive bands are not for this
# table (a die lying on an empty slot beside full points and a tall stack could close
# them): order a band whose pull-in lies in ORDER_PULL_IN_MT; the first strip's bench test
# checks it.
PULL_IN_MT = (0.3, 2.6)
ORDER_PULL_IN_MT = (1.95, 2.6)

# -- placement tolerances --------------------------------------------------------------------
MAN_PLAY = (HOLE - MAN) / 2  # a man in his hole: 0.5 mm any way
REGISTRATION = 0.25  # guide sheet to carrier: dowel pins through every sheet
REED_PLACEMENT = 0.25  # reed in its engraved outline on the carrier
SLOT_TOLERANCE = MAN_PLAY + REGISTRATION + REED_PLACEMENT  # 1.0 mm, in any direction
HEIGHT_TOLERANCE = 0.3  # sheet thicknesses and glue

# -- the dice and their wells ----------------------------------------------------------------
DIE = 30.0  # printed cube
DIE_MAGNET = (1.5, 0.75)  # N35 disc: nine under each face, its centre and a ring (DIE_SPOTS)
# Plastic over each magnet's outer face: two dice face to face hold their magnets twice
# this apart, the well's sensors once plus the floor, so a thicker skin on a thinner floor
# keeps the well's read and weakens the dice's pull on each other (field.cling).
DIE_SKIN = 0.5
DIE_CORNER = 9.0  # the ring's corners at (+-9, +-9) mm from the face's centre
# The eight spots of a face's ring going round, in units of DIE_CORNER: corner 1, edge a,
# corner 2, edge b, corner 3, edge c, corner 4, edge d. A quarter turn moves each spot two on.
DIE_SPOTS = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
SPOT_NAMES = ("1", "a", "2", "b", "3", "c", "4", "d")
DIE_MAGNET_DEPTH = DIE / 2 - DIE_SKIN - DIE_MAGNET[1] / 2  # die's centre to a magnet's, mm
DIE_DENSITY = 1.24e-3  # PLA, g/mm^3, printed solid
# A brass cube at the die's centre (edge, mm), printed in: the die weighs 92 g, not 34 g,
# so no magnetic pull lifts it (field.cling), with its balance unchanged.
DIE_CORE = 20.0
DIE_CORE_DENSITY = 8.5e-3  # brass, g/mm^3: dense and not magnetic
PIP = (5.0, 0.3)  # engraved pip, diameter x depth (filled with paint): over a magnet, 0.2 mm left
PIP_OFFSET = 8.0  # pips on a 3 x 3 grid of 8 mm
MAGNET_DENSITY = 7.5e-3  # NdFeB, g/mm^3
# The well: the foot of a 30 degree ramp below the dice tower, the die resting in the corner
# of its end wall and its low side wall (the ramp falls across too: throws.RAMP_CROSS).
# Sensors (TI DRV5023AJ, TO-92, lying flat) under a thin floor.
RAMP_ANGLE = 30.0  # degrees: steeper than a printed die's friction angle on polycarbonate
# Polyester (PET) film between the die and the sensors, on the sensors: 125 um stock. (At
# 100 um a die lifted on an edge 5 degrees reads a wrong face with one stuck switch.)
WELL_FLOOR = 0.125
HALL_DEPTH = 0.75  # Hall element below the sensor's top face (either way up)
WELL_PITCH = 83.0  # between the two wells' centres: 80 mm chutes and a 3 mm divider
# Seat tolerances: across the ramp (the low side wall) and along it (the end wall): the die
# lies against both walls, so only its own size and the walls' lining vary; yaw, sensor
# placement on its board, element depth.
SEAT_ALONG = 0.2
SEAT_ACROSS = SEAT_ALONG
SEAT_YAW = 1.5  # degrees
SENSOR_PLACEMENT = 0.3
HALL_DEPTH_TOLERANCE = 0.25
# DRV5023AJ thresholds (TI's datasheet, SLIS151: B_OP 6.9 mT typical, 12 mT max; B_RP 1 mT
# min): it surely operates at B_OP max; it cannot operate below B_RP min, since B_OP always
# lies above B_RP. A switch whose field lies between may read either way. (The more
# sensitive FA version, B_RP min 0.5 mT, lets the small magnets' return field switch cells
# of a die pushed off its seat: field.well_misreads finds wrong faces with it.)
HALL_PART = "DRV5023AJ"
HALL_ON_MT = 12.0
HALL_OFF_MT = 1.0
# The nine sensors of a well, one under each spot of the die's ring and one under its centre,
# in the well's frame (x across the ramp, y up the ramp, from the centre of the die's
# resting face), each lying branded face up: it answers a south pole above it. Cells 0-7 the
# ring going round, cell 8 the centre.
WELL_CELLS = (
    *(
        (f"{'corner' if a and b else 'edge'} {name}", (a * DIE_CORNER, b * DIE_CORNER), "S")
        for name, (a, b) in zip(SPOT_NAMES, DIE_SPOTS, strict=True)
    ),
    ("centre", (0.0, 0.0), "S"),
)
CENTRE = 8
RING = 0xFF
# The code: which cells a die lying flat switches, face by face (the face lying down, in its
# first quarter turn; bit k is cell k). Every face's centre is south out, and its ring puts
# four south and four north poles on the eight spots: the die is balanced (the same magnets
# in the same places), and every reading of a die lying flat on its seat has its centre and
# exactly four ring cells on. The six patterns' quarter-turn families lie at least four
# ring cells apart: no single dead or stuck sensor, nor three wrong cells together, turns
# one face into another. A die pushed off its seat far enough that its small magnets' return
# field reaches the cells reads the ring's complement (faces 3 and 4 are each other's):
# its centre then reads off too, which the code requires on (field.well_misreads checks the
# field model over positions, tilts and thresholds).
FACE_CELLS = {
    1: 0b1_00001111,
    2: 0b1_00110011,
    3: 0b1_01010101,
    4: 0b1_10101010,
    5: 0b1_01011010,
    6: 0b1_01100110,
}
# The grid the misreading check runs over: the die pushed off its seat and tilted.
MISREAD_OFFSETS = (-3.0, -1.5, 0.0, 1.5, 3.0)  # mm, along and across
MISREAD_TILTS = (-10.0, -5.0, 0.0, 5.0, 10.0)  # degrees, about either axis of the floor
MISREAD_YAWS = (-3.0, 0.0, 3.0)  # degrees
# The grid the cling check runs over: two dice face to face turned a further yaw, and
# square, slid along and across by half the ring's spacing (other magnets meet).
CLING_YAWS = (0.0, 15.0, 30.0, 45.0)  # degrees
CLING_SLIDES = (-9.0, -4.5, 0.0, 4.5, 9.0)  # mm

# -- margins the design must keep (tests/hardware) -----------------------------------------
MIN_MARGIN = 1.25
# A well's switches over B_OP max: what the AJ's 12 mT leaves with die magnets small enough
# that a die lying on the board closes no reed. A switch short of it leaves the die read as
# cocked (throw again), never as another face (field.well_misreads).
MIN_WELL_MARGIN = 1.04
# The most a die may be pulled by another die or a man, as a share of its weight.
MAX_CLING = 0.5
