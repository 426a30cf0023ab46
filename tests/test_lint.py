"""The code stays as the developers' guide asks: `ruff` clean (lint and format) over the sources and
the tests, and `mypy` clean over `src/`. Run in CI by the README's test command, so a change that
breaks either fails CI like any other test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_lint_is_clean() -> None:
    r = _run("ruff", "check", "src", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format_is_clean() -> None:
    r = _run("ruff", "format", "--check", "src", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_is_clean_on_src(tmp_path: Path) -> None:
    r = _run("mypy", "--cache-dir", str(tmp_path / "mypy-cache"), "src")
    assert r.returncode == 0 and "Success" in r.stdout, r.stdout + r.stderr
