"""The companion's HTML: each page's frame, written by the server; the live parts are filled
in by ``static/app.js`` from the state the server pushes. Every text that comes from outside
the code (a student's name, a lesson's words) is escaped here.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from kiosk.companion.board import from_position, svg
from kiosk.companion.library import Library
from kiosk.display.view import play_arrows
from kiosk.tutor.lessons import Lesson
from kiosk.tutor.lessons.model import CountStep, PlayStep, QuestionStep, SetupStep

TITLE = "Backgammon Table"


def page(title: str, role: str, body: str, csrf: str = "", refresh: int = 0) -> str:
    """A whole page: the table's own style sheet and script, nothing from elsewhere."""
    meta = f'<meta name="csrf" content="{escape(csrf)}">' if csrf else ""
    if refresh:
        meta += f'<meta http-equiv="refresh" content="{refresh}">'
    return (
        "<!doctype html>"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        f"{meta}"
        '<script src="/static/app.js" defer></script>'
        f'</head><body class="page-{role}" data-role="{role}">{body}</body></html>'
    )


def index(enabled_pages: Iterable[tuple[str, str, str]]) -> str:
    """The front page: where each person goes."""
    items = "".join(
        f'<li><a href="{href}">{escape(name)}</a> <span class="hint">{escape(words)}</span></li>'
        for href, name, words in enabled_pages
    )
    body = f'<main class="narrow"><h1>{TITLE}</h1><ul class="links">{items}</ul></main>'
    return page(TITLE, "index", body)


def projector() -> str:
    """The projector's page: the live board, the lesson, the vote and the best plays."""
    body = """
<main class="projector">
 <header class="top">
  <h1 id="banner">Backgammon Table</h1>
  <div id="join" class="join" hidden>Join on your phone:
   <span id="join-where"></span> code <b id="join-code"></b></div>
 </header>
 <div class="stage">
  <div class="board-area">
   <div id="board" class="board-box" aria-live="off"></div>
   <div class="lines">
    <p id="line-black" class="line black"></p>
    <p id="line-white" class="line white"></p>
   </div>
  </div>
  <aside class="side">
   <p id="offline" class="offline" hidden>The table's page lost its connection: trying again.</p>
   <p id="connection" class="warning" hidden></p>
   <section id="lesson" class="panel" hidden>
    <h2 id="lesson-title"></h2>
    <p id="lesson-step" class="step"></p>
    <p id="lesson-text" class="text"></p>
    <ol id="lesson-choices" class="choices"></ol>
    <p id="lesson-result" class="result"></p>
    <p id="lesson-source" class="source"></p>
   </section>
   <section id="problem" class="panel" hidden><h2 id="problem-label"></h2></section>
   <section id="vote" class="panel" hidden>
    <h2>The class's vote</h2>
    <ol id="vote-options" class="spread"></ol>
    <p id="vote-total" class="hint"></p>
   </section>
   <section id="candidates" class="panel" hidden>
    <h2>The best plays <span id="candidates-votes" class="hint"></span></h2>
    <ol id="candidate-list" class="candidates"></ol>
   </section>
  </aside>
 </div>
 <footer class="bottom"><span id="pips"></span><span id="score"></span></footer>
</main>"""
    return page(f"{TITLE}: projector", "projector", body)


def login(csrf: str) -> str:
    """The teacher's PIN."""
    body = """
<main class="narrow">
 <h1>The teacher's page</h1>
 <form id="login" data-action="/api/login" data-then="reload" class="card">
  <label for="pin">Teacher's PIN</label>
  <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off"
         maxlength="8" required>
  <button type="submit">Open the teacher's page</button>
 </form>
 <p id="status" class="status" role="alert"></p>
 <p class="hint">The PIN is in the table's configuration file ([companion] teacher_pin).</p>
</main>"""
    return page(f"{TITLE}: teacher", "login", body, csrf)


def _options(values: Iterable[tuple[str, str]], selected: str = "") -> str:
    return "".join(
        f'<option value="{escape(v)}"{" selected" if v == selected else ""}>{escape(t)}</option>'
        for v, t in values
    )


