"""The attacks of issue 30 in bounded form, for `server_load.py --hostile`: each runs from loopback
addresses of its own (Linux answers every 127.x.y.z on loopback) while the bot tables play, and
reports what it achieved; an innocent client on yet another address pings the server all along.

Addresses: the legitimate load comes from 127.0.1.x (tables, at most 8 an address) and 127.0.3.x
(spectators), the innocent client from 127.0.0.2, each attack from its own 127.0.5.x or 127.0.6.x.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

INNOCENT = "127.0.0.2"
TABLES_PER_CREATOR = 8  # legitimate tables one address creates (the server allows 10 unfinished)
SPECTATORS_PER_ADDRESS = 8  # legitimate spectators one address opens (the server allows 16 sockets)
PING_SECONDS = 0.25
BODY = 16_384  # the default body limit: a body of exactly this size is read and checked
MESSAGE = 4_096  # the WebSocket message limit


def creator_address(i: int) -> str:
    return f"127.0.1.{1 + i // TABLES_PER_CREATOR}"


def spectator_address(k: int) -> str:
    return f"127.0.3.{1 + k // SPECTATORS_PER_ADDRESS}"


def escaped_quotes(size: int) -> str:
    """An unterminated JSON string of escaped quotes: what made the old depth check backtrack."""
    return '"' + '\\"' * ((size - 1) // 2)


def server_flags() -> list[str]:
    """The limits the hostile run keeps: the defaults, but a server-wide table allowance large enough
    for the load's burst of 100 tables and a table cap low enough for squatters to reach."""
    return ["--tables-per-minute-total", "1000", "--max-live-tables", "150"]


@dataclass
class Report:
    """What each attack did and what it got."""

    lines: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def add(self, name: str, text: str, **figures: Any) -> None:
        self.lines.append(f"    {name:<22}{text}")
        self.figures[name] = figures


async def open_raw(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0), limit=2**20)


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP response: (status, body); (0, b"") when the server closed without one."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return 0, b""
    lines = head.decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:] if ":" in x)}
    length = int(fields.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return int(lines[0].split()[1]), body


async def post_table(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, body: Any) -> tuple[int, bytes]:
    """POST /api/tables on an open connection; its answer."""
    data = json.dumps(body).encode()
    writer.write(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(data)}\r\n\r\n".encode()
        + data
    )
    return await read_response(reader)


def ms(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(len(s) * q / 100))], 1)


# ---------------------------------------------------------------------- the innocent client
@dataclass
class Innocent:
    """A spectator from an address of its own, pinging every PING_SECONDS; its round trips are the figure."""

    rtts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    async def _read(self, ws: Any, sent: list[float]) -> None:
        async for raw in ws:
            if json.loads(raw).get("type") == "pong" and sent:
                self.rtts.append((time.monotonic() - sent.pop(0)) * 1000.0)

    async def run(self, port: int, table: str, stop: asyncio.Event) -> None:
        url = f"ws://127.0.0.1:{port}/ws/{table}"
        while not stop.is_set():
            try:
                async with websockets.connect(url, max_size=2**24, local_addr=(INNOCENT, 0), open_timeout=60) as ws:
                    sent: list[float] = []
                    task = asyncio.create_task(self._read(ws, sent))
                    try:
                        while not stop.is_set() and not task.done():
                            sent.append(time.monotonic())
                            await ws.send('{"type": "ping"}')
                            await asyncio.sleep(PING_SECONDS)
                    finally:
                        task.cancel()
            except (OSError, websockets.WebSocketException) as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)


class InnocentProcess:
    """The innocent client in a process of its own, so that the attackers' work in this process
    cannot delay its reading of a pong: what it measures is the server's answer alone."""

    def __init__(self, port: int, table: str) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.stop = ctx.Event()
        self.results = ctx.Queue()
        self.process = ctx.Process(target=_innocent_main, args=(port, table, self.stop, self.results), daemon=True)
        self.process.start()
        self.rtts: list[float] = []
        self.errors: list[str] = []

    def finish(self, timeout: float = 30.0) -> None:
        """Stop it and collect its figures."""
        self.stop.set()
        with contextlib.suppress(Exception):
            self.rtts, self.errors = self.results.get(timeout=timeout)
        self.process.join(timeout)


