"""The test rig: the game core driven headless through a simulated table, by a script
(:mod:`kiosk.rig.scenario`, ``kiosk scenario``) or by a lesson's learner
(:mod:`kiosk.rig.lessons`, ``kiosk lesson run``), on a virtual clock
(:mod:`kiosk.rig.stepped`, which the application's stepped mode uses too).

It stands above :mod:`kiosk.play` and drives the same :class:`~kiosk.play.GameCore` the
application drives: what a script does is what the table does.
"""
