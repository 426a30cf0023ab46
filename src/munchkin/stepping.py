"""A replay to step through (`munchkin replay FILE --to N`): a saved game played again up to its Nth
move, then shown as one seat saw it at the terminal, as a spectator saw it, or whole for an analyst.

Move N is the game after the first N actions of the save's log (0: the deal, before any move). A
seat's view is drawn from `Game.view(seat)`, the narration that seat heard and that seat's own moves,
as the terminal seat draws it; only `--all` reads every hand and the decks' order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

from munchkin.engine import snapshot
from munchkin.engine.chance import RecordedChance, SystemChance
from munchkin.engine.game import Game
from munchkin.engine.view import narrate
from munchkin.terminal import Seat, phase_title

if TYPE_CHECKING:
    from munchkin.engine.actions import Action
    from munchkin.menu import Entry

NARRATION = 12  # the last lines of narration shown before the table
ALL = "all"  # the analyst's view: every hand and the decks' order


def logged_moves(loaded: Game) -> list[Action]:
    """The actions of a loaded save's log, in order: move N is the game after the first N of them."""
    return [e[1] for e in loaded.log if e[0] == "act"]


def fresh(loaded: Game) -> Game:
    """A new game from the loaded save's setup, chance and rules, before its first move."""
    chance = None if loaded.seeded else RecordedChance(loaded.chance_log(), then=SystemChance())
    return Game(loaded.setup, chance, loaded.rules)


def step_to(loaded: Game, n: int, record: dict[str, Any] | None = None) -> Game:
    """The loaded save's game again, after its first `n` moves: restored from the save's `record` of
    every move's state when it has one (no rule is run: the game shows as it was played), else
    played again from the deal."""
    if record is not None:
        return snapshot.at_move(loaded.setup, record, n, loaded.rules)
    g = fresh(loaded)
    for a in logged_moves(loaded)[:n]:
        g.apply(a)
    return g


def _turns(loaded: Game, record: dict[str, Any] | None) -> Iterator[tuple[int, str, int]]:
    """Before each move of the save, its turn, phase and active seat: read from the record's states
    when the save has one, else from the game played again."""
    if record is not None:
        state = record["start"]["state"]
        for step in record["moves"]:
            yield state["turn"], state["phase"], state["active"]
            state = snapshot.patch(state, step["change"])
        return
    g = fresh(loaded)
    for a in logged_moves(loaded):
        yield g.turn, g.phase, g.active
        g.apply(a)


def parse_seat(text: str, names: list[str]) -> int:
    """A seat by its number (from 0, as the engine counts) or by its player's name; ValueError saying
    which seats there are otherwise."""
    seats = ", ".join(f"{i} {n}" for i, n in enumerate(names))
    t = text.strip()
    if t.lstrip("-").isdigit():
        s = int(t)
        if 0 <= s < len(names):
            return s
        raise ValueError(f"there is no seat {s}: this game's seats are {seats}")
    for i, n in enumerate(names):
        if n.lower() == t.lower():
            return i
    raise ValueError(f"no player is named {text!r}: this game's seats are {seats}")


def print_moves(out: Console, loaded: Game, texts: list[str], record: dict[str, Any] | None = None) -> None:
    """The numbered moves of the save, each under the turn it was made in, so that one knows which N
    to ask for. `texts` are the log's texts of the moves, as `replay --verbose` prints them: what the
    save holds; the turns are read from its `record` when it has one."""
    out.print(f"{0:>5}. the deal (before any move)")
    shown: tuple[int, str] | None = None
    moves = logged_moves(loaded)
    for i, (a, text, (turn, phase, active)) in enumerate(zip(moves, texts, _turns(loaded, record), strict=True), 1):
        now = (turn, "setup" if phase == "setup" else "turn")
        if now != shown:
            shown = now
            what = "character creation" if now[1] == "setup" else f"{loaded.name_of(active)}'s turn"
            out.print(f"       Turn {turn + 1}: {escape(what)}")
        out.print(f"{i:>5}. {escape(loaded.name_of(a.seat))}: {escape(text)}")
    out.print("Show the game after move N with: munchkin replay FILE --to N [--seat S | --spectator | --all]")