def _innocent_main(port: int, table: str, stop: Any, results: Any) -> None:
    innocent = Innocent()

    async def main() -> None:
        done = asyncio.Event()
        task = asyncio.create_task(innocent.run(port, table, done))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        done.set()
        await asyncio.wait([task], timeout=10)

    asyncio.run(main())
    results.put((innocent.rtts, innocent.errors))


# ---------------------------------------------------------------------- the attacks
async def bodies_to_nowhere(port: int, stop: asyncio.Event, report: Report, senders: int = 2) -> None:
    """Each sender posts 16 KB of escaped quotes to an address that does not exist, again and again."""
    body = escaped_quotes(BODY).encode()
    times: list[float] = []
    statuses: dict[int, int] = {}

    async def one(k: int) -> None:
        conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        while not stop.is_set():
            try:
                if conn is None:
                    conn = await open_raw(port, f"127.0.5.{1 + k}")
                reader, writer = conn
                t = time.monotonic()
                writer.write(
                    b"POST /no/such/path HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                status, _ = await read_response(reader)
                times.append((time.monotonic() - t) * 1000.0)
                statuses[status] = statuses.get(status, 0) + 1
                if status == 0:
                    conn = None
            except OSError:
                conn = None
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one(k) for k in range(senders)))
    report.add(
        "16 KB to a 404",
        f"{len(times)} bodies by {senders} senders, each answered in p50 {ms(times, 50)} ms; statuses {statuses}",
        sent=len(times),
        p50_ms=ms(times, 50),
        statuses=statuses,
    )


async def quotes_on_sockets(port: int, table: str, stop: asyncio.Event, report: Report, sockets: int = 4) -> None:
    """Sockets that each send 4 KB of escaped quotes ten times a second, the most the server allows."""
    text = escaped_quotes(MESSAGE)
    sent = [0]
    errors = [0]

    async def one() -> None:
        url = f"ws://127.0.0.1:{port}/ws/{table}"
        async with websockets.connect(url, max_size=2**24, local_addr=("127.0.5.3", 0)) as ws:

            async def drain() -> None:
                async for raw in ws:
                    if json.loads(raw).get("type") == "error":
                        errors[0] += 1

            task = asyncio.create_task(drain())
            try:
                while not stop.is_set():
                    await ws.send(text)
                    sent[0] += 1
                    await asyncio.sleep(0.1)
            finally:
                task.cancel()

    with contextlib.suppress(OSError, websockets.WebSocketException):
        await asyncio.gather(*(one() for _ in range(sockets)))
    report.add(
        "4 KB socket messages",
        f"{sent[0]} messages on {sockets} sockets; {errors[0]} answered with an error",
        sent=sent[0],
        errors=errors[0],
    )


