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
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
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


def ensure_debian_packages(*packages: str) -> None:
    """Install Debian packages once per machine (under a lock, as pytest-xdist workers race)."""
    present = {"chromium": lambda: Path(CHROMIUM).exists(), "postgresql": lambda: _pg_bindir() is not None}
    missing = [p for p in packages if not present[p]()]
    if not missing:
        return
    sudo: list[str] = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and shutil.which("sudo") is None:
        need = " ".join(missing)
        raise RuntimeError(f"the tests need Debian packages: run apt-get install {need}")
    with open("/tmp/munchkin-test-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        missing = [p for p in packages if not present[p]()]
        if not missing:
            return
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        cmd = [*sudo, "apt-get", "install", "-y", "-q", "--no-install-recommends", *missing]
        if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
            subprocess.run([*sudo, "apt-get", "update", "-q"], env=env, capture_output=True, check=True)
            done = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"apt-get install {' '.join(missing)} failed:\n{done.stderr[-2000:]}")


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
    try:
        subprocess.run(
            [*as_pg, f"{bindir}/initdb", "-D", str(data), "-A", "trust", "-U", "munchkin", "--no-sync"],
            check=True,
            capture_output=True,
        )
        opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1"
        subprocess.run(
            [*as_pg, f"{bindir}/pg_ctl", "-D", str(data), "-l", str(log), "-o", opts, "-w", "start"],
            check=True,
            capture_output=True,
        )
        url = f"postgresql+psycopg://munchkin@127.0.0.1:{port}/postgres"
        yield url
    finally:
        subprocess.run(
            [*as_pg, f"{bindir}/pg_ctl", "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


def new_database(url: str, name: str) -> str:
    """A fresh database on the server at `url`; returns its URL."""
    from sqlalchemy import create_engine, text

    eng = create_engine(url, isolation_level="AUTOCOMMIT")
    with eng.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    eng.dispose()
    return url.rsplit("/", 1)[0] + "/" + name
