"""Table talk at one table, a part of `TableRunner`: chat lines, whispers and quick phrases said, stored and
sent to those who may read them (the rules of who may read what are chat.py's)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.server.chat import (
    CHAT_HISTORY,
    CHAT_MAX_CHARS,
    MAX_SPEAKERS,
    PHRASES,
    ChatRefused,
    may_read,
    move_words,
    slow_down,
)
from munchkin.server.clients import Client
from munchkin.server.guard import clean_text
from munchkin.server.table_state import TableState, _loop_running

log = logging.getLogger("munchkin.server")


class TableTalk(TableState):
    """The table's chat: lines said, checked, stored, and sent to those who may read them."""

    def restore_chat(self, lines: list[dict[str, Any]], count: int) -> None:
        """The chat as stored (its newest lines, and how many were said), after a restart."""
        self.chat.clear()
        self.chat.extend(lines)
        self.chat_count = self.chat_written = max(count, lines[-1]["n"] + 1 if lines else 0)
        numbers = [_spectator_number(x.get("name")) for x in lines if x.get("spectator")]
        self.spectator_next = max(numbers, default=0) + 1  # a spectator after a restart gets a new number

    def say(self, c: Client, msg: dict[str, Any]) -> None:
        """A chat line, a whisper or a quick phrase (`{"type": "say", ...}`): checked, then stored and sent
        to those who may read it (`chat.may_read`); a phrase that is a move is taken first, exactly as an
        `act` would be, and its line is said only if the move is. Raises ChatRefused (nothing said)."""
        if not self.chat_on:
            raise ChatRefused("chat is turned off at this table")
        if c.device and c.seat is None:
            raise ChatRefused("no seat is claimed on this device: press “I am …” first, then talk")
        spectator = c.seat is None
        key, text, to, action = msg.get("phrase"), msg.get("text"), msg.get("to"), msg.get("action")
        phrase = None
        if key is not None:
            if not isinstance(key, str) or key not in PHRASES:
                shown = repr(key)[:40]
                raise ChatRefused(f"no quick phrase {shown}: the phrases are {', '.join(PHRASES)}")
            phrase = PHRASES[key]
            if text is not None:
                raise ChatRefused('a quick phrase has its own words: send "phrase" or "text", not both')
        elif not isinstance(text, str):
            raise ChatRefused('a "say" message needs "text": the line to say (or "phrase": a quick phrase\'s key)')
        if to is not None:
            self._whisper_to(c, to)
        move = phrase is not None and phrase.move is not None
        version = msg.get("version")
        if move:
            if spectator:
                raise ChatRefused(f"the phrase {key} is a move: spectators cannot make moves")
            if to is not None:
                raise ChatRefused(f"the phrase {key} is a move: it is said to the whole table, not whispered")
            if not isinstance(action, str) or not action.strip() or type(version) is not int:
                raise ChatRefused(
                    f'the phrase {key} goes with its move: send "action" (the move\'s text) and "version"'
                )
        elif action is not None:
            moves = ", ".join(k for k, p in PHRASES.items() if p.move)
            raise ChatRefused(f'"action" goes only with a phrase that is a move ({moves})')
        if phrase is None:
            try:
                words = clean_text(str(text), "a chat line", CHAT_MAX_CHARS)
            except ValueError as exc:
                raise ChatRefused(str(exc)) from None
        who = f"address {c.address}" if spectator else f"seat {c.seat}"
        wait = self.talk.wait(who)
        if wait > 0:
            raise ChatRefused(slow_down(wait), wait)
        cards: list[int] = []
        if phrase is not None and move:
            assert c.seat is not None and isinstance(action, str) and isinstance(version, int)
            said: list[tuple[str, list[int]]] = []
            g: Game | None = getattr(self, "game", None) if self.dealt else None  # a finished table's has none

            def check(acts: list[Action]) -> None:
                assert g is not None and phrase is not None
                said.append(move_words(g, phrase, acts))

            self.act(c.seat, action, version, check)
            words, cards = said[0]
        elif phrase is not None:
            words = phrase.words
        self.talk.take(who)
        name = self.spectator_name(c.address) if spectator else self.row.seats[c.seat].name  # type: ignore[index]
        line = {
            "n": self.chat_count,
            "at": round(time.time(), 3),
            "from": c.seat,
            "name": name,
            "spectator": spectator,
            "to": to,
            "text": words,
            "phrase": key,
            "cards": cards,
        }
        self.chat_count += 1
        self.chat.append(line)
        self._store_chat(line)

    def _whisper_to(self, c: Client, to: Any) -> None:
        """May this client whisper to seat `to`? Raises ChatRefused saying why not."""
        n = len(self.row.seats)
        if c.seat is None:
            raise ChatRefused("spectators cannot whisper: only a person at the table may whisper to one seat")
        if type(to) is not int or not 0 <= to < n:
            raise ChatRefused(f'"to" is null (everyone) or the number of a seat, 0 to {n - 1}')
        if to == c.seat:
            raise ChatRefused("you cannot whisper to yourself")
        if to not in self.humans:
            raise ChatRefused(f"{self.row.seats[to].name}'s seat is a bot's: bots do not read chat")

    def spectator_name(self, address: str) -> str:
        """A spectator's name in the chat: "Spectator N", one N an address at this table (in this run)."""
        name = self.spectator_names.get(address)
        if name is None:
            if len(self.spectator_names) >= MAX_SPEAKERS:  # the oldest forgotten: its next visit gets a new number
                del self.spectator_names[next(iter(self.spectator_names))]
            name = self.spectator_names[address] = f"Spectator {self.spectator_next}"
            self.spectator_next += 1
        return name

    def _store_chat(self, line: dict[str, Any]) -> None:
        """Store a line on the database's thread, lines in the order said; a line is sent once stored."""
        if not _loop_running():  # a test driving the table by hand: store at once
            self.store.add_chat(self.id, line)
            self.chat_written = line["n"] + 1
            self._touch_all()
            return
        self.chat_unwritten.append(line)
        if self.chat_writer is None or self.chat_writer.done():
            self.chat_writer = asyncio.get_running_loop().create_task(self._write_chat(), name=f"table-{self.id}-chat")

    async def _write_chat(self) -> None:
        while self.chat_unwritten:
            line = self.chat_unwritten[0]
            try:
                await self.store.run(self.store.add_chat, self.id, line)
            except Exception:  # what was said is shown all the same; it will not outlive a restart
                log.exception("table %s: chat line %d could not be stored", self.id, line["n"])
            self.chat_unwritten.popleft()
            self.chat_written = line["n"] + 1
            self._touch_all()

    def _chat_for(self, c: Client) -> list[dict[str, Any]]:
        """The chat lines to send this client now: those stored since its last state that it may read
        (its first state: the newest CHAT_HISTORY of the history it may read)."""
        upto, start = self.chat_written, c.chat_next
        c.chat_next = upto
        if start is not None and start >= upto:
            return []
        spectator = c.seat is None and not c.device
        out: list[dict[str, Any]] = []
        for line in reversed(self.chat):
            n = line["n"]
            if n >= upto:
                continue
            if start is not None and n < start:
                break
            if may_read(line, c.seat, spectator, self.spectator_chat):
                out.append(line)
                if len(out) >= CHAT_HISTORY:
                    break
        out.reverse()
        return out


def _spectator_number(name: Any) -> int:
    """N of "Spectator N" (0 for any other name)."""
    text = str(name)
    tail = text.removeprefix("Spectator ")
    return int(tail) if tail != text and tail.isdigit() else 0