async def idle_connections(
    port: int, stop: asyncio.Event, report: Report, source: str, how: str, n: int = 1000
) -> None:
    """`n` connections from one address that send nothing ("idle"), half a request line and headers
    ("half headers") or headers and a stalled body ("slow body"): how many the server accepts and
    keeps, and how long before it has closed them all."""
    payload = {
        "idle": b"",
        "half headers": b"GET /api/sets HTTP/1.1\r\nHost: x\r\nX-Slow: ",
        "slow body": b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 9000\r\n\r\n{",
    }[how]
    conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    start = time.monotonic()
    for _ in range(n):
        try:
            reader, writer = await open_raw(port, source)
        except OSError:
            refused += 1
            continue
        if payload:
            writer.write(payload)
        conns.append((reader, writer))
    statuses: dict[int, int] = {}

    async def watch(reader: asyncio.StreamReader) -> float:
        status, _ = await read_response(reader)
        statuses[status] = statuses.get(status, 0) + 1
        return time.monotonic() - start

    closed_at = await asyncio.gather(*(watch(r) for r, _ in conns))
    for _, w in conns:
        w.close()
    refused_503, cut, timed_out = statuses.get(503, 0), statuses.get(0, 0), statuses.get(408, 0)
    last = max(closed_at, default=0.0)
    report.add(
        how,
        f"{n} opened from one address in a loop: {cut} cut at once (request rate), {refused_503} refused 503 "
        f"(connection cap), {timed_out} held and answered 408; all closed within {last:.1f} s",
        opened=n,
        cut=cut,
        refused=refused_503,
        timed_out=timed_out,
        all_closed_seconds=round(last, 1),
        statuses=statuses,
    )


async def spectator_flood(port: int, table: str, stop: asyncio.Event, report: Report, n: int = 2000) -> None:
    """`n` spectator sockets on one table from one address, as fast as they open."""
    held: list[Any] = []
    refused: dict[str, int] = {}
    url = f"ws://127.0.0.1:{port}/ws/{table}"
    start = time.monotonic()
    for _ in range(n):
        try:
            ws = await websockets.connect(url, max_size=2**24, local_addr=("127.0.5.7", 0), open_timeout=10)
        except (OSError, websockets.WebSocketException) as exc:
            status = getattr(getattr(exc, "response", None), "status_code", None)
            cut = isinstance(exc, websockets.InvalidMessage)
            why = f"HTTP {status}" if status else "cut at once" if cut else type(exc).__name__
            refused[why] = refused.get(why, 0) + 1
            continue
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except (TimeoutError, websockets.WebSocketException):
            first = {}
        if first.get("type") == "hello":
            held.append(ws)
        else:
            refused["4429 (socket caps)"] = refused.get("4429 (socket caps)", 0) + 1
            await ws.close()
    took = time.monotonic() - start
    report.add(
        "spectator flood",
        f"{n} tried in {took:.1f} s from one address: {len(held)} held, refused {refused}",
        tried=n,
        held=len(held),
        refused=refused,
    )
    await stop.wait()
    for ws in held:
        with contextlib.suppress(Exception):
            await ws.close()


async def never_reads(port: int, tables: list[str], stop: asyncio.Event, report: Report, n: int = 12) -> None:
    """Sockets that ask for everything and read nothing (a tiny receive window), pinging all along."""
    import socket

    cut = [0]

    async def one(k: int) -> None:
        loop = asyncio.get_running_loop()
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind(("127.0.5.9", 0))
        s.setblocking(False)
        await loop.sock_connect(s, ("127.0.0.1", port))
        tid = tables[k % len(tables)]
        await loop.sock_sendall(
            s,
            f"GET /ws/{tid} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode(),
        )
        ping = bytes([0x81, 0x80 | 16]) + b"\x00\x00\x00\x00" + b'{"type": "ping"}'  # a masked text frame
        try:
            while not stop.is_set():
                await loop.sock_sendall(s, ping)
                await asyncio.sleep(0.1)
        except OSError:
            cut[0] += 1
        finally:
            s.close()

    await asyncio.gather(*(one(k) for k in range(n)))
    text = (
        f"{n} sockets that never read, pinging: {cut[0]} cut off by the server (the others watched games that "
        "ended before the server's buffers for them filled)"
    )
    report.add("never reads", text, sockets=n, cut=cut[0])


async def squatters(port: int, stop: asyncio.Event, report: Report, addresses: int = 10, each: int = 15) -> None:
    """Several addresses create tables nobody will play (one person seat, never claimed) and watch
    them, until refused; then a new address asks for a table."""
    created: list[str] = []
    refusals: dict[int, int] = {}
    watchers: list[Any] = []
    body = {
        "name": "squat",
        "seats": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}, {"name": "C", "kind": "bot"}],
    }
    for a in range(addresses):
        reader, writer = await open_raw(port, f"127.0.6.{1 + a}")
        for _ in range(each):
            status, answer = await post_table(reader, writer, body)
            if status == 201:
                tid = json.loads(answer)["table"]["id"]
                created.append(tid)
                with contextlib.suppress(OSError, websockets.WebSocketException):
                    watchers.append(
                        await websockets.connect(f"ws://127.0.0.1:{port}/ws/{tid}", local_addr=(f"127.0.6.{1 + a}", 0))
                    )
            else:
                refusals[status] = refusals.get(status, 0) + 1
                if status == 0:
                    reader, writer = await open_raw(port, f"127.0.6.{1 + a}")
        writer.close()
    reader, writer = await open_raw(port, "127.0.6.200")
    newcomer, _ = await post_table(reader, writer, {**body, "name": "a newcomer"})
    writer.close()
    report.add(
        "squatters",
        f"{addresses} addresses made {len(created)} tables, then were refused {refusals}; "
        f"a new address then got {newcomer}",
        created=len(created),
        refusals=refusals,
        newcomer=newcomer,
    )
    await stop.wait()
    for ws in watchers:
        with contextlib.suppress(Exception):
            await ws.close()


