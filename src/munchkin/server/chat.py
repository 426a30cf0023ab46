"""Table talk: chat lines, whispers and quick phrases; who may read each line, and how fast one may talk.

A line is a plain dict, as sent and stored: `{"n", "at", "from", "name", "spectator", "to", "text",
"phrase", "cards"}`. Nothing here reads or changes a game: bots never see chat, and a quick phrase that
is a move reaches the game only as that move (`TableRunner.say`)."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from munchkin.engine import actions as A
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.game import Game

CHAT_MAX_CHARS = 300  # characters in one line, after its spaces are tidied
CHAT_LINES = 5  # lines one seat (a spectator: one address) may say ...
CHAT_SECONDS = 10.0  # ... within this many seconds
CHAT_HISTORY = 200  # the newest lines a connecting client is sent of those it may read
CHAT_KEPT = 1000  # lines a table keeps in memory to send (every line is stored)
MAX_SPEAKERS = 2000  # speakers whose recent lines a table remembers for its rate limit


class ChatRefused(MunchkinError):
    """A chat line refused, with why; `wait`: the seconds until the speaker may talk again (a flood)."""

    def __init__(self, why: str, wait: float | None = None) -> None:
        super().__init__(why)
        self.wait = wait


@dataclass(frozen=True)
class Phrase:
    """A quick phrase: its fixed wording, and the move it carries (an action kind), if any."""

    key: str
    words: str
    move: str | None = None


# The phrases a page offers in one tap. Those with a move are said with the move's text (`help_for`:
# "ask Bob for help offering 2 treasures, you pick first"); their words are filled in from the move.
PHRASES: dict[str, Phrase] = {
    p.key: p
    for p in (
        Phrase("help_me", "{helper}, will you help me?", A.ASK),
        Phrase("help_for", "{helper}, help me for {offer}?", A.ASK),
        Phrase("give_not_help", "{player}, I'll give you {item} not to help.", A.GIVE),
        Phrase("dont_curse", "Don't curse me!"),
        Phrase("wait_card", "Wait, I have a card!"),
        Phrase("no_deal", "No deal."),
        Phrase("thanks", "Thanks!"),
        Phrase("nice_kill", "Nice kill!"),
        Phrase("good_game", "Good game!"),
    )
}


def may_read(line: dict[str, Any], seat: int | None, spectator: bool, spectator_chat: bool) -> bool:
    """May this reader see this line? A whisper: its speaker's seat and its recipient's only (never a
    spectator, never a third seat). A spectator's line: everyone, or only spectators when the table
    keeps spectators to themselves (`spectator_chat` off). Any other line: everyone."""
    if line["to"] is not None:
        return seat is not None and seat in (line["from"], line["to"])
    if line["spectator"] and not spectator_chat:
        return spectator
    return True


def move_words(g: Game, phrase: Phrase, acts: list[Action]) -> tuple[str, list[int]]:
    """A quick phrase's line for the move it carries, naming its cards, and their ids; raises
    ChatRefused when the move is not the phrase's (an Item offered must be in play: public)."""
    if len(acts) != 1 or acts[0].kind != phrase.move:
        raise ChatRefused(f"the phrase {phrase.key} goes with {_move_name(phrase)}, not with that action")
    a = acts[0]
    seat = a.seat
    items = g.players[seat].items
    if phrase.key in ("help_me", "help_for"):
        offered = [c for c in (*a.cards, a.card) if c >= 0]
        hidden = [c for c in offered if c not in items]
        if hidden:
            raise ChatRefused(
                "an offer of a card from your hand is no quick phrase (it would show the card to everyone): "
                "ask from your moves"
            )
        has_offer = bool(offered) or a.n > 0
        if phrase.key == "help_me" and has_offer:
            raise ChatRefused("help_me asks for help offering nothing: an offer goes with help_for")
        if phrase.key == "help_for" and not has_offer:
            raise ChatRefused("help_for offers something: asking for help offering nothing goes with help_me")
        parts = [g.cdef[c].name for c in offered]
        if a.flag == "all":
            parts.append("all the Treasures")
        elif a.n > 0:
            pick = {"you": " (you pick first)", "me": " (I pick first)"}.get(a.flag, "")
            parts.append(f"{a.n} Treasure{'s' if a.n != 1 else ''}{pick}")
        offer = " and ".join(parts)
        return phrase.words.format(helper=g.players[a.target].name, offer=offer), offered
    # give_not_help: the gift of an Item in play to another player (an Offer they accept or refuse)
    if a.target < 0 or a.card not in items or a.flag:
        raise ChatRefused("give_not_help gives an Item you have in play to another player (give ITEM to NAME)")
    return phrase.words.format(player=g.players[a.target].name, item=g.cdef[a.card].name), [a.card]


def _move_name(phrase: Phrase) -> str:
    return {A.ASK: "asking for help (ask NAME for help ...)", A.GIVE: "a gift (give ITEM to NAME)"}.get(
        phrase.move or "", "no move"
    )


class Talk:
    """The rate limit of one table's chat: each speaker (a seat, or a spectator's address) may say
    CHAT_LINES lines within CHAT_SECONDS; a refused line does not count."""

    def __init__(
        self, lines: int = CHAT_LINES, seconds: float = CHAT_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.lines, self.seconds, self.clock = lines, seconds, clock
        self.said: dict[str, deque[float]] = {}

    def wait(self, who: str) -> float:
        """Seconds until `who` may say another line (0: now)."""
        times = self.said.get(who)
        if times is None or len(times) < self.lines:
            return 0.0
        return max(0.0, times[0] + self.seconds - self.clock())

    def take(self, who: str) -> None:
        """`who` says a line now (after `wait` said 0)."""
        now = self.clock()
        if who not in self.said and len(self.said) >= MAX_SPEAKERS:  # forget those who have been quiet a while
            self.said = {k: t for k, t in self.said.items() if t and t[-1] + self.seconds > now}
        self.said.setdefault(who, deque(maxlen=self.lines)).append(now)


def slow_down(seconds: float) -> str:
    """The refusal of a flood, with how long to wait in whole seconds (at least one)."""
    return f"slow down: wait {max(1, math.ceil(seconds))} s (at most {CHAT_LINES} lines in {CHAT_SECONDS:g} seconds)"
