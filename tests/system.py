"""The test set-up's system parts: Debian's chromium and postgresql, installed when missing,
and a throwaway PostgreSQL server for the persistence tests."""

from __future__ import annotations

import fcntl
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from waits import PATIENCE

CHROMIUM = "/usr/bin/chromium"
# the whole of an install (waiting for another test process's, apt-get update, apt-get install): a fresh
# machine's downloads fit, and it fails with its own message before the per-test timeout (600 s, pyproject.toml)
APT_SECONDS = 480.0
PG_SECONDS = PATIENCE  # initdb, and PostgreSQL's start and stop, each (pg_ctl's own default wait is 60 s)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _pg_bindir() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return str(Path(found[-1]).parent) if found else None


def ensure_debian_packages(*packages: str, seconds: float = APT_SECONDS) -> None:
    """Install Debian packages once per machine (under a lock, as pytest-xdist workers race), within `seconds`."""
    present = {"chromium": lambda: Path(CHROMIUM).exists(), "postgresql": lambda: _pg_bindir() is not None}
    missing = [p for p in packages if not present[p]()]
    if not missing:
        return
    sudo: list[str] = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and shutil.which("sudo") is None:
        need = " ".join(missing)
        raise RuntimeError(f"the tests need Debian packages: run apt-get install {need}")
    give_up = time.monotonic() + seconds
    with open("/tmp/munchkin-test-apt.lock", "w") as lock:
        while True:  # another test process may be installing them: wait for it, within the same bound
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > give_up:
                    raise RuntimeError(
                        f"another test process held the install lock (/tmp/munchkin-test-apt.lock) for "
                        f"{seconds:.0f} s: install {' '.join(missing)} by hand (apt-get install)"
                    ) from None
                time.sleep(0.5)
        missing = [p for p in packages if not present[p]()]
        if not missing:
            return
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        cmd = [*sudo, "apt-get", "install", "-y", "-q", "--no-install-recommends", *missing]
        if _apt(cmd, env, give_up).returncode != 0:
            update = _apt([*sudo, "apt-get", "update", "-q"], env, give_up)
            if update.returncode != 0:
                raise RuntimeError(f"apt-get update failed:\n{update.stderr[-2000:]}")
            done = _apt(cmd, env, give_up)
            if done.returncode != 0:
                raise RuntimeError(f"apt-get install {' '.join(missing)} failed:\n{done.stderr[-2000:]}")


def _apt(cmd: list[str], env: dict[str, str], give_up: float) -> subprocess.CompletedProcess[str]:
    """Run an apt-get command within what is left of the install's time; a clear error past it."""
    left = give_up - time.monotonic()
    try:
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=max(1.0, left))
    except subprocess.TimeoutExpired as exc:
        out = exc.stderr or exc.stdout or ""
        said = (out.decode(errors="replace") if isinstance(out, bytes) else out)[-2000:]
        raise RuntimeError(
            f"{' '.join(cmd)} did not finish within the time left for the install "
            f"(a slow mirror? install the packages by hand):\n{said}"
        ) from None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server of its own on a free loopback port; yields its SQLAlchemy URL."""
    ensure_debian_packages("postgresql")
    bindir = _pg_bindir()
    assert bindir is not None
    as_pg: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    root = Path(tempfile.mkdtemp(prefix="munchkin-pg-"))
    data = root / "data"
    if as_pg:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    log = root / "server.log"
    wait = ["-w", "-t", str(int(PG_SECONDS))]  # pg_ctl waits for the server to start or stop, this long
    try:
        _pg("initdb", [*as_pg, f"{bindir}/initdb", "-D", str(data), "-A", "trust", "-U", "munchkin", "--no-sync"], log)
        opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1"
        _pg(
            "pg_ctl start",
            [*as_pg, f"{bindir}/pg_ctl", "-D", str(data), "-l", str(log), "-o", opts, *wait, "start"],
            log,
        )
        url = f"postgresql+psycopg://munchkin@127.0.0.1:{port}/postgres"
        yield url
    finally:
        # pg_ctl stop waits (-w) until the server has gone, so that its files can be removed
        with suppress(subprocess.TimeoutExpired):
            subprocess.run(
                [*as_pg, f"{bindir}/pg_ctl", "-D", str(data), "-m", "immediate", *wait, "stop"],
                capture_output=True,
                timeout=PG_SECONDS + 30,
            )
        shutil.rmtree(root, ignore_errors=True)


def _pg(what: str, cmd: list[str], log: Path) -> None:
    """Run a PostgreSQL command (initdb, pg_ctl start) within PG_SECONDS; a clear error if it fails or hangs."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=PG_SECONDS + 30)
    except subprocess.TimeoutExpired:
        done = None
    if done is None or done.returncode != 0:
        server_log = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        said = "" if done is None else (done.stderr or done.stdout)[-2000:]
        why = f"did not finish within {PG_SECONDS + 30:.0f} s" if done is None else f"failed ({done.returncode})"
        raise RuntimeError(f"PostgreSQL for the tests: {what} {why}:\n{said}\n{server_log}")


def new_database(url: str, name: str) -> str:
    """A fresh database on the server at `url`; returns its URL."""
    from sqlalchemy import create_engine, text

    eng = create_engine(url, isolation_level="AUTOCOMMIT")
    with eng.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    eng.dispose()
    return url.rsplit("/", 1)[0] + "/" + name
