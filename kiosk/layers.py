"""The layers of the ``kiosk`` package, lowest first: a module may import from its own
package and from the packages of lower layers, never from a higher layer nor from another
package of its own layer. ``tests/test_layers.py`` walks every import (those inside
functions too) and holds the code to this, and to having no import circle.

- ``errors`` (the project's exception root: every part's exceptions derive from it);
- ``rules`` (the pure engine), ``files`` (guarded reads, atomic writes) and ``books`` (the
  books' data) need nothing else;
- ``table`` (the table's coordinate system and its readings), ``config`` (the settings,
  which name the rule profiles) and ``events`` (every event, typed) stand on the rules;
- ``link`` (the serial link) and ``simtable`` (the simulated table) both speak the table's
  frames, and neither knows the other: the link is handed a simulator by its caller;
  ``bledice`` (Bluetooth dice that report their face) is an edge of the same kind, read
  as the dice wells are;
- ``referee`` (readings of the table into game events; it imports only the rules, the
  table and the events: :data:`REFEREE_NEEDS`);
- ``tutor`` (coach and lessons, which host a referee) and ``store`` (SQLite);
- ``play`` (the game core: the game, its referee, the cube, the table's own side,
  sessions and restarts, for the application and ``kiosk scenario`` alike);
- ``rig`` (the core driven headless on a simulated table's virtual clock: the scenario
  and lesson drivers, the stepped table the application's stepped mode uses too);
- ``display`` (the view model and the drawing of it);
- ``companion`` (the class's web pages and the health page: it follows the events with
  the display's view model, reads the store, asks the tutor, and steers the table only
  through the commands the application runs for it);
- ``app`` (the loop joining them all; it may start the companion), then the commands:
  ``app_cli``, ``commission_cli`` and each package's ``cli`` module (a command, registered
  by ``kiosk/cli.py``, may use any package: ``kiosk simtable`` lays out a simulated table
  over the link), then ``cli`` and ``__main__``.
"""

from __future__ import annotations

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"errors"}),
    frozenset({"rules", "files", "books", "layers"}),
    frozenset({"table", "config", "events"}),
    frozenset({"link", "simtable", "bledice"}),
    frozenset({"referee"}),
    frozenset({"tutor", "store"}),
    frozenset({"play"}),
    frozenset({"rig"}),
    frozenset({"display"}),
    frozenset({"companion"}),
    frozenset({"app"}),
    frozenset({"app_cli", "commission_cli", "commands"}),
    frozenset({"cli"}),
    frozenset({"__main__"}),
)


#: The only parts the referee imports: it judges readings of the table against the rules.
REFEREE_NEEDS = frozenset({"referee", "rules", "table", "events"})


def part(module: str) -> str:
    """The part of ``kiosk`` a module belongs to; ``"commands"`` for a package's ``cli``.

    >>> part("kiosk.rules.moves"), part("kiosk.link.cli"), part("kiosk.app_cli")
    ('rules', 'commands', 'app_cli')
    >>> part("kiosk.tutor.lessons.cli")
    'commands'
    """
    pieces = module.split(".")
    if len(pieces) >= 3 and pieces[-1] == "cli":
        return "commands"
    return pieces[1] if len(pieces) > 1 else ""


def layer(part: str) -> int:
    """The layer of a part of ``kiosk`` (``"rules"``, ``"app_cli"``...).

    >>> layer("rules") < layer("table") < layer("referee") < layer("display") < layer("app")
    True
    """
    for index, parts in enumerate(LAYERS):
        if part in parts:
            return index
    raise KeyError(f"kiosk.{part} is in no layer: add it to kiosk/layers.py")
