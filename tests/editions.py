"""Which edition a seeded test game plays: a seventh Deluxe, the rest the other editions alone
or shuffled together with Deluxe (shared by the replay and view suites)."""

from __future__ import annotations

EDITIONS = {
    1: ["star"],
    3: ["star", "deluxe"],
    2: ["good-bad"],
    5: ["good-bad", "deluxe"],
    4: ["harry-potter"],
    6: ["harry-potter", "deluxe"],
}


def sets_for(seed: int) -> list[str]:
    """The sets of the game played from this seed."""
    return EDITIONS.get(seed % 7, ["deluxe"])
