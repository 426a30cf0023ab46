"""The last fight, as the page shows it once it is over (issue 34: a bot's fight took a second and
left only the log). A table watches its fight move by move and keeps, when it ends, its last
strengths and how it ended; all of it public (a fight's strengths are in every seat's view, its
outcome in everyone's narration), each seat hearing the fight's lines as its own narration tells them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from munchkin.engine.combat import combat_breakdown
from munchkin.engine.events import BadStuff, Combat, Death, Escape, Event, Kill, Lost, WeighAgain, as_event
from munchkin.engine.view import event_text

if TYPE_CHECKING:
    from munchkin.engine.game import Game

# the most lines of a fight sent with it (a long fight's last ones: how it ended)
FIGHT_LINES = 16


def _record(ev: tuple[Any, ...]) -> Event | None:
    return ev if isinstance(ev, Event) else as_event(ev)


class FightWatch:
    """Follows a table's fight: `seen(g)` after each move keeps the fight's strengths while it lasts;
    when the combat is gone, the fight is `last` (until the next fight ends) with the events it spans."""

    def __init__(self) -> None:
        self.start: int | None = None  # the event that began the fight being watched, if one is on
        self.combat: dict[str, Any] = {}  # its strengths after the last move seen
        self.last: tuple[int, int, dict[str, Any]] | None = None  # the last fight over: events [start, end), strengths

    def seen(self, g: Game) -> None:
        """Note the table after a move: a fight on keeps its latest strengths until it is decided (won, or
        lost and Running Away begins: what Bad Stuff then takes is no part of the fight's numbers); one
        gone becomes the last."""
        if g.combat is not None:
            if self.start is None:
                self.start = _fight_start(g)
            if not self.combat or not _decided(g, self.start):
                self.combat = combat_breakdown(g)
        elif self.start is not None:
            if self.combat:
                self.last = (self.start, len(g.events), self.combat)
            self.start, self.combat = None, {}

    def forget(self) -> None:
        """Nobody watches: the fight on is followed no more (the last one over is kept)."""
        self.start, self.combat = None, {}

    def message(self, g: Game, seat: int | None) -> dict[str, Any] | None:
        """The last fight for one seat (None: no fight has ended since the table was watched): `id` (the
        event that began it), `combat` (its last strengths, as a view's `combat`), `outcome` (how it ended,
        in words) and `lines` (its narration as this seat hears it, the last FIGHT_LINES)."""
        if self.last is None:
            return None
        start, end, combat = self.last
        events = g.events[start:end]
        lines = [t for t in (event_text(g, ev, seat) for ev in events) if t]
        return {"id": start, "combat": combat, "outcome": fight_outcome(g, events), "lines": lines[-FIGHT_LINES:]}


def _fight_start(g: Game) -> int:
    """The index of the event that began the fight on now (its latest "combat" event)."""
    for i in range(len(g.events) - 1, -1, -1):
        if isinstance(_record(g.events[i]), Combat):
            return i
    return len(g.events)


def _decided(g: Game, start: int) -> bool:
    """Has the fight begun at event `start` been decided (its monsters killed, or its fighters lost and
    Running Away), and not weighed again since?"""
    decided = False
    for ev in g.events[start:]:
        rec = _record(ev)
        if isinstance(rec, Kill | Lost):
            decided = True
        elif isinstance(rec, WeighAgain):
            decided = False
    return decided


def fight_outcome(g: Game, events: Sequence[tuple[Any, ...]]) -> str:
    """How a fight ended, in a sentence from its public events: who killed what, who ran away, who was
    caught and suffered Bad Stuff or died ("Bot 2 killed Orc.", "Bot 2 ran away from Orc.")."""
    said: list[str] = []
    name = lambda seat: g.players[seat].name  # noqa: E731
    for ev in events:
        rec = _record(ev)
        if isinstance(rec, Kill):
            who = name(rec.seat) + (f" and {name(rec.helper)}" if rec.helper >= 0 else "")
            said.append(f"{who} killed {', '.join(g.name(m) for m in rec.monsters)}")
        elif isinstance(rec, Escape):
            said.append(f"{name(rec.seat)} ran away" + (f" from {g.name(rec.monster)}" if rec.monster >= 0 else ""))
        elif isinstance(rec, BadStuff):
            said.append(f"{g.name(rec.monster)} caught {name(rec.seat)}: Bad Stuff")
        elif isinstance(rec, Death):
            said.append(f"{name(rec.seat)} died")
    if not said:
        return "The fight is over."
    text = "; ".join(dict.fromkeys(said))
    return text[0].upper() + text[1:] + "."
