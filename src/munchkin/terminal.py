"""The terminal seat: a person playing a game through text lines while bots play the other seats.

The seat draws only on the engine's public interface, as the web table does: the seat's view
(`Game.view`), its legal actions and their texts, `Game.play`/`apply`, who is to act, the narration
(`narrate`), the save (`to_json`), and the presentation helpers (the staged moves menu, the card
faces, the story of the game). It never reads the game's players, fight, decks or log.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.markup import escape

from munchkin.agents.base import decide
from munchkin.engine.actions import MunchkinError
from munchkin.engine.rules import ESCAPE_ROLL
from munchkin.engine.view import narrate
from munchkin.menu import Entry, build_menu

if TYPE_CHECKING:
    from munchkin.agents.base import Agent
    from munchkin.engine.cards import CardDef
    from munchkin.engine.game import Game


# ====================================================================== card words
def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def card_summary(d: CardDef) -> str:
    """A short description of a card: its kind and numbers."""
    if d.is_monster:
        s = f"Monster, Level {d.level}, {_plural(d.treasures, 'Treasure')}"
        if d.levels != 1:
            s += f", worth {_plural(d.levels, 'level')}"
        for tag in sorted(d.kin):
            s += ", " + tag.replace("_", " ").title()
        return s
    if d.is_item:
        parts = [("Steed" if d.steed else "Item") + (f" {d.bonus:+d}" if d.bonus else "")]
        if d.run_away:
            parts.append(f"Run Away {d.run_away:+d}")
        if d.needs_steed:
            parts.append("needs a Steed")
        if d.slot == "hands":
            parts.append("1 hand" if d.hands == 1 else f"{d.hands} hands")
        elif d.slot != "none":
            parts.append(d.slot)
        if d.laser:
            parts.append("laser")
        if d.big:
            parts.append("Big")
        if d.complex:
            parts.append("Complex")
        if d.gold:
            parts.append(f"{d.gold} gold")
        return ", ".join(parts)
    if d.is_one_shot:
        parts = ["One-shot" + (f" {d.bonus:+d}" if d.bonus else "")]
        when = {
            "combat": "in combat",
            "run_away": "when running away",
            "after_roll": "after a roll",
            "curse": "against a Curse",
            "any": "any time",
        }.get(d.when, d.when)
        parts.append(when)
        if d.gold:
            parts.append(f"{d.gold} gold")
        return ", ".join(parts)
    if d.is_enhancer:
        s = f"Monster enhancer {d.strength:+d}"
        if d.treasures:
            s += f", {d.treasures:+d} Treasures"
        return s
    if d.is_curse:
        return d.word
    if d.is_race:
        return "Race"
    if d.is_class:
        return "Class"
    if d.is_role:
        return "Role"
    if d.is_proficiency:
        return f"Proficiency, Rank {d.rank}"
    if d.is_gual:
        return "Go Up a Level"
    if d.is_item_enhancer:
        return f"Item Enhancer {d.bonus:+d}" + (f", {d.gold} gold" if d.gold else "")
    if d.is_sidekick:
        bits = [d.word + (f" ({d.sex})" if d.sex else "")] + ([f"{d.bonus:+d}"] if d.bonus else [])
        bits += ["carries an Item"] if d.carries else []
        bits += [f"+{d.extra_hands} Hand"] if d.extra_hands else []
        return ", ".join(bits)
    if d.is_special:
        timing = {"combat": "in combat", "any": "any time", "own_turn": "on your turn", "immediately": "at once"}
        return f"Special, {timing.get(d.when, d.when)}"
    return "Special" if d.deck == "door" else "Treasure"


PHASES = {
    "setup": "character creation",
    "listen": "Listen At The Door",
    "start": "before Kick Open The Door",
    "kick": "Kick Open The Door",
    "door": "Look For Trouble or Loot The Room",
    "after": "before Charity",
    "charity": "Charity",
    "end": "between turns",
}


def phase_title(view: dict[str, Any]) -> str:
    """The header's words for where the turn stands: a fight under way is named ("fighting the
    Gazebo"), since the engine's phase stays at the door that led to it (Look For Trouble)."""
    combat = view.get("combat")
    if combat and combat.get("monsters"):
        names = [m["monster"] for m in combat["monsters"]]
        foes = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"fighting {foes}"
    phase = PHASES.get(view["phase"], view["phase"])
    words = view.get("phase_words", {})
    for key, standard in (("kick_open_the_door", "Kick Open The Door"), ("look_for_trouble", "Look For Trouble")):
        if key in words:  # the set's own words: Unlock the Door, Up to No Good
            phase = phase.replace(standard, words[key])
    return phase


