"""What a pile of abandoned tables costs the table server at start-up, and what expiry saves.

Measures the server process's memory (peak and current RSS, from /proc) and its start-up time
(spawn to the first good GET /api/sets) on an empty database, on one holding N unfinished tables
nobody joined restarted with expiry set so that they have expired, and on the same tables with
expiry off, so that every one is loaded. All on loopback, SQLite in a fresh temp dir.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from server_load import Http1, free_port, list_tables, no_rate_limits, report, rss_mb, serve_command, serve_flags

NEVER = ["--expire-unjoined", "1000000000", "--expire-idle", "1000000000"]  # minutes and hours: expiry off
SETTLE_SECONDS = 1.0  # after the first answer, before the current RSS is read (late imports, first requests)


@dataclass
class Start:
    """One start of the server: how long until it answered, its memory, the tables it lists."""

    seconds: float
    peak_mb: float
    current_mb: float
    tables: int


def spawn(cmd: list[str], data: Path, port: int, flags: list[str], log: Path) -> subprocess.Popen[bytes]:
    """The server on loopback over the SQLite database in `data`, output appended to `log`."""
    full = [*cmd, "--host", "127.0.0.1", "--port", str(port), "--data", str(data), *flags]
    with log.open("ab") as out:
        return subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (a clean shutdown, so SQLite folds its journal in), then SIGKILL after 20 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


async def answered(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> float:
    """Seconds from now until GET /api/sets answers 200 (polled every 10 ms)."""
    t0 = time.monotonic()
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
        while time.monotonic() - t0 < timeout:
            if proc.poll() is not None:
                raise SystemExit(f"the server exited with {proc.returncode}:\n{log.read_text()[-2000:]}")
            try:
                if (await http.get("/api/sets")).status_code == 200:
                    return time.monotonic() - t0
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.01)
    raise SystemExit(f"the server did not answer within {timeout:.0f} s:\n{log.read_text()[-2000:]}")


async def measure(cmd: list[str], data: Path, flags: list[str], log: Path) -> Start:
    """Start the server over `data`, time its first answer, read its memory, count its tables, stop it."""
    port = free_port()
    proc = spawn(cmd, data, port, flags, log)
    try:
        seconds = await answered(port, proc, log, 300)
        await asyncio.sleep(SETTLE_SECONDS)
        peak, current = rss_mb(proc.pid, "VmHWM"), rss_mb(proc.pid, "VmRSS")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            tables = len(await list_tables(http))
        return Start(seconds, peak, current, tables)
    finally:
        stop(proc)


async def populate(cmd: list[str], data: Path, flags: list[str], log: Path, n: int, conns: int) -> float:
    """Create n tables of three person seats through the API (nobody joins them); seconds it took."""
    port = free_port()
    proc = spawn(cmd, data, port, flags, log)
    try:
        await answered(port, proc, log, 300)
        links = [await Http1.open("127.0.0.1", port) for _ in range(conns)]
        seats = [{"name": name, "kind": "human"} for name in ("Ann", "Bob", "Cid")]
        t0 = time.monotonic()

        async def worker(k: int) -> None:
            for i in range(k, n, conns):
                spec = {"name": f"abandoned {i:04d}", "sets": ["deluxe"], "seats": seats}
                status, body = await links[k].request("POST", "/api/tables", spec)
                if status != 201:
                    raise SystemExit(f"POST /api/tables for table {i} answered {status}: {body}")

        await asyncio.gather(*(worker(k) for k in range(conns)))
        took = time.monotonic() - t0
        for c in links:
            await c.close()
        return took
    finally:
        stop(proc)


def median_start(starts: list[Start]) -> dict[str, Any]:
    """Medians over the repeated starts (the table count must be the same in each)."""
    return {
        "startup_seconds": round(statistics.median(s.seconds for s in starts), 3),
        "peak_rss_mb": round(statistics.median(s.peak_mb for s in starts), 1),
        "current_rss_mb": round(statistics.median(s.current_mb for s in starts), 1),
        "tables_listed": sorted({s.tables for s in starts}),
        "runs": [{"seconds": round(s.seconds, 3), "peak_mb": round(s.peak_mb, 1)} for s in starts],
    }


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Populate one database, then start the server over fresh copies of it (and of an empty one)."""
    base = serve_command(args.server_cmd)
    offered = serve_flags(base)
    missing = [f for f in ("--expire-unjoined", "--expire-idle") if f not in offered]
    if missing:
        raise SystemExit(f"this server has no {' or '.join(missing)}: expiry cannot be measured")
    common = no_rate_limits(offered)
    if "--max-live-tables" in offered:
        common += ["--max-live-tables", str(args.tables + 100)]
    log = tmp / "server.log"
    seeded = tmp / "abandoned"
    took = await populate(base, seeded, [*common, *NEVER], log, args.tables, args.connections)
    print(f"  {args.tables} tables created in {took:.1f} s", file=sys.stderr)
    expire = ["--expire-unjoined", str(args.expire_minutes), "--expire-idle", str(args.expire_minutes / 60)]
    cases = [
        ("empty database", None, [*common, *NEVER]),
        (f"{args.tables} unjoined, expired", seeded, [*common, *expire]),
        (f"{args.tables} unjoined, expiry off", seeded, [*common, *NEVER]),
    ]
    out: dict[str, Any] = {"tables": args.tables, "create_seconds": round(took, 2), "repeat": args.repeat, "cases": []}
    if args.expire_minutes * 60 > 0.5:  # the tables must be older than the limit when the server starts
        await asyncio.sleep(args.expire_minutes * 60)
    starts: dict[str, list[Start]] = {name: [] for name, _, _ in cases}
    for r in range(args.repeat):  # interleaved, so that a busy moment on the machine hits every case alike
        for name, source, flags in cases:
            data = tmp / f"run-{r}-{cases.index((name, source, flags))}"
            if source is not None:
                shutil.copytree(source, data)
            starts[name].append(await measure(base, data, flags, log))
            shutil.rmtree(data, ignore_errors=True)
    for name, _, flags in cases:
        out["cases"].append({"case": name, "flags": flags, **median_start(starts[name])})
    text = log.read_text(errors="replace")
    out["server_errors"] = [line for line in text.splitlines() if "Traceback" in line or "Error" in line][:20]
    out["server_log_expiry"] = [line for line in text.splitlines() if "expired tables" in line][:5]
    return out


