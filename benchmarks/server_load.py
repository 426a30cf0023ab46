"""Load on the table server over loopback: many bot-only tables playing flat out, a few
WebSocket spectators, then every game replayed to prove no event was lost.

Starts `munchkin serve` as a subprocess (SQLite in a fresh temp dir, or `--db URL`), creates
the tables at once, watches some of them from this (separate) process, polls until every game
is over, and reports actions served per second, action-to-broadcast latency and server CPU time.
`--kill N` kills and restarts the server N times while the games play (chaos); `--replay-clients N`
downloads finished games' replays from N clients all along and reports the latency meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hostile as hostile_mod
import httpx
import websockets

from munchkin.engine.game import Game
from munchkin.engine.view import narrate

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
POLL_SECONDS = 0.25
PING_SECONDS = 0.25  # each spectator's ping, well under the server's 10 messages a second
PAGE = 100  # tables asked for per page of GET /api/tables (the server's maximum)
KILL_GAP = 1.0  # seconds the server answers after a (re)start before the next kill may fall
TYPICAL_TURNS = 45  # about the mean length of these bot games, in turns (for placing the kills only)
TARGET_MS = 50.0  # the target for ping and action->broadcast p95 while replays download


# ---------------------------------------------------------------------- the server process
def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def munchkin_command() -> list[str]:
    """The `munchkin` script of this interpreter's environment (else the one on PATH)."""
    beside = Path(sys.executable).parent / "munchkin"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("munchkin")
    if found is None:
        raise SystemExit("cannot find the `munchkin` command; install the package (pip install -e .)")
    return [found]


def serve_command(server_cmd: str | None) -> list[str]:
    """`munchkin serve`, or the command given to compare a patched server."""
    return shlex.split(server_cmd) if server_cmd else [*munchkin_command(), "serve"]


def serve_flags(base: list[str]) -> set[str]:
    """The long options the server command offers (from its --help), so that flags newer than
    some server versions (rate limits, expiry) are passed only where they exist."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    out = subprocess.run([*base, "--help"], capture_output=True, text=True, env=env, timeout=60, check=False)
    return {w.strip("│,[]") for w in out.stdout.split() if w.startswith("--")}


def no_rate_limits(flags: set[str]) -> list[str]:
    """Flags that switch the per-address and creation limits off, where the server has them: the load
    comes from one address, as no real crowd does."""
    wanted = [
        "--tables-per-minute",
        "--tables-per-minute-total",
        "--max-live-tables-per-address",
        "--max-connections-per-address",
        "--max-websockets-per-address",
        "--requests-per-second",
    ]
    return [x for f in wanted if f in flags for x in (f, "0")]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, from /proc/PID/stat (0.0 where /proc is missing)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()  # fields from 3 (state) on; utime is 14, stime 15
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int, key: str = "VmHWM") -> float:
    """A memory figure of the process from /proc/PID/status in MB (VmHWM: peak resident, VmRSS:
    current), 0.0 if unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@dataclass
