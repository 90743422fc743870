"""The table application: one stream of events that the display, speech, lights and store follow.

What lives where:

- ``main.py``: :class:`~kiosk.app.main.App`, the loop (link frames to the referee, events
  on the bus, the picture drawn when it changed), games started, resumed and set up.
- ``events.py``: the event bus every part subscribes to.
- ``modes/``: the mode stack and each mode (``game.py``: the game, its end, a double and
  a take-back on offer, and what Done does; ``entry.py``: PIN and dice entry;
  ``lesson.py``, ``replay.py``; ``attract.py``: notices and the attract screen).
- ``transitions.py``: the one place that decides when modes go on and off the stack.
- ``menu.py`` (a menu as a mode) and ``menus.py`` (the table's menus, built once).
- ``complete.py``: "press Done" when the men show a whole play.
- ``controls.py`` (the Pi's buttons and lights, gpiozero), ``window.py`` (the window's
  keys and mouse), ``mouse.py`` (the simulated table under the mouse).
- ``coaching.py`` (the coach in the background), ``lessons.py`` (a lesson hosted at the
  table), ``replay.py`` (stored and book games shown turn by turn), ``speech.py``,
  ``dice.py`` (where the dice come from), ``doctor.py`` (``kiosk doctor``),
  ``stepped.py`` (the app on a virtual clock, for tests and benchmarks), ``demo.py``.
"""