def teacher(csrf: str, library: Library) -> str:
    """The teacher's page: lessons, positions, ranked plays, votes, the class's game, progress."""
    first = library.openings_lesson()
    lessons = _options(
        ((str(x.info.number), f"{x.info.number}. {x.title}") for x in library.lessons),
        selected=str(first.info.number) if first is not None else "",
    )
    openings = ""
    if first is not None:
        throws = "".join(
            f'<button type="button" class="throw" data-post="/api/teacher/opening" '
            f'data-throw="{a}-{b}">{a}-{b}</button>'
            for a, b in library.openings()
        )
        openings = (
            f"<p>{escape(first.title)} (lesson {first.info.number}):</p>"
            f'<div class="throws" id="openings">{throws}</div>'
        )
    positions = _options(
        [("", "— or pick a position from the lessons —")]
        + [(f"{pid} {turn} {dice}", label) for label, pid, turn, dice in library.positions()]
    )
    dice = _options((str(n), str(n)) for n in range(1, 7))
    body = f"""
<main class="teacher">
 <header class="top">
  <h1>The teacher's page</h1>
  <nav><a href="/projector" target="_blank">Projector page</a>
   <a href="/handouts" target="_blank">Handouts</a>
   <button type="button" data-post="/api/logout" data-then="reload">Log out</button></nav>
 </header>
 <p id="status" class="status" role="alert"></p>
 <div class="grid">
  <section class="card" id="class-card">
   <h2>The class</h2>
   <p id="class-state">No class is open.</p>
   <p id="awake" class="hint" aria-live="polite"></p>
   <p class="join-big" id="join-code"></p>
   <div class="row">
    <button type="button" data-post="/api/teacher/class/open" id="open-class">Open a class</button>
    <button type="button" data-post="/api/teacher/class/renew">New code</button>
    <button type="button" data-post="/api/teacher/class/close">End the class</button>
   </div>
   <ul id="students" class="students"></ul>
  </section>
  <section class="card board-card">
   <h2 id="banner">The table</h2>
   <div id="board" class="board-box"></div>
   <p id="line-white" class="line"></p>
   <p id="lesson-text" class="text"></p>
  </section>
  <section class="card">
   <h2>Lessons</h2>
   <form data-action="/api/teacher/lesson" id="lesson-form">
    <label>Lesson <select name="lesson" id="lesson-select">{lessons}</select></label>
    <label>Step <input name="step" type="number" min="1" max="99" placeholder="where left"
      id="lesson-step-input"></label>
    <label>Learner <input name="learner" value="class" maxlength="24"></label>
    <button type="submit">Run it on the table</button>
   </form>
   {openings}
   <button type="button" data-post="/api/teacher/lesson/leave">Leave the lesson</button>
   <form data-action="/api/teacher/learner/hints" id="hints-form">
    <label>Learner <input name="learner" value="class" maxlength="24"></label>
    <label>Hints when a man is lifted <select name="hints">
     <option value="">as the table is set</option>
     <option value="legal">where a man may go</option>
     <option value="everything">every move graded</option>
     <option value="budget 3">3 graded moves a turn</option>
     <option value="think">think first: none until Done</option>
    </select></label>
    <button type="submit">Keep it for this learner</button>
   </form>
  </section>
  <section class="card">
   <h2>A position</h2>
   <form data-action="/api/teacher/position" id="position-form">
    <label>Position ID <input name="position" id="position-id" maxlength="14"
      placeholder="4HPwATDgc/ABMA"></label>
    <select id="position-pick" aria-label="a position from the lessons">{positions}</select>
    <label>On roll <select name="turn" id="position-turn">
      <option value="white">white</option><option value="black">black</option></select></label>
    <label>Dice <select name="d1" id="position-d1">{dice}</select>
      <select name="d2" id="position-d2">{dice}</select></label>
    <div class="row">
     <button type="submit" name="go" value="table">Set it up on the table</button>
     <button type="submit" name="go" value="rank">Ranked plays only</button>
    </div>
   </form>
  </section>
  <section class="card">
   <h2>Ranked plays</h2>
   <p id="problem-label" class="hint">No roll in question yet.</p>
   <div class="row">
    <button type="button" data-post="/api/teacher/rank" id="rank">Ranked plays of this roll</button>
    <button type="button" data-post="/api/teacher/show" data-on="1" id="show-plays">Show them
      on the projector</button>
    <button type="button" data-post="/api/teacher/show" data-on="0">Hide them</button>
   </div>
   <ol id="candidate-list" class="candidates"></ol>
  </section>
  <section class="card">
   <h2>The class's vote</h2>
   <div class="row">
    <button type="button" data-post="/api/teacher/vote" data-source="top" id="vote-top">Vote on
      the top plays</button>
    <button type="button" data-post="/api/teacher/vote" data-source="legal">Vote on every
      legal play</button>
    <button type="button" data-post="/api/teacher/vote" data-source="question">Vote on the
      lesson's question</button>
    <button type="button" data-post="/api/teacher/reveal" id="reveal">Reveal the best</button>
   </div>
   <ol id="vote-options" class="spread"></ol>
   <p id="vote-total" class="hint"></p>
  </section>
  <section class="card">
   <h2>The class against the teacher</h2>
   <p class="hint">A new game with the coach on. When the class is on roll, a vote on the top
    plays opens by itself; reveal it, and play the class's choice on the table.</p>
   <div class="row">
    <button type="button" data-post="/api/teacher/class-game" data-side="white"
      id="class-white">The class plays white</button>
    <button type="button" data-post="/api/teacher/class-game" data-side="black">The class
      plays black</button>
   </div>
  </section>
  <section class="card wide">
   <h2>Progress</h2>
   <div class="row"><button type="button" id="progress-load">Show each learner's progress</button>
    <a href="/teacher/progress.csv" download id="csv">Download as CSV</a></div>
   <div id="progress"></div>
  </section>
 </div>
</main>"""
    return page(f"{TITLE}: teacher", "teacher", body, csrf)