HELP = """\
How to answer:
  a number        the choice with that number in the list: a move is made at
                  once; a group ("Play a card ...", "Ask for help ...") lists
                  its own choices next (the card, then whom, then what with)
  0 or back       back to the list before
  an action text  any listed text, in any case, e.g. "kick open the door",
                  "play Magic Missile", "pass"; shorthand works too, e.g.
                  "berserk discarding Thief, Wandering Monster" or
                  "ask Ann for help offering Huge Rock and 2 treasures"
                  (docs/notation.md has the whole notation)
  card NAME       read a card's text, e.g. "card Net Troll"
  show            show the table again
  save FILE       save the game (resume it with: munchkin play --load FILE)
  help            this help
  quit            leave the game (so does the end of the input)

The turn: Kick Open The Door. If no monster came out, Look For Trouble
(fight a monster from your hand) or Loot The Room (take a face-down Door
card). Then Charity: give away or discard cards over your hand limit (5).
Level 10 wins, and only a kill can give it to you.
A fight: your Level plus your Items' bonuses must beat the monsters' total
(a tie loses unless you are a Warrior). Anyone may play cards into any fight;
you are asked whenever you hold something you could play, and "pass" lets the
fight go on. If you cannot win, ask for help or run away: 5 or more on the die
escapes, otherwise the monster's Bad Stuff happens to you."""


class Quit(Exception):
    """The person left the game."""


Card = dict[str, Any]  # a card record of the view: id, name, kind, deck, word (and more by zone)
Public = dict[str, Any]  # one player's public table in the view


