"""One prompt per player, by priority: what each player's line shows now.

Each player holds at most one text of each kind of prompt; the line shows the most urgent
kind held (:data:`PRIORITY`, most urgent first), and the coach's verdict stays one Select
away beneath whatever is above it. Against the table everything the visitor must read
faces the visitor: the table's own side shows only the table's own words (``own``).

==========  =================================================  ==========================
kind        what it is                                         held until
==========  =================================================  ==========================
answer      a question that stops the game: a double to        it is answered
            answer, which play was made, a wrong move to let
            stand
wrong       a wrong placement, die or set-up to put right      it is put right
result      the game's result (and the table's review)         the next game
lesson      a lesson's step, answer or correction              the next step
done        the men show a whole play: press Done              the play ends or changes
notice      why nothing happens yet: a man to push, a hit      its cause goes (the men
            man to the bar, the dice settling                  move, the turn ends)
coach       the coach's verdict on the player's play, while    the game goes on (a throw,
            the game has not gone on (a take-back is offered   a play, the cube)
            only then)
turn        what the turn asks now: throw, play the dice,      the player's turn ends
            move the table's men, wait for an answer
coached     the coach's verdict once the game went on          the player's next play
said        words in passing: the play made, the board set     replaced
own         the table's own words, on the table's own side     replaced
==========  =================================================  ==========================

>>> prompts = Prompts()
>>> prompts.put("white", Prompt.SAID, Text("You played 8/5 6/5."))
>>> prompts.put("white", Prompt.COACH, Text("Good play: 8/5 6/5.", rating="fine"))
>>> prompts.top("white").text
'Good play: 8/5 6/5.'
>>> prompts.put("white", Prompt.ANSWER, Text("Black doubles to 2. Select: take, Back: pass."))
>>> prompts.top("white").text, prompts.kind("white")
('Black doubles to 2. Select: take, Back: pass.', <Prompt.ANSWER: 'answer'>)
>>> prompts.clear("white", Prompt.ANSWER); prompts.kind("white")
<Prompt.COACH: 'coach'>
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from kiosk.tutor.coach import TAKE_BACK_QUESTION


class Prompt(StrEnum):
    """The kinds of prompt, most urgent first (see the module docstring); each equals its
    name as a string (``Message.prompt`` names one so)."""

    ANSWER = "answer"
    WRONG = "wrong"
    RESULT = "result"
    LESSON = "lesson"
    DONE = "done"
    NOTICE = "notice"
    COACH = "coach"
    TURN = "turn"
    COACHED = "coached"
    SAID = "said"
    OWN = "own"


#: The kinds of prompt, most urgent first.
PRIORITY: tuple[Prompt, ...] = tuple(Prompt)

#: The kinds the coach's verdict is held as: fresh, then once the game went on.
VERDICTS = (Prompt.COACH, Prompt.COACHED)

#: The only kind drawn on the table's own side in a game against it.
OWN = Prompt.OWN


@dataclass(frozen=True)
class Text:
    """A short message for one player (drawn facing that player) and its full explanation."""

    text: str
    detail: str = ""
    warning: bool = False
    rating: str = ""  # the coach's verdict on the player's play ("fine", "bad"...), if any
    take_back: bool = False  # the coach offers to take the play back (the Back button)
    title: str = ""  # the full explanation's heading (the message itself if empty)


class Prompts:
    """Each player's prompts by kind; the line shows the most urgent one."""

    def __init__(self) -> None:
        self.held: dict[str, dict[Prompt, Text]] = {"white": {}, "black": {}}

    def put(self, player: str, kind: Prompt, text: Text) -> None:
        """Hold ``text`` as ``player``'s prompt of ``kind`` (replacing the one held)."""
        if kind not in PRIORITY:
            raise ValueError(f"no prompt is of kind {kind!r}")
        self.held.setdefault(player, {})[kind] = text

    def get(self, player: str, kind: Prompt) -> Text | None:
        """``player``'s prompt of ``kind``, if one is held."""
        return self.held.get(player, {}).get(kind)

    def clear(self, player: str, *kinds: Prompt) -> None:
        """Drop ``player``'s prompts of ``kinds`` (every kind with none named)."""
        held = self.held.get(player, {})
        for kind in kinds or tuple(held):
            held.pop(kind, None)

    def clear_all(self, *kinds: Prompt) -> None:
        """Drop both players' prompts of ``kinds`` (every kind with none named)."""
        for player in self.held:
            self.clear(player, *kinds)

    def kind(self, player: str) -> Prompt | None:
        """The kind of the prompt ``player``'s line shows (None: nothing to show)."""
        held = self.held.get(player, {})
        return next((k for k in PRIORITY if k in held), None)

    def top(self, player: str) -> Text | None:
        """What ``player``'s line shows: the most urgent prompt, with the coach's verdict
        held beneath it added to its full explanation (one Select away)."""
        kind = self.kind(player)
        if kind is None:
            return None
        shown = self.held[player][kind]
        if kind in VERDICTS:
            return shown
        verdict = next((self.held[player][k] for k in VERDICTS if k in self.held[player]), None)
        if verdict is None:
            return shown
        coach = f"The coach: {verdict.text}" + (f"\n{verdict.detail}" if verdict.detail else "")
        detail = f"{shown.detail or shown.text}\n\n{coach}"
        return replace(shown, detail=detail)

    def lapse_offers(self) -> None:
        """The game went on: a verdict's take-back offer lapses, and the verdict is held
        beneath what the turn asks (``coached``)."""
        for held in self.held.values():
            verdict = held.pop(Prompt.COACH, None)
            if verdict is None:
                continue
            if verdict.take_back:
                text = verdict.text.removesuffix(TAKE_BACK_QUESTION)
                verdict = replace(verdict, text=text, take_back=False)
            held[Prompt.COACHED] = verdict

    def copy(self) -> Prompts:
        """A snapshot (the display draws it while the events go on)."""
        other = Prompts()
        other.held = {player: dict(held) for player, held in self.held.items()}
        return other
