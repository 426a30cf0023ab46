"""One screen, a part of `TableRunner`: a pass-and-play table's device plays every person seat, one claimed
at a time, and is handed on when another person's own decision comes (docs/server.md, Pass and play)."""

from __future__ import annotations

from typing import Any

from munchkin.engine.actions import MunchkinError
from munchkin.server.clients import Client
from munchkin.server.table_state import TableState


class PassAndPlay(TableState):
    """Pass and play: one device, several people, one claimed seat at a time."""

    def _owed(self) -> list[int]:
        """People's seats whose own decision the game waits on (`Game.deciding`), in the order it waits on them."""
        if not self.dealt:
            return []
        g = self.game
        if g.over:
            return []
        own = g.deciding()
        return [s for s in g.to_act if s in own and s in self.humans]

    def _claim_blocked(self, seat: int) -> int | None:
        """The person whose own decision comes before `seat` may hold the device, or None: a seat the game
        asks something (its own decision, or an answer in a window) may always hold it."""
        if not self.dealt or self.game.over or seat in self.game.to_act:
            return None
        return next((s for s in self._owed() if s != seat), None)

    def _device_info(self, c: Client) -> dict[str, Any]:
        """What a device's page needs to hand itself round (public: who is waited on, never a card): the
        seat claimed, the people whose own decision waits (hand the device to them) and the people a
        response window waits on besides (each may take the device to play a card, or let the clock run)."""
        owed = self._owed()
        window = self._window_info()
        answering = [s for s in (window or {}).get("waiting", []) if s not in owed]
        return {"claimed": c.seat, "people": sorted(self.humans), "owed": owed, "answering": answering}

    def _set_claim(self, c: Client, seat: int | None, why: str) -> None:
        """The device now shows `seat`'s view (None: the public table). Its narration starts again from the
        first line as that seat may hear it, and a `claimed` message goes before the next state, so the
        page drops everything of the previous seat before anything of the next arrives."""
        c.seat = seat
        c.event_pos = 0
        c.lines = 0
        c.fight_sent = -1  # the last fight again, as this seat heard it
        c.chat_next = None  # the chat again, as this seat may read it
        player = None if seat is None else self.row.seats[seat].name
        c.send({"type": "claimed", "seat": seat, "player": player, "why": why})
        c.touch()

    def claim(self, c: Client, seat: Any) -> None:
        """A device takes a person's seat: checked, then that seat's view is sent to it (and nobody else's).
        Raises MunchkinError (nothing changed) when it may not."""
        if not c.device:
            raise MunchkinError(
                "only a pass-and-play table's device link can claim a seat: a seat link plays its own seat"
            )
        if type(seat) is not int:
            raise MunchkinError('a "claim" message needs "seat": the number of a person\'s seat')
        if not 0 <= seat < len(self.row.seats):
            raise MunchkinError(f"there is no seat {seat} at this table (seats 0 to {len(self.row.seats) - 1})")
        if seat not in self.humans:
            raise MunchkinError(
                f"seat {seat} ({self.row.seats[seat].name}) is a bot's: the device plays people's seats"
            )
        if not self.dealt:
            raise MunchkinError("the cards are not dealt yet: there is no hand to show")
        first = self._claim_blocked(seat)
        if first is not None:
            name = self.row.seats[first].name
            raise MunchkinError(f"{name}'s own decision comes first: hand the device to {name}")
        if c.seat != seat:
            self._set_claim(c, seat, "")

    def release(self, c: Client) -> None:
        """The device's person hides their hand: the public table until the next claim."""
        if not c.device:
            raise MunchkinError("only a pass-and-play table's device link claims and releases seats")
        if c.seat is not None:
            name = self.row.seats[c.seat].name
            self._set_claim(c, None, f"{name} hid their hand")

    def lapse_claim(self, c: Client) -> bool:
        """End a device's claim once the game waits on another person's own decision (and no longer on the
        claimed seat): the device then shows the public table until that person claims it. True if it ended."""
        if not c.device or c.seat is None:
            return False
        first = self._claim_blocked(c.seat)
        if first is None:
            return False
        name = self.row.seats[first].name
        self._set_claim(c, None, f"{name}'s own decision: hand the device to {name}")
        return True
