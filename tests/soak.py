"""`MUNCHKIN_SOAK=N`, for a soak by hand: the seeded batches of the slow suites are sized to keep
CI within its time limit, and N makes each of them N times larger (`benchmarks/game_soak.py`)."""

from __future__ import annotations

import os

SOAK = max(1, int(os.environ.get("MUNCHKIN_SOAK", "1") or 1))
