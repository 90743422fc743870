"""Drawing only what changed: a frame with nothing new draws nothing, and a frame drawn over
the last one (the board put back only under the last frame's drawing) is the same, pixel for
pixel, as the whole frame drawn afresh; the areas it reports hold every pixel that changed."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pygame
from display_pixels import differing

from kiosk.display import Calibration, Renderer
from kiosk.display.payloads import Correction
from kiosk.display.view import TableView, play_arrows
from kiosk.events import Kind
from kiosk.rules import Position
from kiosk.table.sensing import location


def views(seed: int) -> Iterator[tuple[TableView, int]]:
    """(view, time) through a game of random plays with what the display shows on the way:
    movable men, a lifted man and its pulsing (graded) targets, a wrong placement with its
    explanation, arrows, a busy spinner, the table unplugged, a menu, men laid out, a
    lesson's answer, Russian numbering and simulated men."""
    rng = random.Random(seed)
    view = TableView()
    view.apply({"event": "table", "status": "connected", "message": "Table connected"})
    position = Position.standard()
    view.set_position(position)
    now = 0
    for turn in range(14):
        now += 16
        mover = str(position.turn)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        view.apply({"event": "dice", "player": mover, "dice": [d1, d2]})
        plays = position.legal_plays(d1, d2)
        view.movable = tuple(
            sorted({location(position.turn, p.steps[0].src) for p in plays if p.steps})
        )
        view.simulated = turn % 5 == 3
        view.mode = Kind.RUSSIAN if turn == 6 else Kind.GAME
        yield view, now
        play = rng.choice(plays)
        for step in play.steps[:1]:
            src = location(position.turn, step.src)
            targets = sorted({location(position.turn, p.steps[0].dst) for p in plays})
            view.apply({"event": "destinations", "from": src, "to": targets, "player": mover})
            if turn % 2:
                view.grades = {t: ("best", "fair", "costly")[i % 3] for i, t in enumerate(targets)}
            for _ in range(4):  # the targets pulse
                now += 130
                yield view, now
            view.grades = {}
            wrong = str(rng.randint(1, 24))
            view.apply(
                {
                    "event": "illegal",
                    "reason": "wrong-distance",
                    "player": mover,
                    "message": f"That man cannot go to {wrong}: count the pips again.",
                    "law": "",
                    "table": wrong,
                }
            )
            yield view, now
            view.show_detail[mover] = True
            yield view, now
            view.show_detail[mover] = False
            view.apply({"event": "legal", "player": mover})
            yield view, now
        view.busy = "Thinking about that play..." if turn % 3 == 0 else ""
        for _ in range(2):  # the spinner turns
            now += 100
            yield view, now
        view.busy = ""
        view.apply({"event": "play", "player": mover, "dice": [d1, d2], "move": str(play)})
        view.last_play = play_arrows(play, position.turn)
        position = play.result
        view.set_position(position)
        view.movable = ()
        if turn == 4:
            view.apply({"event": "table", "status": "disconnected", "message": "Table unplugged."})
            yield view, now
            view.apply({"event": "table", "status": "connected", "message": "Table connected"})
        if turn == 8:
            view.menu_title, view.menu = "Menu", ("Resume", "New game", "Lessons")
            yield view, now
            view.menu_title, view.menu = "", ()
        if turn == 9:
            view.setup = (Correction("12", "white", 1, 3), Correction("6", "white", 5, 3))
            view.lesson_result = True
            yield view, now
            view.setup, view.lesson_result = (), None
        yield view, now


def test_a_frame_drawn_over_the_last_is_the_whole_frame(calibration: Calibration) -> None:
    pygame.font.init()
    size = (calibration.width, calibration.height)
    kept = Renderer(pygame.Surface(size), calibration)
    fresh = Renderer(pygame.Surface(size), calibration)
    screen = kept.surface.get_rect()
    frames = partial = 0
    for view, now in views(seed=3):
        before = kept.surface.copy()
        changed = kept.draw(view, now)
        fresh.invalidate()
        assert fresh.draw(view, now) == [fresh.surface.get_rect()]
        assert differing(kept.surface, fresh.surface, screen).count() == 0, f"frame {frames}"
        outside = differing(before, kept.surface, screen)
        for rect in changed:
            outside.erase(pygame.mask.Mask(rect.size, fill=True), rect.topleft)
        assert outside.count() == 0, f"frame {frames}: a change outside the areas reported"
        frames += 1
        partial += bool(changed) and changed != [kept.surface.get_rect()]
    assert frames > 100 and partial > frames // 2  # most frames redraw only a part


def test_a_frame_with_nothing_new_draws_nothing(renderer: Renderer, view: TableView) -> None:
    view.movable = ("13", "24")
    view.say("both", "Your turn: move.")
    assert renderer.draw(view, 0) == [renderer.surface.get_rect()]
    renderer.surface.fill((1, 2, 3), pygame.Rect(0, 0, 5, 5))  # not the renderer's: kept
    assert renderer.draw(view, 16) == []
    assert renderer.draw(view.copy(), 1000) == []
    assert renderer.surface.get_at((2, 2))[:3] == (1, 2, 3)
    renderer.invalidate()
    assert renderer.draw(view, 16) == [renderer.surface.get_rect()]
    assert renderer.surface.get_at((2, 2))[:3] != (1, 2, 3)


def test_only_the_areas_of_what_changed_are_reported(renderer: Renderer, view: TableView) -> None:
    view.movable = ("13",)
    renderer.draw(view, 0)
    view.movable = ("13", "24")
    changed = renderer.draw(view, 16)
    assert changed and sum(r.width * r.height for r in changed) < 0.05 * 1280 * 720
    spot = renderer.geometry.strips["24"].slots[1]
    assert any(rect.collidepoint(spot) for rect in changed)
