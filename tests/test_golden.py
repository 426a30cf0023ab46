"""The engine plays every recorded golden game exactly as the engine it was recorded with did:
the same legal actions offered at each decision, every recorded text still legal, and the same
final state. CI plays one game in ten of each batch (seeds 10, 20, ... 300);
`benchmarks/golden_games.py` plays all 2,100."""

from __future__ import annotations

import pytest

from golden import BATCHES, check_game, games

SHARE = 10  # CI plays the games whose seed is a multiple of this


@pytest.mark.parametrize("batch", list(BATCHES))
def test_golden_games_play_as_recorded(batch: str) -> None:
    played, problems = 0, []
    for rec in games(lambda b, seed: b == batch and seed % SHARE == 0):
        played += 1
        problems += check_game(rec)
    assert played == 300 // SHARE, f"{batch}: {played} golden games found in the file"
    assert not problems, "\n".join(problems[:10])
