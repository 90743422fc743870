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
ORDER_PULL_IN_MT = (1.5, 2.6)

# -- placement tolerances --------------------------------------------------------------------
MAN_PLAY = (HOLE - MAN) / 2  # a man in his hole: 0.5 mm any way
REGISTRATION = 0.25  # guide sheet to carrier: dowel pins through every sheet
REED_PLACEMENT = 0.25  # reed in its engraved outline on the carrier
SLOT_TOLERANCE = MAN_PLAY + REGISTRATION + REED_PLACEMENT  # 1.0 mm, in any direction
HEIGHT_TOLERANCE = 0.3  # sheet thicknesses and glue

# -- the dice and their wells ----------------------------------------------------------------
DIE = 30.0  # printed cube
DIE_MAGNET = (1.5, 0.5)  # N35 disc, five under each face: its centre and four corners
DIE_SKIN = 0.3  # plastic over each magnet's outer face
DIE_CORNER = 8.0  # corner magnets at (+-8, +-8) mm from the face's centre
DIE_CORNERS = ((-1, -1), (1, -1), (1, 1), (-1, 1))  # corners 1-4 going round (x DIE_CORNER)
DIE_MAGNET_DEPTH = DIE / 2 - DIE_SKIN - DIE_MAGNET[1] / 2  # die's centre to a magnet's, mm
DIE_DENSITY = 1.24e-3  # PLA, g/mm^3, printed solid
PIP = (5.0, 0.5)  # engraved pip, diameter x depth (filled with paint)
PIP_OFFSET = 8.0  # pips on a 3 x 3 grid of 8 mm
MAGNET_DENSITY = 7.5e-3  # NdFeB, g/mm^3
# The well: the foot of a 30 degree ramp below the dice tower, the die resting against its
# end wall. Sensors (TI DRV5023FA, TO-92, lying flat) under a thin floor.
RAMP_ANGLE = 30.0  # degrees: steeper than a printed die's friction angle on polycarbonate
WELL_FLOOR = 0.3  # polycarbonate film between the die and the sensors, on the sensors
WELL_WIDTH = DIE + 0.6  # the ramp's channel
HALL_DEPTH = 0.75  # Hall element below the sensor's top face (either way up)
WELL_PITCH = 45.0  # between the two wells' centres, side by side
# Seat tolerances: across the channel, along the ramp (the end wall), yaw, sensor placement
# on its board, element depth.
SEAT_ACROSS = (WELL_WIDTH - DIE) / 2
SEAT_ALONG = 0.2
SEAT_YAW = 1.5  # degrees
SENSOR_PLACEMENT = 0.3
HALL_DEPTH_TOLERANCE = 0.25
# DRV5023FA thresholds (datasheet): it surely operates at B_OP max; it cannot operate below
# B_RP min, since B_OP always lies above B_RP.
HALL_ON_MT = 6.8
HALL_OFF_MT = 0.5
# The five sensors of a well, in the well's frame (x across the ramp, y up the ramp, from
# the centre of the die's resting face), and the pole each answers: S-type lie branded face
# up and answer a south pole above; N-type lie branded face down and answer a north pole.
WELL_CELLS = (
    ("centre", (0.0, 0.0), "S"),
    ("corner 1", (-DIE_CORNER, -DIE_CORNER), "S"),
    ("corner 2", (DIE_CORNER, -DIE_CORNER), "N"),
    ("corner 3", (DIE_CORNER, DIE_CORNER), "S"),
    ("corner 4", (-DIE_CORNER, DIE_CORNER), "N"),
)
# Which corners of a face carry a south-out magnet, face by face (the face lying down), in
# the order of the corners going round. Every face has five magnets: the same mass in the
# same places, so the die is balanced; only the poles differ. Every face's centre is
# south out (it tells a die lying flat from none).
FACE_CORNERS_SOUTH = {
    1: (0, 0, 0, 0),
    2: (1, 0, 0, 0),
    3: (1, 1, 0, 0),
    4: (1, 0, 1, 0),
    5: (1, 1, 1, 0),
    6: (1, 1, 1, 1),
}

# -- margins the design must keep (tests/hardware) -----------------------------------------
MIN_MARGIN = 1.25
