"""One WebSocket at a table (`Client`): the seat it plays (None: a spectator), its message rate, the replies
queued for it and why it was dropped; `_gone`: does a failed send only say the client went away?"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

MAX_MESSAGE = 4096
BURST = 20  # messages a client may send at once
RATE = 10.0  # messages a second, sustained
MAX_OUTBOX = 32  # replies waiting for a client that does not read them; past it the client is dropped


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Client:
    """One WebSocket at a table: a seat (or None for a spectator) and what it has been sent."""

    def __init__(
        self,
        ws: Socket,
        seat: int | None,
        burst: int = BURST,
        rate: float = RATE,
        device: bool = False,
        address: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ws = ws
        self.clock = clock  # the table's monotonic clock: the message bucket refills by it
        self.address = address  # the client's address key: a spectator's chat is rate-limited by it
        self.seat = seat  # on a pass-and-play device: the seat claimed now, None between two people
        self.device = device  # a pass-and-play table's device link: plays every person seat, one at a time
        self.burst, self.rate = burst, rate
        self.event_pos = 0  # engine events narrated so far
        self.lines = 0  # narration lines sent so far
        self.fight_sent = -1  # the last fight sent (its first event), so that it is sent once
        self.chat_next: int | None = None  # the chat line to send from (None: the history it may read)
        self.dirty = True
        self.outbox: deque[str] = deque()
        self.wake = asyncio.Event()
        self.wake.set()
        self.tokens = float(burst)
        self.refill_at = clock()
        self.refused = 0
        self.complained_at = -1.0
        self.task: asyncio.Task[None] | None = None
        self.dropped = ""  # why the server is dropping this client ("" while it is not)
        self.handler: asyncio.Task[Any] | None = None  # the task reading this client's socket

    def allow(self) -> bool:
        """Token bucket: BURST at once, RATE a second after that."""
        t = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (t - self.refill_at) * self.rate)
        self.refill_at = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    def may_complain(self) -> bool:
        """Tell a flooder its messages are refused, but at most a few times a second."""
        t = self.clock()
        if t - self.complained_at < 0.2:
            return False
        self.complained_at = t
        return True

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a reply; a client that lets MAX_OUTBOX of them pile up unread is dropped (its socket
        closes), so a client that never reads cannot grow the server's memory."""
        if self.dropped:
            return
        if len(self.outbox) >= MAX_OUTBOX:
            self.drop(f"{MAX_OUTBOX} replies waited unread")
            return
        self.outbox.append(json.dumps(msg))
        self.wake.set()

    def touch(self) -> None:
        self.dirty = True
        self.wake.set()

    def drop(self, why: str) -> None:
        """Stop serving this client: its writer and its reader end, and so its socket closes."""
        if self.dropped:
            return
        self.dropped = why
        self.outbox.clear()
        for task in (self.task, self.handler):
            if task is not None and task is not asyncio.current_task():
                task.cancel()


def _gone(exc: Exception) -> bool:
    """Does this error from a send only say that the client has gone away?"""
    from starlette.websockets import WebSocketDisconnect

    # a send after the socket was closed: by Starlette's words, or uvicorn's (a ping the client never answered)
    said = ("close message has been sent", "after sending 'websocket.close'")
    closed = isinstance(exc, RuntimeError) and any(w in str(exc) for w in said)
    return closed or isinstance(exc, (WebSocketDisconnect, OSError))
