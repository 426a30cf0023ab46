"""Response windows and the turn clock, a part of `TableRunner`: a window's countdown for people answering
another's moment, Wait! and its bound, the window as everyone sees it, and the turn clock on one's own decisions."""

from __future__ import annotations

import math
from typing import Any

from munchkin.engine import actions as A
from munchkin.engine.actions import MunchkinError
from munchkin.engine.state import CURSE_WINDOW, END_WINDOW, ROLLED, WINDOW
from munchkin.server.table_state import TableState

WINDOW_KINDS = frozenset({WINDOW, CURSE_WINDOW, ROLLED, END_WINDOW})
MAX_HOLD_SECONDS = 60.0  # longest a Wait! holds a window on a table without a turn clock; then the holder passes


class Windows(TableState):
    """Response windows (their countdown, Wait!) and the turn clock."""

    def _clocked_seats(self) -> list[int]:
        """Connected people whose own decision the game waits on: what a turn clock (if any) hurries."""
        g = self.game
        if g.over:
            return []
        return [s for s in g.deciding() if s in self.humans and s not in self.away_since]

    def _clock_expired(self) -> int | None:
        """A connected person's own decision that has outlasted the table's turn clock (if it has one)."""
        if self.turn_clock is None or self.clock.monotonic() - self.decided_at < self.turn_clock:
            return None
        seats = self._clocked_seats()
        return seats[0] if seats else None

    def _window_seats(self) -> frozenset[int]:
        """The people a response window's clock runs for: those waited on in someone else's moment
        (interfering in another's fight, answering another's Curse or roll, the end-of-turn window).
        A person's own decision never runs on it, nor a seat a bot is standing in for."""
        g = self.game
        if g.over or g.prompt.kind not in WINDOW_KINDS:
            return frozenset()
        own = g.deciding()
        standing = self._stand_ins()
        return frozenset(s for s in g.to_act if s in self.humans and s not in standing and s not in own)

    def _window_expired(self) -> None:
        """Time is up: everyone still on the window's clock passes (never the one whose moment it is)."""
        g = self.game
        kind = g.prompt.kind
        for seat in sorted(self._window_seats()):
            if g.over or g.prompt.kind != kind:
                break
            if seat not in self._window_seats():
                continue
            p = next((a for a in g.legal_actions(seat) if a.kind == A.PASS), None)
            if p is not None:
                g.apply(p)
        self.deadline = None
        self._commit()

    def _window_clock(self) -> None:
        """Start the countdown when a window opens or someone plays into it (passes do not restart it);
        keep it stopped while someone holds the window, and let it run on when the last holder has
        played, passed or gone away (a new round's countdown in full, else from where it stood)."""
        g = self.game
        kind = g.prompt.kind
        clocked = self._window_seats()
        if not clocked:
            self.deadline = self.paused_left = self.window_prompt = None
            self._set_holds([])
            self.waited = set()
            return
        prev = self.window_prompt
        last = next((e[1] for e in reversed(g.log) if e[0] in ("act", "forced")), None)
        fresh = (
            prev is None
            or prev[0] != kind
            or not clocked <= prev[1]
            or last is None
            or last.kind != A.PASS
            or (self.deadline is None and self.paused_left is None)
        )
        if fresh:  # a new round of the window: a new countdown, and everyone may say Wait! again
            # but a hold lasts until its holder plays or passes: another's play into the window does not end it
            same = prev is not None and prev[0] == kind
            keep = [s for s in self.held_by if same and s in clocked and (last is None or last.seat != s)]
            self._set_holds(keep)
            self.waited = set(keep)
            if keep:  # still held: the new round's full countdown starts when the last hold ends
                self.deadline, self.paused_left = None, self.window_seconds
            else:
                self.deadline, self.paused_left = self.clock.monotonic() + self.window_seconds, None
        else:
            self._keep_holds(clocked)
        self.window_prompt = (kind, clocked)

    def _keep_holds(self, clocked: frozenset[int]) -> None:
        """Holds end for those no longer on the window's clock; with none left, the countdown runs on
        from where it stood when the window was held."""
        self._set_holds([s for s in self.held_by if s in clocked])
        if not self.held_by and self.paused_left is not None:
            self.deadline = self.clock.monotonic() + self.paused_left
            self.paused_left = None

    def hold_limit(self) -> float:
        """How long one Wait! may hold a window: the table's turn clock if it has one, else MAX_HOLD_SECONDS."""
        return self.turn_clock if self.turn_clock is not None else MAX_HOLD_SECONDS

    def _set_holds(self, seats: list[int]) -> None:
        """The seats holding the window now; the others' hold deadlines are forgotten."""
        self.held_by = seats
        self.hold_until = {s: t for s, t in self.hold_until.items() if s in seats}

    def _holds_expired(self) -> None:
        """A Wait! has held the window as long as it may: its holder passes (a person who is still
        deciding cannot hold the table for ever); the countdown then runs on for the others."""
        g = self.game
        now = self.clock.monotonic()
        for seat in [s for s in self.held_by if self.hold_until.get(s, math.inf) <= now]:
            self.hold_until.pop(seat, None)
            p = next((a for a in g.legal_actions(seat) if a.kind == A.PASS), None) if seat in g.to_act else None
            if p is not None and not g.over:
                g.apply(p)
            else:
                self._keep_holds(frozenset(s for s in self.held_by if s != seat))
        self._commit()

    def hold(self, seat: int) -> None:
        """Wait!: a person on a window's clock stops its countdown until they play or pass, once per
        round of the window. Raises MunchkinError (nothing changed) when they may not."""
        if not self.dealt or self.config_writes:
            raise MunchkinError("no response window is waiting on you: the cards are not dealt yet")
        g = self.game
        if not self.allow_wait:
            raise MunchkinError("this table does not allow Wait!: its response windows always run on the clock")
        if g.over or g.prompt.kind not in WINDOW_KINDS or seat not in g.to_act:
            raise MunchkinError("no response window is waiting on you")
        if seat in g.deciding():
            raise MunchkinError("this is your own decision: the table waits for you anyway, no need to say Wait!")
        if seat not in self._window_seats():
            raise MunchkinError("no response window is waiting on you")
        if seat in self.waited:
            raise MunchkinError("you have already said Wait! in this window: play or pass")
        self.waited.add(seat)
        self._set_holds([*self.held_by, seat])
        self.hold_until[seat] = self.clock.monotonic() + self.hold_limit()
        if self.deadline is not None:
            self.paused_left = max(0.0, self.deadline - self.clock.monotonic())
            self.deadline = None
        self._touch_all()
        self.wake.set()

    def _window_info(self) -> dict[str, Any] | None:
        """The response window waiting on people, as everyone may see it: whose moment it is, who is on
        its clock and how long is left (None: no countdown), who holds it (said Wait!), who has."""
        if not self.dealt:
            return None
        g = self.game
        if g.over or g.prompt.kind not in WINDOW_KINDS:
            return None
        waiting = [s for s in g.to_act if s in self.humans]
        if not waiting:
            return None
        clocked = self._window_seats()
        left = self.paused_left if self.held_by else None
        now = self.clock.monotonic()
        return {
            "kind": g.prompt.kind,
            "seconds": self.window_seconds,
            "remaining": None if self.deadline is None else round(max(0.0, self.deadline - self.clock.monotonic()), 2),
            "waiting": waiting,
            "deciding": list(g.deciding()),
            "clocked": [s for s in g.to_act if s in clocked],
            "held_by": list(self.held_by),
            "held_left": None if left is None else round(left, 2),
            "hold_seconds": self.hold_limit(),
            "hold_left": [round(max(0.0, self.hold_until.get(s, now) - now), 2) for s in self.held_by],
            "waited": sorted(self.waited),
            "allow_wait": self.allow_wait,
        }