class Server:
    """The server subprocess on one port and database; killed and started again for chaos runs.
    CPU time and peak memory add up over every process it has been."""

    cmd: list[str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    cpu_before: float = 0.0  # CPU seconds of the processes already gone
    peak_mb: float = 0.0
    starts: int = 0

    def start(self) -> None:
        """Spawn it, appending its output to the log."""
        with self.log_path.open("ab") as out:
            out.write(f"==== start {self.starts + 1}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(self.cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.starts += 1

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def cpu(self) -> float:
        return self.cpu_before + cpu_seconds(self.pid)

    def peak_rss(self) -> float:
        return max(self.peak_mb, rss_mb(self.pid))

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the machine loses power."""
        assert self.proc is not None
        self.cpu_before, self.peak_mb = self.cpu(), self.peak_rss()
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        """Terminate, then kill if it has not gone within 10 seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-2000:] if self.log_path.exists() else ""


async def wait_ready(http: httpx.AsyncClient, server: Server, timeout: float) -> None:
    """Poll GET /api/sets until it answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.proc is not None
        if server.proc.poll() is not None:
            raise SystemExit(f"the server exited with {server.proc.returncode}:\n{server.log_tail()}")
        try:
            if (await http.get("/api/sets")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit(f"the server did not answer within {timeout:.0f} s:\n{server.log_tail()}")


async def list_tables(http: httpx.AsyncClient, timings: list[float] | None = None) -> list[dict[str, Any]]:
    """Every table's summary: a plain list from older servers, else page after page
    (`{"tables", "next"}`), following `next` until it is null. Request times go to `timings`."""
    rows: list[dict[str, Any]] = []
    after: str | None = None
    for _ in range(10_000):  # a bound far above any table count here
        params: dict[str, str | int] = {"limit": PAGE}
        if after is not None:
            params["after"] = after
        asked = time.monotonic()
        r = await http.get("/api/tables", params=params)
        if timings is not None:
            timings.append((time.monotonic() - asked) * 1000.0)
        r.raise_for_status()
        body = r.json()
        if isinstance(body, list):
            return body
        rows += body["tables"]
        after = body.get("next")
        if after is None:
            break
    return rows


class Http1:
    """A minimal HTTP/1.1 keep-alive connection for the burst of POSTs and the replay downloads.
    httpx's pool spends about 20 ms of client CPU per request with 100 requests in flight,
    which would spread the burst over seconds; this costs next to nothing."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int, source: str | None = None) -> Http1:
        local = (source, 0) if source else None
        reader, writer = await asyncio.open_connection(host, port, limit=2**20, local_addr=local)
        return cls(reader, writer)

    async def request_bytes(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        """Send one request and read its answer: (status, body bytes), sized or chunked."""
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: loopback\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        fields = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
        if fields.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            return status, b"".join(parts)
        length = int(fields.get("content-length", "0"))
        return status, await self.reader.readexactly(length) if length else b""

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send one request and read its answer: (status, decoded JSON body)."""
        status, data = await self.request_bytes(method, path, body)
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


STRENGTH = "mixed"  # the bots' tier (--strength): "mixed" is random and Easy bots, seat by seat


def table_spec(i: int, seed: int | None, name: str = "load") -> dict[str, Any]:
    """Table i: 3 to 6 bot seats (cycling), random and Easy bots mixed (or all of the tier `STRENGTH`);
    seed `seed + i`, or chance from the server when `seed` is None."""
    n = 3 + i % 4
    seats = [
        {
            "name": NAMES[s],
            "kind": "bot",
            "strength": STRENGTH if STRENGTH != "mixed" else "random" if (i + s) % 2 else "easy",
        }
        for s in range(n)
    ]
    spec: dict[str, Any] = {"name": f"{name} {i:03d}", "sets": ["deluxe"], "seats": seats, "bot_delay": 0}
    if seed is not None:
        spec["seed"] = seed + i
    return spec


async def create_tables(
    conns: list[Http1], seed: int | None, on_created: Callable[[int, str], None], name: str = "load"
) -> list[str]:
    """POST table i on connection i, all at once; `on_created(i, id)` as each answers; the ids in order."""

    async def one(i: int) -> str:
        status, body = await conns[i].request("POST", "/api/tables", table_spec(i, seed, name))
        if status != 201:
            raise SystemExit(f"POST /api/tables for table {i} answered {status}: {body}")
        tid: str = body["table"]["id"]
        on_created(i, tid)
        return tid

    return list(await asyncio.gather(*(one(i) for i in range(len(conns)))))


# ---------------------------------------------------------------------- spectators
@dataclass
class Spectator:
    """One WebSocket without a token: checks its narration is gap-free, times each broadcast,
    and pings the server every PING_SECONDS until cancelled (the game being over or not).
    With `reconnect` it dials again whenever the connection drops, until it has seen the end."""

    table: str
    spans: list[list[str]] = field(default_factory=list)  # each connection's narration, from line 0
    states: int = 0
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (received, ms): new versions
    all_ms: list[float] = field(default_factory=list)  # every state message, snapshots and repeats too
    join_ms: float | None = None  # age of the snapshot sent on joining (its `at` predates the join)
    connect_ms: float | None = None  # from dialling to the first state message
    back_ms: list[float] = field(default_factory=list)  # from a dropped connection to the next first state
    repeats: int = 0  # state messages whose version did not move (seat or window changes)
    pings: deque[float] = field(default_factory=deque)
    rtts: list[tuple[float, float]] = field(default_factory=list)  # (received, ms)
    gaps: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    drops: int = 0
    max_bytes: int = 0
    version: int = -1
    over: bool = False
    winners: list[int] = field(default_factory=list)
    _span_states: int = 0
    _dropped_at: float | None = None

    source: str | None = None  # the loopback address to connect from (None: any)

    async def watch(self, url: str, reconnect: bool = False) -> None:
        """Read messages until the task is cancelled (or, reconnecting, the game has ended and the
        connection drops)."""
        while True:
            dialled = time.time()
            try:
                local = {"local_addr": (self.source, 0)} if self.source else {}
                async with websockets.connect(url, max_size=2**24, open_timeout=60, **local) as ws:
                    self.spans.append([])
                    self._span_states = 0
                    self.pings.clear()
                    pinger = asyncio.create_task(self._ping(ws))
                    try:
                        async for raw in ws:
                            received = time.time()
                            self.on_message(raw, received)
                            if self.connect_ms is None and self.states:
                                self.connect_ms = (received - dialled) * 1000.0
                    finally:
                        pinger.cancel()
            except (OSError, websockets.WebSocketException) as exc:
                if not reconnect:
                    self.errors.append(f"{type(exc).__name__}: {exc}")
                    return
            if not reconnect or self.over:
                return
            self.drops += 1
            if self._dropped_at is None:
                self._dropped_at = time.time()
            await asyncio.sleep(0.05)

    async def _ping(self, ws: websockets.ClientConnection) -> None:
        while True:
            await asyncio.sleep(PING_SECONDS)
            self.pings.append(time.time())
            await ws.send('{"type": "ping"}')

    def on_message(self, raw: str | bytes, received: float) -> None:
        """Check and time one message from the server."""
        self.max_bytes = max(self.max_bytes, len(raw))
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "pong":
            if self.pings:
                self.rtts.append((received, (received - self.pings.popleft()) * 1000.0))
            return
        if kind == "error":
            self.errors.append(str(msg.get("error")))
            return
        if kind != "state":
            return
        self.states += 1
        self._span_states += 1
        latency = (received - float(msg["at"])) * 1000.0
        self.all_ms.append(latency)
        if self.states == 1:
            self.join_ms = latency
        elif self._span_states == 1:  # the snapshot after a reconnection
            if self._dropped_at is not None:
                self.back_ms.append((received - self._dropped_at) * 1000.0)
                self._dropped_at = None
        elif msg["version"] > self.version:
            self.latencies.append((received, latency))
        else:
            self.repeats += 1
        self.version = max(self.version, msg["version"])
        lines = self.spans[-1]
        if msg["log_start"] != len(lines):
            self.gaps.append(f"state v{msg['version']}: log_start {msg['log_start']}, held {len(lines)} lines")
        lines.extend(msg["log"])
        view = msg["view"]
        if view["over"]:
            self.over = True
            self.winners = list(view["winners"])


# ---------------------------------------------------------------------- replay downloads
@dataclass
class Downloads:
    """What the replay-downloading clients did: each download's end time, duration and size."""

    done: list[tuple[float, float, int]] = field(default_factory=list)  # (wall end, ms, bytes)
    errors: list[str] = field(default_factory=list)
    began: float | None = None
    ended: float | None = None

    def window(self) -> float:
        return (self.ended or time.time()) - (self.began or time.time())


async def download_replays(
    port: int, k: int, finished: list[str], stop: asyncio.Event, deadline: float, out: Downloads, source: str | None
) -> None:
    """Client k: GET a finished game's replay, the next one and so on (round robin from its own
    starting point), over one keep-alive connection, until `stop` is set or the deadline passes."""
    conn: Http1 | None = None
    n = k
    try:
        while not stop.is_set() and time.monotonic() < deadline:
            if not finished:
                await asyncio.sleep(0.05)
                continue
            tid = finished[n % len(finished)]
            n += 1
            try:
                if conn is None:
                    conn = await Http1.open("127.0.0.1", port, source)
                t = time.monotonic()
                status, body = await conn.request_bytes("GET", f"/api/tables/{tid}/replay")
                if status == 200:
                    out.done.append((time.time(), (time.monotonic() - t) * 1000.0, len(body)))
                else:
                    out.errors.append(f"replay of {tid}: status {status}")
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                out.errors.append(f"replay of {tid}: {type(exc).__name__}")  # the server killed, most likely
                conn = None
                await asyncio.sleep(0.1)
    finally:
        if conn is not None:
            await conn.close()


# ---------------------------------------------------------------------- checking
def percentile(xs: list[float], q: float) -> float | None:
    """Linear-interpolated q-th percentile (0-100) of xs; None when empty."""
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * q / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def verify(replay: str, winners: list[str], spectators: list[Spectator]) -> tuple[int, list[str]]:
    """Replay one save (every action, chance outcome and the fingerprint are checked); compare the
    winners with the API's and each spectator's narration with the replayed game's: what a connection
    saw must begin the replayed narration, and the one that saw the end must hold all of it.
    Returns (stored actions, problems)."""
    problems: list[str] = []
    actions = sum(1 for e in json.loads(replay)["log"] if "act" in e)
    try:
        g = Game.from_json(replay)
    except Exception as exc:  # any failure to replay is a lost or corrupted event
        return actions, [f"does not replay: {type(exc).__name__}: {exc}"]
    if not g.over:
        problems.append("the replayed game is not over")
    names = [g.players[s].name for s in g.winners]
    if names != winners:
        problems.append(f"winners {names} replayed, the API says {winners}")
    if spectators:
        full = narrate(g, None, 0)
        for sp in spectators:
            if not sp.over:
                problems.append("a spectator never saw the game end")
            for k, lines in enumerate(sp.spans):
                last = k == len(sp.spans) - 1
                if lines != full[: len(lines)] or (last and sp.over and len(lines) != len(full)):
                    n = next((i for i, (a, b) in enumerate(zip(lines, full)) if a != b), min(len(lines), len(full)))
                    which = f" (connection {k + 1} of {len(sp.spans)})" if len(sp.spans) > 1 else ""
                    problems.append(f"a spectator's narration differs from the replay at line {n}{which}")
            if sp.over and sp.winners != list(g.winners):
                problems.append(f"a spectator saw winners {sp.winners}, the replay has {list(g.winners)}")
    return actions, problems


def kill_points(n: int, seed: int) -> list[float]:
    """The progress (0..1) at which each of n kills falls: one random point in each of n equal
    slices of 5..90 %, so that they spread over the run; seeded, so a run can be repeated."""
    rng = random.Random(seed)
    return [0.05 + 0.85 * (k + rng.random()) / n for k in range(n)]


def progress(summaries: list[dict[str, Any]]) -> float:
    """How far the games are, by turns played against the turns they will have played: a finished
    game's own; for one still on, at least the median turn of all the games and TYPICAL_TURNS (the
    games that end first are the short ones, so their lengths alone would make the run look further on)."""
    turns = sorted(t["turn"] for t in summaries)
    typical = max(TYPICAL_TURNS, turns[len(turns) // 2]) if turns else TYPICAL_TURNS
    played = sum(turns)
    total = sum(t["turn"] if t["status"] != "playing" else max(t["turn"], typical) for t in summaries)
    return played / total if total else 1.0


# ---------------------------------------------------------------------- the run
async def wait_over(
    http: httpx.AsyncClient, ids: list[str], deadline: float, timings: list[float] | None = None
) -> dict[str, dict[str, Any]]:
    """Poll until every table in `ids` is over or stopped (or the deadline); their summaries."""
    wanted = set(ids)
    while True:
        status = {t["id"]: t for t in await list_tables(http, timings) if t["id"] in wanted}
        if all(t["status"] in ("over", "stopped") for t in status.values()) or time.monotonic() >= deadline:
            return status
        await asyncio.sleep(POLL_SECONDS)


async def run(args: argparse.Namespace, port: int, server: Server) -> dict[str, Any]:
    """Create, watch, poll (killing and restarting the server as asked), fetch replays; the
    server is stopped by the caller."""
    base = f"http://127.0.0.1:{port}"
    seed = args.seed if args.seeded else None
    chaos = args.kill > 0
    hostile = args.hostile
    poller = httpx.AsyncHTTPTransport(local_address="127.0.4.1") if hostile else None
    async with httpx.AsyncClient(base_url=base, timeout=120, transport=poller) as http:
        await wait_ready(http, server, 60)
        before = await list_tables(http)
        if before:
            print(f"warning: the database already holds {len(before)} tables; they run too", file=sys.stderr)
        # games to download while the others play: a few tables played to their end first
        warm: list[str] = []
        if args.replay_clients:
            wconns = list(
                await asyncio.gather(
                    *(
                        Http1.open("127.0.0.1", port, "127.0.2.1" if hostile else None)
                        for _ in range(args.replay_tables)
                    )
                )
            )
            warm = await create_tables(wconns, None if seed is None else seed + 10_000, lambda i, t: None, "replay")
            for c in wconns:
                await c.close()
            wstatus = await wait_over(http, warm, time.monotonic() + args.timeout)
            warm = [i for i in warm if wstatus[i]["status"] == "over"]
            if not warm:
                raise SystemExit("none of the tables played for replay downloads ended")
        # one connection per table, opened (and accepted) before the burst: under load the server
        # accepts only one new connection per event-loop iteration (libuv), which would spread it out
        conns = list(
            await asyncio.gather(
                *(
                    Http1.open("127.0.0.1", port, hostile_mod.creator_address(i) if hostile else None)
                    for i in range(args.tables)
                )
            )
        )
        await asyncio.gather(*(c.request("GET", "/api/sets") for c in conns))
        cpu0, client0 = server.cpu(), time.process_time()
        t0 = time.monotonic()
        # spectators spread evenly over the tables (one per table until they outnumber them);
        # each connects as soon as its table exists, since the bots start at once
        ws_base = base.replace("http://", "ws://")
        watched: dict[int, int] = {}
        for k in range(args.spectators):
            j = k * args.tables // args.spectators
            watched[j] = watched.get(j, 0) + 1
        specs: list[Spectator] = []
        tasks: list[asyncio.Task[None]] = []

        def spectate(i: int, tid: str) -> None:
            for _ in range(watched.get(i, 0)):
                sp = Spectator(tid, source=hostile_mod.spectator_address(len(specs)) if hostile else None)
                specs.append(sp)
                tasks.append(asyncio.create_task(sp.watch(f"{ws_base}/ws/{tid}", reconnect=chaos)))

        ids = await create_tables(conns, seed, spectate)
        for c in conns:
            await c.close()
        created_s = time.monotonic() - t0
        deadline = t0 + args.timeout
        finished = list(warm)  # replays the download clients may fetch; grows as games end
        downloads = Downloads()
        stop = asyncio.Event()
        downloaders = [
            asyncio.create_task(
                download_replays(port, k, finished, stop, deadline, downloads, f"127.0.4.{2 + k}" if hostile else None)
            )
            for k in range(args.replay_clients)
        ]
        # the attacks, and an innocent client pinging from an address of its own
        report = hostile_mod.Report()
        innocent: hostile_mod.InnocentProcess | None = None
        attacked = asyncio.Event()
        attackers: list[asyncio.Task[None]] = []
        if hostile:
            innocent = hostile_mod.InnocentProcess(port, ids[0])
            await asyncio.sleep(2.0)  # the innocent client's figures begin before the attacks
            attackers += [asyncio.create_task(a()) for a in hostile_mod.attacks(port, ids, attacked, report)]
        if downloaders:
            downloads.began = time.time()
        points = kill_points(args.kill, args.seed)
        rng = random.Random(args.seed + 1)
        kills: list[dict[str, float]] = []
        answering_since = time.monotonic()
        wanted = set(ids)
        status: dict[str, dict[str, Any]] = {}
        poll_ms: list[float] = []
        next_note = time.monotonic() + 10
        while True:
            try:
                summaries = [t for t in await list_tables(http, poll_ms) if t["id"] in wanted]
            except httpx.TransportError:  # a connection from before a restart; bounded by the deadline
                if time.monotonic() >= deadline:
                    raise
                await asyncio.sleep(POLL_SECONDS)
                continue
            status = {t["id"]: t for t in summaries}
            finished += [i for i in ids if status[i]["status"] == "over" and i not in finished]
            done = sum(1 for t in status.values() if t["status"] in ("over", "stopped"))
            if done == len(wanted) or time.monotonic() >= deadline:
                break
            if time.monotonic() >= next_note:
                print(f"  {time.monotonic() - t0:6.1f} s: {done}/{len(wanted)} games over", file=sys.stderr)
                next_note += 10
            now = time.monotonic()
            if (
                len(kills) < len(points)
                and progress(summaries) >= points[len(kills)]
                and now - answering_since >= KILL_GAP
            ):
                await asyncio.sleep(rng.uniform(0, POLL_SECONDS))  # not in step with the polls
                at = time.monotonic()
                server.kill()
                server.start()
                spawned = time.monotonic()
                await wait_ready(http, server, 120)
                answering_since = time.monotonic()
                kills.append(
                    {
                        "at_seconds": round(at - t0, 2),
                        "progress": round(progress(summaries), 3),
                        "games_over": done,
                        "restart_seconds": round(answering_since - spawned, 2),
                        "down_seconds": round(answering_since - at, 2),
                    }
                )
                print(
                    f"  {at - t0:6.1f} s: killed the server ({done}/{len(wanted)} games over); "
                    f"answering again after {answering_since - at:.2f} s",
                    file=sys.stderr,
                )
                continue
            await asyncio.sleep(POLL_SECONDS)
        wall = time.monotonic() - t0
        stop.set()
        attacked.set()
        if innocent is not None:
            await asyncio.to_thread(innocent.finish)
        if attackers:
            await asyncio.wait(attackers, timeout=60)
        if downloaders:
            downloads.ended = time.time()
            await asyncio.gather(*downloaders)
        cpu, client_cpu = server.cpu() - cpu0, time.process_time() - client0
        rss = server.peak_rss()
        over = [i for i in ids if status[i]["status"] == "over"]
        # give spectators of finished games up to 10 s for the final state, then hang up
        grace = time.monotonic() + 10
        while time.monotonic() < grace and any(not sp.over and status[sp.table]["status"] == "over" for sp in specs):
            await asyncio.sleep(0.05)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

        unfinished = [
            {"id": i, "index": k, "status": status[i]["status"], "turn": status[i]["turn"]}
            for k, i in enumerate(ids)
            if status[i]["status"] != "over"
        ]
        t1 = time.monotonic()
        replays: dict[str, str] = {}
        for i in over:
            r = await http.get(f"/api/tables/{i}/replay")
            r.raise_for_status()
            replays[i] = r.text
        export_s = time.monotonic() - t1
        warm_replays = {i: (await http.get(f"/api/tables/{i}/replay")).text for i in warm}
        warm_winners = {t["id"]: t["winners"] for t in await list_tables(http) if t["id"] in warm_replays}

    t2 = time.monotonic()
    actions = 0
    failures: dict[str, list[str]] = {}
    by_table: dict[str, list[Spectator]] = {}
    for sp in specs:
        by_table.setdefault(sp.table, []).append(sp)
    for i in over:
        n, problems = verify(replays[i], status[i]["winners"], by_table.get(i, []))
        actions += n
        if problems:
            failures[i] = problems
    for sp in specs:
        if sp.gaps or sp.errors:
            failures.setdefault(sp.table, []).extend(sp.gaps + [f"spectator error: {e}" for e in sp.errors])
    verify_s = time.monotonic() - t2
    for i, text in warm_replays.items():
        _, problems = verify(text, warm_winners[i], [])
        if problems:
            failures[i] = [f"(a game played for the downloads) {p}" for p in problems]

    lat = [x for sp in specs for _, x in sp.latencies]
    rtt = [x for sp in specs for _, x in sp.rtts]
    result: dict[str, Any] = {
        "database": "postgresql" if args.db else "sqlite",
        "tables": len(ids),
        "tables_over": len(over),
        "seats": sum(3 + k % 4 for k in range(len(ids))),
        "seeded": args.seeded,
        "seed": args.seed,
        "create_seconds": round(created_s, 3),
        "wall_seconds": round(wall, 3),
        "actions": actions,
        "actions_per_second": round(actions / wall, 1) if wall else None,
        "server_cpu_seconds": round(cpu, 2),
        "server_cpu_share": round(cpu / wall, 3) if wall else None,
        "server_peak_rss_mb": round(rss, 1),
        "client_cpu_seconds": round(client_cpu, 2),
        "spectators": len(specs),
        "spectator_messages": sum(sp.states for sp in specs),
        "latency_samples": len(lat),
        "latency_ms": stats(lat),
        "latency_all_states_ms": stats([x for sp in specs for x in sp.all_ms]),
        "join_snapshot_age_ms": stats([sp.join_ms for sp in specs if sp.join_ms is not None]),
        "connect_ms": stats([sp.connect_ms for sp in specs if sp.connect_ms is not None]),
        "ping_rtt_ms": stats(rtt),
        "ping_samples": len(rtt),
        "poll_ms": stats(poll_ms),
        "repeated_version_messages": sum(sp.repeats for sp in specs),
        "largest_message_bytes": max((sp.max_bytes for sp in specs), default=0),
        "replay_export_seconds": round(export_s, 2),
        "verify_seconds": round(verify_s, 2),
        "games_replayed_exactly": len(over) - sum(1 for i in over if i in failures),
        "unfinished": unfinished,
        "measured_for": args.measure_for,
        "strength": args.strength,
        "failures": failures,
        "kills": kills,
    }
    if chaos:
        result["chaos"] = {
            "kills": len(kills),
            "kills_asked": args.kill,
            "restart_seconds": stats([k["restart_seconds"] for k in kills], 2),
            "down_seconds": stats([k["down_seconds"] for k in kills], 2),
            "spectator_reconnects": sum(len(sp.back_ms) for sp in specs),
            "spectator_back_ms": stats([x for sp in specs for x in sp.back_ms]),
        }
    if innocent is not None:
        innocent_p95 = percentile(innocent.rtts, 95)
        result["hostile"] = {
            "innocent_ping_ms": stats(innocent.rtts),
            "innocent_pings": len(innocent.rtts),
            "innocent_errors": innocent.errors[:5],
            "target_met": innocent_p95 is not None and innocent_p95 < TARGET_MS,
            "attacks": report.figures,
            "lines": report.lines,
        }
    if args.replay_clients:
        lo, hi = downloads.began or 0.0, downloads.ended or 0.0
        lat_w = [x for sp in specs for t, x in sp.latencies if lo <= t <= hi]
        rtt_w = [x for sp in specs for t, x in sp.rtts if lo <= t <= hi]
        span = downloads.window()
        result["replay_downloads"] = {
            "clients": args.replay_clients,
            "games_played_first": len(warm),
            "seconds": round(span, 2),
            "downloads": len(downloads.done),
            "per_second": round(len(downloads.done) / span, 1) if span else None,
            "mb_per_second": round(sum(b for _, _, b in downloads.done) / span / 2**20, 2) if span else None,
            "download_ms": stats([ms for _, ms, _ in downloads.done]),
            "errors": len(downloads.errors),
            "first_errors": downloads.errors[:5],
            "ping_rtt_ms": stats(rtt_w),
            "ping_samples": len(rtt_w),
            "latency_ms": stats(lat_w),
            "latency_samples": len(lat_w),
        }
        p_ping, p_lat = percentile(rtt_w, 95), percentile(lat_w, 95)
        result["replay_downloads"]["target_met"] = (
            p_ping is not None and p_lat is not None and p_ping < TARGET_MS and p_lat < TARGET_MS
        )
    return result


def stats(xs: list[float], digits: int = 1) -> dict[str, float | None]:
    """p50, p95 and max, rounded to `digits` decimals."""

    def r(x: float | None) -> float | None:
        return None if x is None else round(x, digits)

    return {"p50": r(percentile(xs, 50)), "p95": r(percentile(xs, 95)), "max": r(max(xs) if xs else None)}


def summary_text(s: dict[str, Any]) -> str:
    """The compact human-readable report."""

    def ms(d: dict[str, float | None], unit: str = "ms") -> str:
        return f"p50 {d['p50']} / p95 {d['p95']} / max {d['max']} {unit}"

    chance = f"seeds {s['seed']}+" if s["seeded"] else "chance from the server"
    out = [
        f"server load ({s['database']}): {s['tables']} bot tables ({s['seats']} seats, {chance}), "
        f"{s['spectators']} spectators",
        f"  tables created in   {s['create_seconds']:.2f} s (POSTs sent at once)",
        f"  all games over in   {s['wall_seconds']:.2f} s wall ({s['tables_over']}/{s['tables']} over)",
        f"  actions served      {s['actions']} = {s['actions_per_second']:.0f} per second",
        f"  server CPU          {s['server_cpu_seconds']:.2f} s = {s['server_cpu_share']:.0%} of one core; "
        f"peak RSS {s['server_peak_rss_mb']:.0f} MB (this client: {s['client_cpu_seconds']:.2f} s CPU)",
        f"  spectator states    {s['spectator_messages']} received, largest message {s['largest_message_bytes']} bytes",
        f"  action->broadcast   {ms(s['latency_ms'])} ({s['latency_samples']} samples)",
        f"  join snapshot age   {ms(s['join_snapshot_age_ms'])}",
        f"  WebSocket connect   {ms(s['connect_ms'])} (dial to first state)",
        f"  ping->pong          {ms(s['ping_rtt_ms'])} ({s['ping_samples']} samples)",
        f"  GET /api/tables     {ms(s['poll_ms'])} (per page)",
        f"  replays             exported in {s['replay_export_seconds']:.2f} s, "
        f"verified in {s['verify_seconds']:.2f} s (client side)",
    ]
    c = s.get("chaos")
    if c:
        at = ", ".join(f"{k['at_seconds']:.1f}" for k in s["kills"])
        out += [
            f"  kills               {c['kills']} of {c['kills_asked']} (SIGKILL at {at} s)",
            f"  restart             {ms(c['restart_seconds'], 's')} (spawn to answering)",
            f"  down                {ms(c['down_seconds'], 's')} (kill to answering)",
            f"  spectators back     {ms(c['spectator_back_ms'])} after a drop "
            f"({c['spectator_reconnects']} reconnections)",
        ]
    d = s.get("replay_downloads")
    if d:
        out += [
            f"  replay downloads    {d['downloads']} by {d['clients']} clients in {d['seconds']:.1f} s = "
            f"{d['per_second']} per second ({d['mb_per_second']} MB/s; each {ms(d['download_ms'])}); "
            f"{d['errors']} failed",
            f"    meanwhile ping    {ms(d['ping_rtt_ms'])} ({d['ping_samples']} samples)",
            f"    action->bcast     {ms(d['latency_ms'])} ({d['latency_samples']} samples)",
            f"    target p95 < {TARGET_MS:.0f} ms for both: {'met' if d['target_met'] else 'NOT MET'}",
        ]
    h = s.get("hostile")
    if h:
        out.append("  attacks meanwhile (each from loopback addresses of its own):")
        out += h["lines"]
        out += [
            f"  innocent client     ping {ms(h['innocent_ping_ms'])} ({h['innocent_pings']} pings from 127.0.0.2)",
            f"    target p95 < {TARGET_MS:.0f} ms: {'met' if h['target_met'] else 'NOT MET'}",
        ]
        if h["innocent_errors"]:
            out.append(f"    innocent client errors: {h['innocent_errors']}")
    if s["unfinished"] and s.get("measured_for"):
        out.append(f"measured for {s['measured_for']:.0f} s: {len(s['unfinished'])} tables still playing (as asked)")
    elif s["unfinished"]:
        out.append(f"NOT FINISHED within the timeout: {len(s['unfinished'])} tables")
        items = [f"#{u['index']} {u['id']} {u['status']} turn {u['turn']}" for u in s["unfinished"]]
        out += ["  " + ", ".join(items[k : k + 4]) for k in range(0, len(items), 4)]
    if s.get("server_errors"):
        out.append("server log errors:")
        out += [f"  {line}" for line in s["server_errors"]]
    exact = f"{s['games_replayed_exactly']}/{s['tables_over']}"
    if s["failures"]:
        out.append(f"EVENTS LOST OR WRONG in {len(s['failures'])} games:")
        out += [f"  {tid}: {p}" for tid, ps in s["failures"].items() for p in ps]
    elif s["unfinished"]:
        out.append(f"no event lost in the finished games: {exact} replay exactly")
    else:
        out.append(f"no event lost: {exact} games replay exactly")
    if c:
        out.append(f"chaos: {c['kills']} kills, {exact} games replay exactly")
    return "\n".join(out)


def report(text: str, result: dict[str, Any], as_json: bool) -> None:
    """The figures for a person on stdout, or with `--json` one JSON object on stdout and the text on stderr."""
    if as_json:
        print(text, file=sys.stderr)
        print(json.dumps(result))
    else:
        print(text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100, help="bot-only tables to create at once (default 100)")
    ap.add_argument("--spectators", type=int, default=20, help="WebSocket spectators (default 20)")
    ap.add_argument(
        "--seeded", action="store_true", help="give table i the seed SEED+i (default: chance from the server)"
    )
    ap.add_argument("--seed", type=int, default=1, help="tables' seeds with --seeded; the kill moments (default 1)")
    ap.add_argument("--kill", type=int, default=0, help="SIGKILL and restart the server N times during the run")
    ap.add_argument(
        "--replay-clients", type=int, default=0, help="N clients download finished games' replays all along"
    )
    ap.add_argument(
        "--replay-tables", type=int, default=4, help="tables played to the end first, for the downloads (default 4)"
    )
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for every game (default 600)")
    ap.add_argument("--db", help="database URL (e.g. postgresql://user@host/db; use an empty one) instead of SQLite")
    ap.add_argument(
        "--server-cmd",
        help="start this instead of `munchkin serve` (it gets --host, --port, --data and --db appended, and the "
        "rate-limit flags if its --help lists them), to compare a patched server",
    )
    ap.add_argument("--keep-log", help="copy the server's log to this file at the end")
    ap.add_argument(
        "--hostile",
        action="store_true",
        help="run the attacks of issue 30 (benchmarks/hostile.py) beside the load, the server's limits in force, "
        "and report an innocent client's ping",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object on stdout (the summary goes to stderr)")
    ap.add_argument(
        "--strength",
        choices=["mixed", "easy", "medium", "hard", "random"],
        default="mixed",
        help="every bot of this tier (default: random and Easy bots mixed); Medium and Hard think in worker processes",
    )
    ap.add_argument(
        "--for",
        dest="measure_for",
        type=float,
        default=0.0,
        help="measure for this many seconds, then stop: games still playing are no failure (Hard games are long)",
    )
    args = ap.parse_args()
    global STRENGTH
    STRENGTH = args.strength
    if args.measure_for > 0:
        args.timeout = args.measure_for
    if args.tables < 1 or args.spectators < 0 or args.kill < 0 or args.replay_clients < 0 or args.replay_tables < 1:
        ap.error("--tables and --replay-tables must be at least 1, the other counts at least 0")

    tmp = Path(tempfile.mkdtemp(prefix="munchkin-load-"))
    port = free_port()
    base = serve_command(args.server_cmd)
    cmd = [*base, "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp / "data")]
    cmd += ["--db", args.db] if args.db else []
    cmd += hostile_mod.server_flags() if args.hostile else no_rate_limits(serve_flags(base))
    server = Server(cmd, tmp / "server.log")
    server.start()
    try:
        result = asyncio.run(run(args, port, server))
    finally:
        server.stop()
        log_text = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
        if args.keep_log:
            shutil.copy(server.log_path, args.keep_log)
        shutil.rmtree(tmp, ignore_errors=True)
    bad = [line for line in log_text.splitlines() if "Traceback" in line or "stopped" in line or "Error" in line]
    result["server_errors"] = bad[:20]
    report(summary_text(result), result, args.json)
    if result["unfinished"] and not args.measure_for:
        return 2
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