def join(csrf: str) -> str:
    """A student's way in: the class's code and a name."""
    body = """
<main class="narrow">
 <h1>Join the class</h1>
 <form id="join-form" data-action="/api/join" data-then="/student" class="card">
  <label for="code">The code on the projector</label>
  <input id="code" name="code" autocomplete="off" autocapitalize="characters" maxlength="8"
         required>
  <label for="name">Your name</label>
  <input id="name" name="name" maxlength="24" autocomplete="given-name" required>
  <button type="submit">Join</button>
 </form>
 <p id="status" class="status" role="alert"></p>
</main>"""
    return page(f"{TITLE}: join the class", "join", body, csrf)


def student(csrf: str, name: str) -> str:
    """A student's page: the board, the vote, their own answers."""
    body = f"""
<main class="student">
 <header class="top"><h1>Hello, <span id="me-name">{escape(name)}</span></h1></header>
 <p id="offline" class="offline" hidden>Connection lost: trying again.</p>
 <p id="status" class="status" role="alert"></p>
 <div id="board" class="board-box"></div>
 <p id="lesson-text" class="text"></p>
 <section id="vote" class="card" hidden>
  <h2 id="vote-question"></h2>
  <div id="vote-buttons" class="vote-buttons"></div>
  <p id="vote-result" class="result"></p>
 </section>
 <p id="no-vote" class="hint">When your teacher opens a vote, the plays appear here.</p>
 <section class="card"><h2>Your progress</h2><div id="my-progress"></div></section>
</main>"""
    return page(f"{TITLE}: {name}", "student", body, csrf)


def message(title: str, text: str, link: tuple[str, str] | None = None) -> str:
    """A page that says one thing (an error, a closed class)."""
    more = f'<p><a href="{link[0]}">{escape(link[1])}</a></p>' if link else ""
    body = f'<main class="narrow"><h1>{escape(title)}</h1><p>{escape(text)}</p>{more}</main>'
    return page(f"{TITLE}: {title}", "message", body)


