"""What each client is told, a part of `TableRunner`: the state message (a seat's body encoded once a version,
however many watch) and each socket's writer, which sends a state only once it is stored."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from munchkin.engine.game import WINNING_LEVEL
from munchkin.engine.view import narrate
from munchkin.server.clients import Client, _gone
from munchkin.server.replays import seat_body
from munchkin.server.rows import table_summary
from munchkin.server.table_state import TableState
from munchkin.story import game_story

log = logging.getLogger("munchkin.server")


class Broadcast(TableState):
    """The state each client is sent, and the writer that sends it."""

    def state_message(self, c: Client) -> str:
        """The latest state for one client: its view, new narration, its actions, the window (before a
        fair table's deal: no view, no actions, and its record, to give entropy)."""
        if not self.dealt:
            return self._splice(c, None, False, [], json.dumps({"view": None, "actions": [], "menu": None}))
        g = self.game
        seat = c.seat
        cached = self._view_cache.get(seat)
        if cached is None or cached[0] != g.version:
            cached = self._view_cache[seat] = (g.version, seat_body(g, seat))
        lines = narrate(g, seat, c.event_pos)
        c.event_pos = len(g.events)
        return self._splice(c, g.version, g.over, lines, cached[1])

    def _splice(self, c: Client, version: int | None, over: bool, lines: list[str], body: str) -> str:
        """A state message: what changes from moment to moment, with the seat's body spliced in (one
        encoding of the view a version, however many watch it)."""
        extra: dict[str, Any] = {
            "type": "state",
            "version": version,
            "at": self.changed_at,
            "log_start": c.lines,
            "log": lines,
            "window": self._window_info(),
            "seats": self.seat_list(),
            "replay": f"/api/tables/{self.id}/replay" if over else None,
            "stopped": self.failed or None,
            "winning_level": WINNING_LEVEL,
            "story": self._game_story() if over else None,
            "fair": self.fair_info(over),
            "deal_in": self._deal_in(),
            "chat": self._chat_for(c),
        }
        fight = self.fights.last
        if fight is not None and fight[0] != c.fight_sent:  # a fight is over: sent once to each client
            extra["last_fight"] = self.fights.message(self.game, c.seat)
            c.fight_sent = fight[0]
        if c.device:
            extra["device"] = self._device_info(c)
        c.lines += len(lines)
        return json.dumps(extra)[:-1] + ", " + body[1:]

    def _game_story(self) -> dict[str, Any]:
        """The finished game's Levels turn by turn and figures, from its public events; computed once."""
        if self._story is None:
            self._story = game_story(self.game)
        return self._story

    def summary(self) -> dict[str, Any]:
        return table_summary(
            self.row,
            connected=self._connected(),
            spectators=sum(1 for c in self.clients if c.seat is None and not c.device),
            stand_ins=self._stand_ins(),
            stopped=self.failed,
        )

    async def _sender(self, c: Client) -> None:
        """One writer per socket: queued replies first, then the latest state (never a backlog), and only
        once it is stored: while a move waits to be written, the state waits too."""
        try:
            while True:
                await c.wake.wait()
                c.wake.clear()
                self.lapse_claim(c)
                while c.outbox:
                    await c.ws.send_text(c.outbox.popleft())
                if c.dirty and self.stored_all():
                    if self.lapse_claim(c):  # checked again as the state is made: no hand outlives its claim
                        continue
                    c.dirty = False
                    await c.ws.send_text(self.state_message(c))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the client is gone; anything else is a bug to see in the log
            if _gone(exc):
                c.drop("the client had gone")
            else:
                log.exception("table %s: a message to seat %s could not be sent", self.id, c.seat)
                c.drop(f"sending failed ({type(exc).__name__})")
