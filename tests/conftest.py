"""The order of the tests, and batch-wide checks of the game suite (tests/test_games.py), also
under pytest-xdist.

Each chunk of games records its games and capped seeds as a `game_batch` user property; the
reports reach the controlling process, which adds them up per batch (agent) and fails the
session when 1% or more of a batch's games were stopped by the turn cap.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

CAP_SHARE = 0.01
_batches: dict[str, dict[str, Any]] = {}


# The suites whose tests run longest run first, so that under pytest-xdist (`--dist worksteal`,
# pyproject.toml) the last tests are short ones and neither worker waits long for the other.
LONG_FIRST = (
    "test_e2e_",
    "test_server_restart",
    "test_games",
    "test_view",
    "test_clone",
    "test_properties",
    "test_determinize",
    "test_golden",
    "test_server_leaks",
    "test_menu",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, p in enumerate(LONG_FIRST) if item.path.name.startswith(p)), len(LONG_FIRST))

    items.sort(key=rank)  # a stable sort: each module's tests stay together, in their order


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "game_batch":
            b = _batches.setdefault(value["batch"], {"games": 0, "capped": [], "seconds": 0.0})
            b["games"] += value["games"]
            b["capped"] += value["capped"]
            b["seconds"] += value["seconds"]


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


# A test past pyproject's `timeout` fails with its stack (pytest-timeout's signal method), and the run goes
# on. Should the signal never reach the test (a thread stuck inside C code), this backstop ends the
# process BACKSTOP_GRACE seconds later with every thread's stack, written where the controlling process
# prints it at the end of the run (pytest-xdist shows a worker's own output nowhere).
BACKSTOP_GRACE = 120.0
_HUNG_DIR = "MUNCHKIN_TESTS_HUNG_DIR"


def pytest_configure(config: pytest.Config) -> None:
    if not _is_worker(config) and _HUNG_DIR not in os.environ:  # the workers inherit it
        os.environ[_HUNG_DIR] = tempfile.mkdtemp(prefix="munchkin-tests-hung-")


def pytest_unconfigure(config: pytest.Config) -> None:
    where = os.environ.get(_HUNG_DIR)
    if not _is_worker(config) and where:
        shutil.rmtree(where, ignore_errors=True)


@pytest.fixture(autouse=True)
def _hang_backstop(request: pytest.FixtureRequest) -> Iterator[None]:
    timeout = float(request.config.getini("timeout") or 0)
    where = os.environ.get(_HUNG_DIR)
    if timeout <= 0 or where is None:
        yield
        return
    path = Path(where) / f"{os.getpid()}.txt"
    out: IO[str] = path.open("w", encoding="utf-8")
    out.write(f"{request.node.nodeid} ran past {timeout + BACKSTOP_GRACE:.0f} s; every thread's stack:\n")
    out.flush()
    faulthandler.dump_traceback_later(timeout + BACKSTOP_GRACE, exit=True, file=out)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        out.close()
        path.unlink(missing_ok=True)


SESSION_APT_SECONDS = 1200.0  # a fresh machine's download of chromium and postgresql, before any test runs


def pytest_sessionstart(session: pytest.Session) -> None:
    """Install Debian's chromium and postgresql when missing, once, before any test starts (the browser,
    balance-report and PostgreSQL tests need them), so that a fresh machine's downloads count against no
    test's own timeout. Where they cannot be installed, the tests that need them say so."""
    if _is_worker(session.config):
        return
    from system import ensure_debian_packages

    try:
        ensure_debian_packages("chromium", "postgresql", seconds=SESSION_APT_SECONDS)
    except RuntimeError as exc:
        print(f"\nnote: {exc}")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if _is_worker(config):
        return
    where = os.environ.get(_HUNG_DIR)
    for dump in sorted(Path(where).glob("*.txt")) if where else ():
        terminalreporter.section("a test that hung, ended by the backstop", red=True)
        terminalreporter.write(dump.read_text(encoding="utf-8", errors="replace"))
    for agent, b in sorted(_batches.items()):  # none when the game suite did not run
        capped = sorted(b["capped"])
        terminalreporter.write_line(
            f"game suite, {agent} agents: {b['games']} games in {b['seconds']:.1f} s of play, "
            f"{len(capped)} capped{' (seeds ' + ', '.join(map(str, capped)) + ')' if capped else ''}"
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _is_worker(session.config):
        return
    for agent, b in sorted(_batches.items()):
        if b["games"] and len(b["capped"]) >= CAP_SHARE * b["games"]:
            print(
                f"\nFAILED game suite: {len(b['capped'])} of {b['games']} {agent}-agent games were capped "
                f"(must be fewer than {CAP_SHARE:.0%}): seeds {sorted(b['capped'])}"
            )
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