async def wait_holder(port: int, stop: asyncio.Event, report: Report) -> None:
    """A person who says Wait! in every window on their clock and then does nothing: how long each
    hold keeps the table where it is (the bound is the turn clock, 10 s here)."""
    body = {
        "name": "holder",
        "seats": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "bot"}, {"name": "C", "kind": "bot"}],
        "window_seconds": 3,
        "turn_clock": 10,
        "away_seconds": 10,
        "bot_delay": 0,
    }
    reader, writer = await open_raw(port, "127.0.5.8")
    status, answer = await post_table(reader, writer, body)
    writer.close()
    if status != 201:
        report.add("Wait! holder", f"could not create its table ({status})")
        return
    made = json.loads(answer)
    tid, url = made["table"]["id"], made["links"][0]["url"]
    holds: list[float] = []
    forward = ("ready", "kick", "keep", "trouble", "loot", "end", "run", "refuse", "decline", "take", "choose")
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/{tid}?" + url.split("?")[1], max_size=2**24, local_addr=("127.0.5.8", 0)
    ) as ws:
        held_at: float | None = None
        held_version = -1
        while not stop.is_set():
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            if m.get("type") != "state":
                continue
            if m["view"] is None:  # a fair table before its deal: add entropy, as the page does, and wait
                if m["fair"]["entropy"][0] is None:
                    await ws.send(json.dumps({"type": "entropy", "entropy": "the holder's"}))
                continue
            if held_at is not None and m["version"] != held_version:
                holds.append(time.monotonic() - held_at)
                held_at = None
            w = m.get("window")
            if w and 0 in (w.get("clocked") or []) and 0 not in (w.get("waited") or []) and held_at is None:
                await ws.send('{"type": "wait"}')
                held_at, held_version = time.monotonic(), m["version"]
                continue
            if held_at is not None or m["view"]["over"]:
                continue
            answers = [a["text"] for a in m["actions"] if not a["any_time"]]
            if answers and not w:
                pick = next((a for f in forward for a in answers if a.startswith(f)), answers[0])
                await ws.send(json.dumps({"type": "act", "action": pick, "version": m["version"]}))
    report.add(
        "Wait! holder",
        f"{len(holds)} holds, each ended by the server after at most "
        f"{max(holds, default=0):.1f} s (bound: the turn clock, 10 s)",
        holds=len(holds),
        longest_seconds=round(max(holds, default=0.0), 1),
    )


async def list_flood(port: int, stop: asyncio.Event, report: Report) -> None:
    """One client asking for the whole first page of the lobby's list as fast as it is answered."""
    reader, writer = await open_raw(port, "127.0.5.10")
    times: list[float] = []
    while not stop.is_set():
        t = time.monotonic()
        writer.write(b"GET /api/tables?limit=100 HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _ = await read_response(reader)
        if status == 0:
            reader, writer = await open_raw(port, "127.0.5.10")
            continue
        times.append((time.monotonic() - t) * 1000.0)
    writer.close()
    report.add(
        "list flood", f"{len(times)} pages of 100, each p50 {ms(times, 50)} ms", pages=len(times), p50_ms=ms(times, 50)
    )


def attacks(port: int, tables: list[str], stop: asyncio.Event, report: Report) -> list[Callable[[], Awaitable[None]]]:
    """Every attack, ready to start; `tables` are the load's tables (some are watched or flooded)."""
    return [
        lambda: bodies_to_nowhere(port, stop, report),
        lambda: quotes_on_sockets(port, tables[1], stop, report),
        lambda: idle_connections(port, stop, report, "127.0.5.4", "idle"),
        lambda: idle_connections(port, stop, report, "127.0.5.5", "half headers"),
        lambda: idle_connections(port, stop, report, "127.0.5.6", "slow body", n=200),
        lambda: spectator_flood(port, tables[2], stop, report),
        lambda: never_reads(port, tables[3:], stop, report),
        lambda: squatters(port, stop, report),
        lambda: wait_holder(port, stop, report),
        lambda: list_flood(port, stop, report),
    ]