class ReplaySeat(Seat):
    """The terminal seat's table, frozen at one move: nobody is asked anything, and the moves listed
    are the seat's own only when the game waits on it."""

    def situation(self, view: dict[str, Any]) -> str:
        """What comes next: the seat's own question when the game waits on it, else whom it waits on."""
        if view["over"]:
            return "The game is over."
        if self.me in view["to_act"]:
            return "Next, you decide: " + super().situation(view)
        return f"Next: the game waits on {waiting(view)}."

    def list_moves(self, path: list[str], view: dict[str, Any] | None = None) -> tuple[list[str], list[Entry]]:
        """The seat's numbered moves, as the terminal lists them, only when the game waits on it."""
        if self.me not in self.g.to_act:
            return [], []
        return super().list_moves(path, view)


def waiting(view: dict[str, Any]) -> str:
    """Whom the game waits on, by name."""
    players = view["players"]
    return ", ".join(players[s]["name"] for s in view["to_act"]) or "nobody"


def show_at(out: Console, g: Game, who: int | str | None, n: int, total: int) -> None:
    """The game `g` after move `n` of `total`, as seat `who` sees it (None: a spectator; ALL: everything)."""
    seat = who if isinstance(who, int) else None
    names = [p["name"] for p in g.view(None)["players"]]
    if seat is not None:
        label = f"seat {seat}, {names[seat]}'s view"
    else:
        label = "everything: every hand, the decks top first" if who == ALL else "a spectator's view"
    out.print(f"[bold]After move {n} of {total}[/bold] ({escape(label)})")
    heard = narrate(g, seat, 0)[-NARRATION:]
    if heard:
        out.print(f"[bold]What happened[/bold] (the last {len(heard)} lines):")
        for line in heard:
            out.print("  " + escape(line))
    if seat is not None:
        s = ReplaySeat(g, {}, out, seat=seat)
        s.seen = g.view(seat)["event_count"]  # told above
        s.show()
    else:
        show_table(out, g, who == ALL)
    if g.over:
        show_over(out, g.view(seat))


def show_table(out: Console, g: Game, everything: bool) -> None:
    """The table as a spectator sees it; with `everything`, every hand, the decks' order and every
    waited-on seat's moves too."""
    view = g.view(None)
    s = ReplaySeat(g, {}, out, seat=-1)
    players = view["players"]
    phase = phase_title(view)
    out.print()
    out.rule(f"Turn {view['turn'] + 1}: {escape(players[view['active']]['name'])}'s turn, {phase}", style="bold")
    for q in players:
        turn = "  <- their turn" if q["seat"] == view["active"] else ""
        held = f"{q['hand_size']} card{'' if q['hand_size'] == 1 else 's'} in hand"
        out.print(f"  [bold]{escape(q['name'])}[/bold] (seat {q['seat']}): {s.character(q, view)}, {held}{turn}")
        out.print("    " + s.table_line(q))
        if everything:
            hand = g.view(q["seat"])["hand"]
            out.print(f"    Hand: {s.cards(sorted(hand, key=lambda c: (c['deck'], c['name'])))}")
    dd = escape(view["door_discard"][-1]["name"]) if view["door_discard"] else "empty"
    td = escape(view["treasure_discard"][-1]["name"]) if view["treasure_discard"] else "empty"
    out.print(
        f"[bold]Decks[/bold]: Door {view['door_deck']} (discard top: {dd}); "
        f"Treasure {view['treasure_deck']} (discard top: {td})"
    )
    if everything:
        for deck, cards in (("Door", g.door_deck), ("Treasure", g.treasure_deck)):
            order = ", ".join(escape(g.cdef[c].name) for c in reversed(cards)) or "empty"
            out.print(f"  {deck} deck, top first: {order}")
    s.show_combat(view["combat"])
    if g.over:
        return
    out.print(f"[bold]Next: the game waits on {escape(waiting(view))}.[/bold]")
    if everything:
        for seat in view["to_act"]:
            out.print(f"[bold]{escape(players[seat]['name'])}'s moves[/bold]:")
            ReplaySeat(g, {}, out, seat=seat).list_moves([])


def show_over(out: Console, view: dict[str, Any]) -> None:
    """The end of the game, when move N is its last."""
    winners = view["winners"]
    if winners:
        names = " and ".join(view["players"][s]["name"] for s in winners)
        out.print(f"[bold]Game over: {escape(names)} {'wins' if len(winners) == 1 else 'win'}.[/bold]")
    else:
        out.print(f"[bold]Game over at the turn cap ({view['turn']} turns): no winner.[/bold]")
