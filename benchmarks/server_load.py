"""Load on the table server over loopback: many bot-only tables playing flat out, a few
WebSocket spectators, then every game replayed to prove no event was lost.

Starts `munchkin serve` as a subprocess (SQLite in a fresh temp dir, or `--db URL`), creates
the tables at once, watches some of them from this (separate) process, polls until every game
is over, and reports actions served per second, action-to-broadcast latency and server CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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

import httpx
import websockets

from munchkin.engine.game import Game
from munchkin.engine.view import narrate

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
POLL_SECONDS = 0.25
PING_SECONDS = 0.25  # each spectator's ping, well under the server's 10 messages a second


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


def start_server(
    port: int, data_dir: Path, db: str | None, log_path: Path, server_cmd: str | None = None
) -> subprocess.Popen[bytes]:
    """`munchkin serve` (or `server_cmd`) on loopback, its output going to `log_path`."""
    base = shlex.split(server_cmd) if server_cmd else [*munchkin_command(), "serve"]
    cmd = [*base, "--host", "127.0.0.1", "--port", str(port), "--data", str(data_dir)]
    if db:
        cmd += ["--db", db]
    with log_path.open("wb") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Terminate, then kill if it has not gone within 10 seconds."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, from /proc/PID/stat (0.0 where /proc is missing)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()  # fields from 3 (state) on; utime is 14, stime 15
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM) in MB, 0.0 if unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def wait_ready(http: httpx.AsyncClient, proc: subprocess.Popen[bytes], log_path: Path, timeout: float) -> None:
    """Poll GET /api/sets until it answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}:\n{log_path.read_text()[-2000:]}")
        try:
            if (await http.get("/api/sets")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit(f"the server did not answer within {timeout:.0f} s:\n{log_path.read_text()[-2000:]}")


class Http1:
    """A minimal HTTP/1.1 keep-alive connection (JSON in and out) for the burst of POSTs.
    httpx's pool spends about 20 ms of client CPU per request with 100 requests in flight,
    which would spread the burst over seconds; this costs next to nothing."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int) -> Http1:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send one request and read its answer: (status, decoded JSON body)."""
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: loopback\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        fields = dict(line.split(":", 1) for line in lines[1:] if ":" in line)
        length = int(next((v for k, v in fields.items() if k.lower() == "content-length"), "0"))
        return status, json.loads(await self.reader.readexactly(length)) if length else None

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


def table_spec(i: int, seed: int) -> dict[str, Any]:
    """Table i: 3 to 6 bot seats (cycling), random and heuristic bots mixed, seed `seed + i`."""
    n = 3 + i % 4
    seats = [{"name": NAMES[s], "kind": "bot", "strength": "random" if (i + s) % 2 else "heuristic"} for s in range(n)]
    return {"name": f"load {i:03d}", "sets": ["deluxe"], "seats": seats, "bot_delay": 0, "seed": seed + i}


async def create_tables(conns: list[Http1], seed: int, on_created: Callable[[int, str], None]) -> list[str]:
    """POST table i on connection i, all at once; `on_created(i, id)` as each answers; the ids in order."""

    async def one(i: int) -> str:
        status, body = await conns[i].request("POST", "/api/tables", table_spec(i, seed))
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
    and pings the server every PING_SECONDS until cancelled (the game being over or not)."""

    table: str
    lines: list[str] = field(default_factory=list)
    states: int = 0
    latencies_ms: list[float] = field(default_factory=list)  # state messages carrying a new version
    all_ms: list[float] = field(default_factory=list)  # every state message, snapshots and repeats too
    join_ms: float | None = None  # age of the snapshot sent on joining (its `at` predates the join)
    connect_ms: float | None = None  # from dialling to the first state message
    repeats: int = 0  # state messages whose version did not move (seat or window changes)
    pings: deque[float] = field(default_factory=deque)
    rtt_ms: list[float] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    max_bytes: int = 0
    version: int = -1
    over: bool = False
    winners: list[int] = field(default_factory=list)

    async def watch(self, url: str) -> None:
        """Read messages until the task is cancelled."""
        dialled = time.time()
        try:
            async with websockets.connect(url, max_size=2**24, open_timeout=60) as ws:
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
            self.errors.append(f"{type(exc).__name__}: {exc}")

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
                self.rtt_ms.append((received - self.pings.popleft()) * 1000.0)
            return
        if kind == "error":
            self.errors.append(str(msg.get("error")))
            return
        if kind != "state":
            return
        self.states += 1
        latency = (received - float(msg["at"])) * 1000.0
        self.all_ms.append(latency)
        if self.states == 1:
            self.join_ms = latency
        elif msg["version"] > self.version:
            self.latencies_ms.append(latency)
        else:
            self.repeats += 1
        self.version = max(self.version, msg["version"])
        if msg["log_start"] != len(self.lines):
            self.gaps.append(f"state v{msg['version']}: log_start {msg['log_start']}, held {len(self.lines)} lines")
        self.lines.extend(msg["log"])
        view = msg["view"]
        if view["over"]:
            self.over = True
            self.winners = list(view["winners"])


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
    winners with the API's and each spectator's narration with the replayed game's. Returns
    (stored actions, problems)."""
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
            elif sp.lines != full:
                n = next((i for i, (a, b) in enumerate(zip(sp.lines, full)) if a != b), min(len(sp.lines), len(full)))
                problems.append(f"a spectator's narration differs from the replay at line {n}")
            if sp.over and sp.winners != list(g.winners):
                problems.append(f"a spectator saw winners {sp.winners}, the replay has {list(g.winners)}")
    return actions, problems


# ---------------------------------------------------------------------- the run
async def run(args: argparse.Namespace, port: int, proc: subprocess.Popen[bytes], log_path: Path) -> dict[str, Any]:
    """Create, watch, poll, fetch replays; the server is stopped by the caller."""
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        await wait_ready(http, proc, log_path, 60)
        # one connection per table, opened (and accepted) before the burst: under load the server
        # accepts only one new connection per event-loop iteration (libuv), which would spread it out
        conns = list(await asyncio.gather(*(Http1.open("127.0.0.1", port) for _ in range(args.tables))))
        await asyncio.gather(*(c.request("GET", "/api/sets") for c in conns))
        before = (await http.get("/api/tables")).json()
        if before:
            print(f"warning: the database already holds {len(before)} tables; they run too", file=sys.stderr)
        cpu0, client0 = cpu_seconds(proc.pid), time.process_time()
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
                sp = Spectator(tid)
                specs.append(sp)
                tasks.append(asyncio.create_task(sp.watch(f"{ws_base}/ws/{tid}")))

        ids = await create_tables(conns, args.seed, spectate)
        for c in conns:
            await c.close()
        created_s = time.monotonic() - t0
        wanted = set(ids)
        status: dict[str, dict[str, Any]] = {}
        poll_ms: list[float] = []
        deadline = t0 + args.timeout
        next_note = time.monotonic() + 10
        while True:
            asked = time.monotonic()
            summaries = (await http.get("/api/tables")).json()
            poll_ms.append((time.monotonic() - asked) * 1000.0)
            status = {t["id"]: t for t in summaries if t["id"] in wanted}
            done = sum(1 for t in status.values() if t["status"] in ("over", "stopped"))
            if done == len(wanted) or time.monotonic() >= deadline:
                break
            if time.monotonic() >= next_note:
                print(f"  {time.monotonic() - t0:6.1f} s: {done}/{len(wanted)} games over", file=sys.stderr)
                next_note += 10
            await asyncio.sleep(POLL_SECONDS)
        wall = time.monotonic() - t0
        cpu, client_cpu = cpu_seconds(proc.pid) - cpu0, time.process_time() - client0
        rss = peak_rss_mb(proc.pid)
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

    lat = [x for sp in specs for x in sp.latencies_ms]
    rtt = [x for sp in specs for x in sp.rtt_ms]
    return {
        "database": "postgresql" if args.db else "sqlite",
        "tables": len(ids),
        "tables_over": len(over),
        "seats": sum(3 + k % 4 for k in range(len(ids))),
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
        "failures": failures,
    }


def stats(xs: list[float]) -> dict[str, float | None]:
    """p50, p95 and max, rounded to 0.1."""
    return {"p50": _r(percentile(xs, 50)), "p95": _r(percentile(xs, 95)), "max": _r(max(xs) if xs else None)}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def summary_text(s: dict[str, Any]) -> str:
    """The compact human-readable report."""

    def ms(d: dict[str, float | None]) -> str:
        return f"p50 {d['p50']} / p95 {d['p95']} / max {d['max']} ms"

    out = [
        f"server load ({s['database']}): {s['tables']} bot tables ({s['seats']} seats, seeds {s['seed']}+), "
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
        f"  GET /api/tables     {ms(s['poll_ms'])}",
        f"  replays             exported in {s['replay_export_seconds']:.2f} s, "
        f"verified in {s['verify_seconds']:.2f} s (client side)",
    ]
    if s["unfinished"]:
        out.append(f"NOT FINISHED within the timeout: {len(s['unfinished'])} tables")
        items = [f"#{u['index']} {u['id']} {u['status']} turn {u['turn']}" for u in s["unfinished"]]
        out += ["  " + ", ".join(items[k : k + 4]) for k in range(0, len(items), 4)]
    if s.get("server_errors"):
        out.append("server log errors:")
        out += [f"  {line}" for line in s["server_errors"]]
    if s["failures"]:
        out.append(f"EVENTS LOST OR WRONG in {len(s['failures'])} games:")
        out += [f"  {tid}: {p}" for tid, ps in s["failures"].items() for p in ps]
    elif s["unfinished"]:
        n, over = s["games_replayed_exactly"], s["tables_over"]
        out.append(f"no event lost in the finished games: {n}/{over} replay exactly")
    else:
        out.append(f"no event lost: {s['games_replayed_exactly']}/{s['tables_over']} games replay exactly")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100, help="bot-only tables to create at once (default 100)")
    ap.add_argument("--spectators", type=int, default=20, help="WebSocket spectators (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="table i plays seed SEED+i (default 1)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for every game (default 600)")
    ap.add_argument("--db", help="database URL (e.g. postgresql://user@host/db; use an empty one) instead of SQLite")
    ap.add_argument(
        "--server-cmd",
        help="start this instead of `munchkin serve` (it gets --host, --port, --data and --db appended), "
        "to compare a patched server",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object on stdout (the summary goes to stderr)")
    args = ap.parse_args()
    if args.tables < 1 or args.spectators < 0:
        ap.error("--tables must be at least 1 and --spectators at least 0")

    tmp = Path(tempfile.mkdtemp(prefix="munchkin-load-"))
    log_path = tmp / "server.log"
    port = free_port()
    proc = start_server(port, tmp / "data", args.db, log_path, args.server_cmd)
    try:
        result = asyncio.run(run(args, port, proc, log_path))
    finally:
        stop_server(proc)
        log_text = log_path.read_text(errors="replace") if log_path.exists() else ""
        shutil.rmtree(tmp, ignore_errors=True)
    bad = [line for line in log_text.splitlines() if "Traceback" in line or "stopped" in line or "Error" in line]
    result["server_errors"] = bad[:20]
    text = summary_text(result)
    if args.json:
        print(text, file=sys.stderr)
        print(json.dumps(result))
    else:
        print(text)
    if result["unfinished"]:
        return 2
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