class Seat:
    """A person at one seat of a game (seat 0 by default), playing through text lines on stdin."""

    def __init__(
        self, g: Game, bots: dict[int, Agent], console: Console, seat: int = 0, lines: TextIO | None = None
    ) -> None:
        self.g = g
        self.bots = bots
        self.me = seat
        self.out = console
        self.lines = lines if lines is not None else sys.stdin
        self.seen = 0  # the view's event count already narrated
        self.echo = not self.lines.isatty()
        self._faces: dict[str, dict[str, Any]] | None = None  # the game's card faces by name, when first asked
        self._defs: dict[str, CardDef] | None = None
        self.passed: set[tuple[int, str]] = set()  # another's moments the person let go by (Enter)

    # ------------------------------------------------------------------ loop
    def run(self) -> bool:
        """Play until the game ends (True) or the person leaves (False)."""
        g = self.g
        try:
            while not g.over:
                if self.me in g.to_act:
                    self.show()
                    self.decide()
                elif g.to_act:
                    moment = self.any_time_moment()
                    if moment is None:
                        self.bot_move(g.to_act[0])
                        continue
                    self.show()
                    if not self.decide(optional=True):
                        self.passed.add(moment)  # Enter: no more at this moment
                else:
                    self.out.print("[red]Error:[/red] the game waits on nobody; stopping.")
                    return False
        except (Quit, KeyboardInterrupt):
            self.out.print()
            self.out.print("You leave the game.")
            return False
        view = g.view(self.me)
        self.show_narration(view)
        self.show_end(view)
        return True

    def any_time_moment(self) -> tuple[int, str] | None:
        """Another player's turn at its start or right after its door, when the person has something
        they may do at any time and has not yet let that moment go by: the pauses of the terminal,
        whose bots otherwise move at once (in windows the person is asked anyway)."""
        g = self.g
        if g.prompt.kind != "main":
            return None
        view = g.view(self.me)
        stage = view["moment"].get("stage")
        if view["active"] == self.me or stage not in ("start", "door"):
            return None
        moment = (int(view["turn"]), str(stage))
        if moment in self.passed or not g.any_time(self.me):
            return None
        return moment

    def bot_move(self, seat: int) -> None:
        """The bot at `seat` makes its move (the one place the bots are asked)."""
        g = self.g
        g.apply(decide(self.bots[seat], g, seat))

    def read(self) -> str:
        self.out.print("[bold]>[/bold] ", end="")
        self.out.file.flush()
        line = self.lines.readline()
        if not line:
            self.out.print()
            self.out.print("End of input.")
            raise Quit
        line = line.strip()
        if self.echo:
            self.out.print(escape(line), highlight=False)
        return line

    def decide(self, optional: bool = False) -> bool:
        """Read lines until one is a move, and make it (True); with `optional`, an empty line lets
        the moment go by (False)."""
        g = self.g
        path: list[str] = []  # the groups of the staged moves opened so far (show() listed the top level)
        while True:
            line = self.read()
            low = line.lower()
            if not line:
                if optional:
                    return False
                continue
            if low in ("quit", "exit", "q"):
                raise Quit
            if low in ("help", "?", "h"):
                self.out.print(escape(HELP))
                continue
            if low in ("show", "table"):
                self.show()
                path = []
                continue
            if low in ("0", "back") and path:
                path, _ = self.list_moves(path[:-1])
                continue
            if low == "back":
                self.error("this is the first list already: choose a number, or type an action")
                continue
            if low == "save" or low.startswith("save "):
                self.save(line[4:].strip())
                continue
            if low.startswith("card ") or low.startswith("info "):
                self.show_card(line[5:].strip())
                continue
            try:
                if line.isdigit():
                    path, entries = build_menu(g, self.me).find(path)
                    i = int(line)
                    if not 1 <= i <= len(entries):
                        self.error(f"choose a number from 1 to {len(entries)}" + (", or 0 to go back" if path else ""))
                        continue
                    chosen = entries[i - 1]
                    if chosen.type == "group":
                        path, _ = self.list_moves([*path, chosen.id])
                        continue
                    g.play(chosen.text, self.me)
                else:
                    path, entries = build_menu(g, self.me).find(path)
                    named = [e for e in entries if e.label.lower() == low]  # a choice typed by its words
                    if len(named) == 1 and named[0].type == "group":
                        path, _ = self.list_moves([*path, named[0].id])
                        continue
                    g.play(named[0].text if len(named) == 1 else line, self.me)
            except MunchkinError as exc:
                d = self.card_def(line)
                if d is not None and d.name.lower() == low:  # a card's name alone is no move: say so briefly
                    self.error(
                        f"{d.name} is a card, not a move: choose a number from the list, type a move that "
                        f"uses it (e.g. 'play {d.name}'), or 'card {d.name}' to read it"
                    )
                else:
                    self.error(str(exc))
                continue
            return True

    def error(self, msg: str) -> None:
        self.out.print(f"[red]Error:[/red] {escape(msg)}")
        self.out.print("Try again (a number, an action, or 'help').")

    def save(self, name: str) -> None:
        if not name:
            self.error("say where: save FILE")
            return
        try:
            Path(name).expanduser().write_text(self.g.to_json(), encoding="utf-8")
        except OSError as exc:
            self.error(f"cannot save to {name}: {exc.strerror or exc}")
            return
        self.out.print(f"Saved to {escape(name)}.")

    def card_def(self, name: str) -> CardDef | None:
        """The definition of the game's card of this name (public card data), or None."""
        if self._defs is None:
            self._defs = {}
            for d in self.g.cdef:
                self._defs.setdefault(d.name.lower(), d)
        return self._defs.get(name.lower())

    def show_card(self, name: str) -> None:
        from munchkin.cards.face import catalog, face_text

        if self._faces is None:
            self._faces = catalog(self.g)
        key = name.strip().lower().rstrip(".")
        face = self._faces.get(key)
        if face is None:
            self.error(f"no card is named {name!r}")
            return
        d = self.card_def(key)
        lines = face_text(face)
        if d is not None:  # the summary says more than the face's own heading
            self.out.print(f"[bold]{escape(d.name)}[/bold] ({d.deck.capitalize()} card: {escape(card_summary(d))})")
            lines = lines[1:]
        else:  # a House: its face's heading
            self.out.print(f"[bold]{escape(lines[0])}[/bold]")
            lines = lines[1:]
        for ln in lines:
            self.out.print(escape(ln))

    # ------------------------------------------------------------------ what the person sees
    @staticmethod
    def cards(cs: list[Card]) -> str:
        return ", ".join(escape(c["name"]) for c in cs) or "none"

    def item_list(self, pl: Public) -> str:
        """A player's Items, equipped (with their bonus, or why they count for nothing) then carried,
        each with the Sidekick carrying it, a Cheat! on it and the enhancers put on it."""
        cheats = {c["id"] for c in pl.get("cheats", [])}
        out = []
        for c in pl["equipped"] + pl["carried"]:
            s = escape(c["name"])
            if "bonus" not in c:
                s += " (carried)"
            elif not c["usable"]:
                s += " (no use to them)" if pl["seat"] != self.me else " (no use to you)"
            elif c["bonus"]:
                s += f" {c['bonus']:+d}"
            for k in pl["sidekicks"]:
                if (k.get("carrying") or {}).get("id") == c["id"]:
                    s += f" (on the {escape(k['name'])})"
            if c["id"] in cheats:
                s += " (Cheat!)"
            for e in pl["item_enhancers"]:
                if e["on"]["id"] == c["id"]:
                    s += f" (with {escape(e['name'])})"
            out.append(s)
        return ", ".join(out) or "none"

    def table_line(self, pl: Public) -> str:
        """What a player has in play besides their character: Items, then Sidekicks and Curses if any."""
        extras = [f"Items: {self.item_list(pl)}"]
        if pl["sidekicks"]:
            extras.append(f"{self.sidekick_word(pl['sidekicks'])}: {self.sidekick_list(pl)}")
        if pl["curses"]:
            extras.append(f"{self.sidekick_word(pl['curses'])}: {self.cards(pl['curses'])}")
        return "; ".join(extras)

    @staticmethod
    def sidekick_list(pl: Public) -> str:
        """Sidekicks with their sex (where the card has one) and a Cheat! on one."""
        cheats = {c["id"] for c in pl.get("cheats", [])}
        out = []
        for k in pl["sidekicks"]:
            s = escape(k["name"])
            if k.get("sex"):
                s += f" ({k['sex']})"
            if k["id"] in cheats:
                s += " (Cheat!)"
            out.append(s)
        return ", ".join(out)

    @staticmethod
    def sidekick_word(cards: list[Card]) -> str:
        """What the cards' set calls them (Curses or Traps, Hirelings or Sidekicks)."""
        word = str(cards[0]["word"])
        return word + ("s" if len(cards) > 1 else "")

    @staticmethod
    def character(pl: Public, view: dict[str, Any]) -> str:
        names = lambda cs: " / ".join(c["name"] for c in cs)  # noqa: E731
        race = names(pl["races"]) or "Human"
        if pl["half_breed"]:
            race += " (Half-Breed)"
        klass = names(pl["classes"]) or "no Class"
        if pl["super_munchkin"]:
            klass += " (Super Munchkin)"
        who = f"Level {pl['level']} {pl['sex']}"
        if pl["house"]:
            who += f" {pl['house']}"
        s = f"{who} {escape(race)}, {escape(klass)}" if view["races_in_game"] else f"{who}, {escape(klass)}"
        if pl["house"] and not view["classes_in_game"]:  # Harry Potter alone: Roles, no Classes
            s = who
        if pl["house"] or pl["roles"]:
            role = names(pl["roles"]) or "no Role"
            if pl["dual_role"]:
                role += " (Dual Role)"
            s += f", {escape(role)}"
        if pl["proficiencies"]:
            profs = ", ".join(f"{c['name']} ({c['rank']})" for c in pl["proficiencies"])
            s += f"; Proficiencies {escape(profs)} (Rank {pl['rank_total']} of {pl['level']})"
        if pl["dead"]:
            s += " [bold](dead)[/bold]"
        return s

    def show(self) -> None:
        g = self.g
        o = self.out
        view = g.view(self.me)
        self.show_narration(view)
        players = view["players"]
        me = players[self.me]
        o.print()
        phase = phase_title(view)
        active = players[view["active"]]["name"]
        o.rule(f"Turn {view['turn'] + 1}: {escape(active)}'s turn, {phase}", style="bold")
        # the person's character
        o.print(f"[bold]You ({escape(me['name'])})[/bold]: {self.character(me, view)}")
        o.print(f"  Items: {self.item_list(me)}")
        if me["sidekicks"]:
            o.print(f"  {self.sidekick_word(me['sidekicks'])}: {self.sidekick_list(me)}")
        if me["curses"]:
            o.print(f"  {self.sidekick_word(me['curses'])}: {self.cards(me['curses'])}")
        hand = view["hand"]
        o.print(f"  Hand ({_plural(len(hand), 'card')}, limit {me['hand_limit']} at the end of your turn):")
        if hand:
            hand = sorted(hand, key=lambda c: (c["deck"], c["name"]))
            w = max(len(c["name"]) for c in hand)
            for c in hand:
                o.print(f"    {escape(c['name'].ljust(w))}  {escape(card_summary(g.cdef[c['id']]))}")
        else:
            o.print("    (empty)")
        # the others
        o.print("[bold]Other players[/bold]:")
        for q in players:
            if q["seat"] == self.me:
                continue
            turn = "  <- their turn" if q["seat"] == view["active"] else ""
            held = _plural(q["hand_size"], "card")
            o.print(f"  [bold]{escape(q['name'])}[/bold]: {self.character(q, view)}, {held} in hand{turn}")
            o.print("    " + self.table_line(q))
        dd = escape(view["door_discard"][-1]["name"]) if view["door_discard"] else "empty"
        td = escape(view["treasure_discard"][-1]["name"]) if view["treasure_discard"] else "empty"
        o.print(
            f"[bold]Decks[/bold]: Door {view['door_deck']} (discard top: {dd}); "
            f"Treasure {view['treasure_deck']} (discard top: {td})"
        )
        self.show_combat(view["combat"])
        o.print(f"[bold]{escape(self.situation(view))}[/bold]")
        self.list_moves([], view)

    def list_moves(self, path: list[str], view: dict[str, Any] | None = None) -> tuple[list[str], list[Entry]]:
        """Number the choices of one stage of the person's staged moves (the top level for []):
        a move with its meaning, a group with what it holds; 0 goes back a stage. Returns the part
        of the path that still leads somewhere, and the stage's entries."""
        menu = build_menu(self.g, self.me, view)
        path, entries = menu.find(path)
        o = self.out
        if path:
            crumbs: list[str] = []
            stage = menu.entries
            for gid in path:  # the groups opened, by their words
                group = next(e for e in stage if e.id == gid)
                crumbs.append(group.label)
                stage = group.entries
            o.print(f"[bold]{escape(' > '.join(crumbs))}[/bold] (0 goes back):")
        width = len(str(len(entries)))
        for i, e in enumerate(entries, 1):
            if e.type == "group":
                n = len(e.moves())
                o.print(f"  {i:>{width}}. {escape(e.label)} > ({_plural(n, 'choice')}) — {escape(e.meaning)}")
            else:
                typed = " " + escape(f"[{e.text}]") if e.label != e.text else ""
                o.print(f"  {i:>{width}}. {escape(e.label)} — {escape(e.meaning)}{typed}")
        if path:
            o.print(f"  {0:>{width}}. back")
        return path, entries

    def show_narration(self, view: dict[str, Any]) -> None:
        """What happened since the last time, as this seat hears it (`view` is the view of now)."""
        lines = narrate(self.g, self.me, self.seen)
        self.seen = view["event_count"]
        if lines:
            self.out.print()
            self.out.print("[bold]What happened[/bold]:")
            for s in lines:
                self.out.print("  " + escape(s))

    def show_combat(self, b: dict[str, Any]) -> None:
        """The fight's breakdown from the view: each side's strength and what makes it up."""
        if not b:
            return
        o = self.out

        def parts(ps: list[tuple[str, int]], total: int) -> str:
            out = [escape(lbl) if lbl.startswith("Level") else f"{escape(lbl)} {v:+d}" for lbl, v in ps]
            rest = total - sum(v for _, v in ps)
            if rest:  # what the breakdown does not itemise (a monster's bonus against you, Doppleganger)
                out.append(f"other card effects {rest:+d}")
            return ", ".join(out)

        o.print("[bold]Combat[/bold]:")
        names = " and ".join(escape(f["player"]) for f in b["fighters"])
        o.print(f"  Fighting: {names}, strength {b['side_strength']}")
        for f in b["fighters"]:
            o.print(f"    {escape(f['player'])} {f['strength']} = {parts(f['parts'], f['strength'])}")
        if b["one_shots"]:
            shots = ", ".join(f"{escape(n)} {v:+d}" for n, v in b["one_shots"])
            o.print(f"    cards played for them: {shots}")
        o.print(f"  Monsters: strength {b['monster_strength']}")
        for m in b["monsters"]:
            o.print(
                f"    {escape(m['monster'])} {m['strength']} = {parts(m['parts'], m['strength'])} "
                f"({_plural(m['treasures'], 'Treasure')})"
            )
        side, mon = b["side_strength"], b["monster_strength"]
        state = "WINNING" if b["fighters_winning"] else "LOSING"
        tie = ": a tie, and a Warrior wins ties" if b["fighters_winning"] and side == mon else ""
        o.print(f"  The fighters are {state} ({side} against {mon}{tie}).")

    def situation(self, view: dict[str, Any]) -> str:
        """What the engine is asking the person, in words (from the view's prompt and moment)."""
        k = view["prompt"]
        m = view["moment"]
        players = view["players"]

        def n(seat: int) -> str:
            return str(players[seat]["name"]) if 0 <= seat < len(players) else f"seat {seat}"

        words = view["phase_words"]
        if self.me not in view["to_act"]:  # asked nothing: the pause of another's turn, for any-time moves
            waiting = ", ".join(n(s) for s in view["to_act"]) or "nobody"
            return (
                f"Waiting on {waiting}. You may act at any time (a Curse, a trade, an Item): choose a move, "
                "or press Enter to let play go on."
            )
        if k == "main":
            kick = words.get("kick_open_the_door", "Kick Open The Door")
            trouble = words.get("look_for_trouble", "Look For Trouble")
            stage = m.get("stage")
            if stage == "create":
                stats = [
                    w for w, has in (("one Race", view["races_in_game"]), ("one Class", view["classes_in_game"])) if has
                ]
                if view["houses_in_game"]:
                    stats += ["one Role", "one Proficiency of Rank 1"]
                allies = " and Allies" if view["allies_in_game"] else ""
                return (
                    f"Character creation: you may play {', '.join(stats)} and any usable Items{allies} "
                    "from your eight cards; say 'ready' when your character is set."
                )
            if stage == "start":
                return f"Your turn. {kick} when you are ready (you may play cards, equip or sell first)."
            if stage == "door":
                return f"No monster behind the door: {trouble} (fight a monster from your hand) or Loot The Room."
            return "End the turn when you are ready (you may still play cards, equip, sell or trade)."
        if k == "drawn":
            drawn = m.get("card")
            return f"You drew {drawn['name'] if drawn else 'a card'} face-up: keep it in your hand or play it now."
        if k == "window":
            return "Your answer: play a card into this fight, or pass (the fight goes on once everyone has passed)."
        if k == "losing":
            return "You are losing this fight: ask someone for help, or run away."
        if k == "help" and "seat" in m:
            if m["action"] == "volunteer":
                return f"{n(m['seat'])} offers to help you fight: accept or refuse."
            deal = f", offering {m['offer']}" if m.get("offer") else ", offering nothing"
            return f"{n(m['seat'])} asks you for help{deal}: accept or refuse."
        if k == "curse_window":
            return f"{m['card']['name']} is about to strike {n(m['victim'])}: cancel it with a card, or pass."
        if k == "run":
            odds = f"a {ESCAPE_ROLL} or more on the die escapes"
            return f"Run Away: choose the monster to run from ({odds}), or escape another way."
        if k == "rolled":
            result = "escapes" if m["escapes"] else "is caught"
            return (
                f"{n(m['runner'])} rolled {m['die']} (total {m['total']}) running from {m['monster']['name']} "
                f"and {result}. You may play a card on the roll, or pass."
            )
        if k == "caught":
            return (
                f"{m['monster']['name']} caught you. Before its Bad Stuff lands you may play a card "
                "that works even now, or pass to suffer it."
            )
        if k == "choose":
            return f"Choose a card: {m.get('why', 'one of these')}."
        if k == "loot_body":
            return f"Loot {n(m['dead'])}'s body: take one card."
        if k == "pick":
            return "Share the Treasure: pick one card."
        if k == "charity":
            me = players[self.me]
            return (
                f"Charity: you hold {len(view['hand'])} cards, more than your limit of {me['hand_limit']}. "
                "Play, sell, or give away the extras (to the lowest-Level player; discard them if that is you)."
            )
        if k == "offer" and "seat" in m:
            return f"{n(m['seat'])} proposes: {m['text']}. Accept or refuse."
        if k == "end_window":
            return f"Before {n((view['active'] + 1) % len(players))}'s turn you may play any-time cards, or pass."
        if k == "before":
            return self.before(m)
        return f"Your move ({k})."

    def before(self, m: dict[str, Any]) -> str:
        """A question put to the person alone before the game goes on: a card's choice before a fight,
        a die to set, a table to put right."""
        kinds = {a.kind for a in self.g.legal_actions(self.me)}
        card = m.get("card")
        if card is None:  # no card asks: the table must be put right, or a face-up draw may be changed
            if "resurrect" in kinds:
                return "Drawing face-up: take the top discard instead (paying a card from your hand), or pass."
            return "Your table must be put right before the game goes on: choose what to give up or take off."
        if kinds == {"choose"}:
            return f"{card['name']}: choose one of its options (by number)."
        what = f"{card['name']}: choose before the fight"
        if {"pass", "decline"} <= kinds:
            return what + ": pass to fight it, or decline to walk past it."
        if {"use", "decline"} <= kinds:
            return what + ": use a card as its text offers (see: card NAME), or decline and fight it."
        return what + " (see: card NAME)."

    def show_end(self, view: dict[str, Any]) -> None:
        o = self.out
        o.print()
        o.rule("Game over", style="bold")
        winners = view["winners"]
        if winners:
            names = " and ".join(view["players"][s]["name"] for s in winners)
            you = " You win!" if self.me in winners else ""
            o.print(f"[bold]{escape(names)} {'wins' if len(winners) == 1 else 'win'} the game![/bold]{you}")
        elif view["capped"]:
            o.print(f"The game stopped at the turn cap ({view['turn']} turns): no winner.")
        from munchkin.story import figures_text, game_story, sparkline  # the end only: imported here

        story = game_story(self.g)
        top = story["winning_level"]
        won = set(story["winners"])
        o.print(f"Levels over {story['turns']} turns (each bar is a Level from 1 to {top}), and a few figures:")
        for p in sorted(story["players"], key=lambda p: (p["seat"] not in won, -p["level"], p["seat"])):
            star = "★ " if p["seat"] in won else "  "
            o.print(f"{star}[bold]{escape(p['name'])}[/bold]: Level {p['level']}  {sparkline(p['levels'], top)}")
            o.print(f"    {escape(figures_text(p))}.", highlight=False)
