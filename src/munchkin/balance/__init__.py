"""Balance analysis: many seeded bot games read as a report card designers can act on.

`record` reads one game's events into a plain record, `tally` sums records (what workers send
back), `runner` plays seeds in batches on local cores or Ray, `summary` turns a tally into rates
with intervals, `report` writes the folder. `munchkin balance` (cli.py) drives them.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from munchkin.balance.paired import PairedTally
from munchkin.balance.runner import Plan, Runner, Version
from munchkin.balance.tally import Tally
from munchkin.engine.game import Options

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def parse_options(items: list[str]) -> tuple[tuple[str, Any], ...]:
    """`KEY=VALUE` items as Options fields (listen_at_the_door=on, turn_cap=800, ...); ValueError
    naming the item when a key is unknown or a value does not fit."""
    fields = {f.name: f for f in dataclasses.fields(Options)}
    defaults = Options()
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            raise ValueError(f"{item!r}: write an option as KEY=VALUE (e.g. listen_at_the_door=on)")
        if key not in fields:
            raise ValueError(f"{item!r}: unknown option {key!r}; options: {', '.join(sorted(fields))}")
        kind = type(getattr(defaults, key))
        v = value.strip().lower()
        if kind is bool:
            if v not in _TRUE | _FALSE:
                raise ValueError(f"{item!r}: {key} is on or off")
            out[key] = v in _TRUE
        elif kind is int:
            try:
                out[key] = int(v)
            except ValueError:
                raise ValueError(f"{item!r}: {key} is a whole number") from None
            if out[key] < 1:
                raise ValueError(f"{item!r}: {key} must be 1 or more")
        else:
            out[key] = value.strip()
    return tuple(sorted(out.items()))


def play(
    v: Version, plan: Plan, runner: Runner, progress: Callable[[int], None] | None = None
) -> tuple[Tally, dict[str, Any]]:
    """Play a version's games; returns the tally and how the run went (time, where)."""
    t0 = time.perf_counter()
    tally = runner.run(v, plan, progress)
    seconds = time.perf_counter() - t0
    where = f"Ray ({runner.ray})" if runner.ray else f"{runner.cores()} local worker(s)"
    run = {
        "seconds": round(seconds, 3),
        "games": plan.games,
        "games_per_second": round(plan.games / seconds, 3) if seconds else 0.0,
        "where": where,
    }
    return tally, run


def play_pair(
    va: Version, vb: Version, plan: Plan, runner: Runner, progress: Callable[[int], None] | None = None
) -> tuple[Tally, Tally, PairedTally, dict[str, Any]]:
    """Play both versions of a comparison on the same seeds, paired: their tallies, the paired sums,
    and how the run went (time, where; the games are each version's)."""
    t0 = time.perf_counter()
    ta, tb, paired = runner.run_pair(va, vb, plan, progress)
    seconds = time.perf_counter() - t0
    where = f"Ray ({runner.ray})" if runner.ray else f"{runner.cores()} local worker(s)"
    run = {
        "seconds": round(seconds, 3),
        "games": plan.games,
        "games_per_second": round(2 * plan.games / seconds, 3) if seconds else 0.0,
        "where": where,
    }
    return ta, tb, paired, run


def about(v: Version, plan: Plan) -> dict[str, Any]:
    """What summary.json says it measured: the version, the seeds and where the cards came from (the
    rules, engine and card versions, each designer folder's name and hash); never the time or the workers."""
    return {"version": v.describe(), "seed": plan.seed, "games": plan.games, "origin": v.origin}


__all__ = ["Plan", "Runner", "Tally", "Version", "about", "parse_options", "play", "play_pair"]