def health(rows: list[tuple[str, str, bool]], name: str) -> str:
    """The health page (it reloads itself every 30 seconds)."""
    lines = "".join(
        f'<tr class="{"ok" if ok else "bad"}"><th>{escape(what)}</th>'
        f"<td>{'✔' if ok else '✘'} {escape(text)}</td></tr>"
        for what, text, ok in rows
    )
    body = (
        f'<main class="narrow"><h1>{escape(name)}: health</h1>'
        f'<table class="health">{lines}</table>'
        '<p class="hint">The same figures for Prometheus: <a href="/metrics">/metrics</a>. '
        "This page reloads itself every 30 seconds.</p></main>"
    )
    return page(f"{TITLE}: health", "health", body, refresh=30)


# -- handouts ---------------------------------------------------------------------------------


def handouts(library: Library) -> str:
    """The printable handouts, one a lesson."""
    items = "".join(
        f'<li><a href="/handouts/{x.info.number}">{x.info.number}. {escape(x.title)}</a></li>'
        for x in library.lessons
    )
    body = (
        '<main class="narrow"><h1>Handouts</h1><p>One printable page a lesson (print it from '
        f'the browser).</p><ul class="links numbered">{items}</ul></main>'
    )
    return page(f"{TITLE}: handouts", "handouts", body)


def handout(lesson: Lesson) -> str:
    """A lesson on paper: each step's words, its position drawn with the book's play."""
    parts = [
        f'<header class="handout-head"><h1>Lesson {lesson.info.number}: '
        f"{escape(lesson.title)}</h1><p>{escape(lesson.info.summary)}</p></header>"
    ]
    for step in lesson.steps:
        parts.append(_handout_step(step))
    body = f'<main class="handout">{"".join(parts)}</main>'
    return page(f"Lesson {lesson.info.number}: {lesson.title}", "handout", body)


def _handout_step(step: object) -> str:
    number = getattr(step, "number", 0)
    text = escape(" ".join(str(getattr(step, "text", "")).split()))
    cite = escape(getattr(step, "cite", ""))
    source = f'<p class="source">{cite}</p>' if cite else ""
    if isinstance(step, PlayStep):
        play = step.plays[step.accept[0]] if step.accept and step.accept[0] in step.plays else None
        arrows = play_arrows(play, step.start.turn) if play is not None else ()
        picture = from_position(step.start, step.dice, arrows)
        d1, d2 = step.dice
        title = f"{str(step.start.turn).capitalize()} to play {d1}-{d2}"
        books = "".join(
            f"<li>{escape(b.book)}: {escape(b.hit)}"
            + (f" (for a gammon: {escape(b.gammon)})" if b.gammon != b.hit else "")
            + (f" — {escape(b.note)}" if b.note else "")
            + "</li>"
            for b in step.books
        )
        best = " or ".join(escape(a) for a in step.accept)
        return (
            f'<section class="step play"><h2>{number}. {escape(title)}</h2>'
            f"<figure>{svg(picture, title)}</figure>"
            f"<p><b>The play: {best}.</b> {escape(step.explain)}</p>"
            f"{f'<ul>{books}</ul>' if books else ''}{source}</section>"
        )
    if isinstance(step, SetupStep | CountStep):
        position = step.position if isinstance(step, SetupStep) else step.board
        return (
            f'<section class="step"><h2>{number}.</h2><p>{text}</p>'
            f"<figure>{svg(from_position(position))}</figure>{source}</section>"
        )
    if isinstance(step, QuestionStep):
        choices = "".join(f"<li>{escape(c)}</li>" for c in step.choices)
        return (
            f'<section class="step question"><h2>{number}. A question</h2><p>{text}</p>'
            f'<ol class="choices" type="A">{choices}</ol>'
            f'<p class="answer">Answer: {escape(step.choices[step.answer])}. '
            f"{escape(step.explain)}</p>{source}</section>"
        )
    return f'<section class="step text"><h2>{number}.</h2><p>{text}</p>{source}</section>'