def summary_text(s: dict[str, Any]) -> str:
    """The small table."""
    out = [
        f"server start-up and memory (sqlite; medians of {s['repeat']} starts; "
        f"{s['tables']} tables of three person seats created in {s['create_seconds']:.1f} s)",
        f"  {'database':<34} {'start-up':>9} {'peak RSS':>9} {'RSS':>8} {'tables':>7}",
    ]
    for c in s["cases"]:
        listed = "/".join(str(n) for n in c["tables_listed"])
        out.append(
            f"  {c['case']:<34} {c['startup_seconds']:>7.2f} s {c['peak_rss_mb']:>6.0f} MB "
            f"{c['current_rss_mb']:>5.0f} MB {listed:>7}"
        )
    out += [f"  server log: {line}" for line in s["server_log_expiry"][:1]]
    if s["server_errors"]:
        out.append("server log errors:")
        out += [f"  {line}" for line in s["server_errors"]]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=1000, help="unfinished tables nobody joins (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="starts of each case; medians are shown (default 3)")
    ap.add_argument("--connections", type=int, default=8, help="HTTP connections creating the tables (default 8)")
    ap.add_argument(
        "--expire-minutes",
        type=float,
        default=0.001,
        help="--expire-unjoined for the expired case (default 0.001 minutes; --expire-idle the same time)",
    )
    ap.add_argument("--server-cmd", help="start this instead of `munchkin serve` (flags appended)")
    ap.add_argument("--json", action="store_true", help="print one JSON object on stdout (the table goes to stderr)")
    args = ap.parse_args()
    if args.tables < 1 or args.repeat < 1 or args.connections < 1 or args.expire_minutes <= 0:
        ap.error("--tables, --repeat and --connections must be at least 1, --expire-minutes above 0")
    tmp = Path(tempfile.mkdtemp(prefix="munchkin-expiry-"))
    try:
        result = asyncio.run(run(args, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report(summary_text(result), result, args.json)
    counts = {c["case"]: c["tables_listed"] for c in result["cases"]}
    expired_ok = counts[result["cases"][1]["case"]] == [0]
    loaded_ok = counts[result["cases"][2]["case"]] == [args.tables]
    if not (expired_ok and loaded_ok):
        print(f"unexpected table counts: {counts}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
