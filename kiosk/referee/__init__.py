"""The referee: turns the stream of sensed boards into game events.

``Referee`` judges each settled board against every partial legal play of the
roll; ``kiosk.rig.scenario`` runs scripted sessions through the whole stack.
"""

from kiosk.referee.reasons import REASONS, law
from kiosk.referee.referee import Mode, Referee, RefereeConfig

__all__ = [
    "REASONS",
    "Mode",
    "Referee",
    "RefereeConfig",
    "law",
]
