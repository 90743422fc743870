"""The referee: turns the stream of sensed boards into game events.

``Referee`` judges each settled board against every partial legal play of the
roll; ``kiosk.referee.scenario`` runs scripted sessions through the whole stack.
"""

from kiosk.referee.reasons import REASONS, law
from kiosk.referee.referee import Mode, Referee, RefereeConfig
from kiosk.referee.sensing import from_frame, location, point_of, project

__all__ = [
    "REASONS",
    "Mode",
    "Referee",
    "RefereeConfig",
    "from_frame",
    "law",
    "location",
    "point_of",
    "project",
]
