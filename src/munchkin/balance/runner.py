"""Plays a balance run's games in batches: in this process, on every local core, or on a Ray cluster.

Seeds are split into batches; each batch is played and folded into a `Tally` where it runs, and
only the tallies come back, so memory does not grow with the number of games. Tallies add up
exactly, so the merged result does not depend on how the seeds were split or where they ran.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from munchkin.balance.paired import PairedTally
from munchkin.balance.record import GameRecord, record_game
from munchkin.balance.tally import Tally
from munchkin.engine.game import TURN_CAP, Options

DEFAULT_TURN_CAP = TURN_CAP  # the engine's, as everywhere
# batches per worker when the size is chosen: small batches at the end keep every worker busy to the
# last game (8 a worker left one idle for a tenth of a 300-game run on 2 cores); 50 games at most
BATCHES_PER_WORKER = 32


@dataclass(frozen=True)
class Version:
    """What is played: the sets (with any designer's set folders, shipped as their files), the
    seats' agents and the optional rules. A comparison plays two versions on the same seeds."""

    sets: tuple[str, ...]
    players: int
    agents: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()  # Options fields that differ from the defaults
    set_files: tuple[tuple[tuple[str, str], ...], ...] = ()  # each designer folder: (file name, text) pairs
    label: str = ""
    # where the cards come from (munchkin.origin.report_origin): rules, engine, card versions, folders
    origin: dict[str, Any] = field(default_factory=dict, compare=False)

    def game_options(self) -> Options:
        values = {"turn_cap": DEFAULT_TURN_CAP, **dict(self.options)}
        return Options(**values)

    def describe(self) -> dict[str, Any]:
        """The version as the report names it."""
        return {
            "label": self.label,
            "sets": list(self.sets),
            "players": self.players,
            "agents": list(self.agents),
            "options": {k: v for k, v in asdict(self.game_options()).items()},
            "designer_sets": len(self.set_files),
        }


@dataclass
class Plan:
    """Which seeds to play and how to split them."""

    seed: int
    games: int
    batch: int = 0  # games per batch; 0 chooses from the games and workers

    def batches(self, workers: int) -> list[tuple[int, int]]:
        """(first seed, count) of each batch: small enough to keep every worker busy to the end
        and the progress bar moving, large enough that a batch's overhead does not count."""
        size = self.batch or max(1, min(50, self.games // max(1, workers * BATCHES_PER_WORKER)))
        return [(self.seed + i, min(size, self.games - i)) for i in range(0, self.games, size)]


_loaded: tuple[Any, ...] = ()  # the designer folders this process has registered (none at first)


def use_sets(v: Version) -> None:
    """Register the version's designer folders in this process (once per distinct set of folders)."""
    global _loaded
    if _loaded == v.set_files:
        return
    from munchkin.cards.loader import add_set_files, clear_set_dirs

    clear_set_dirs()
    for files in v.set_files:
        add_set_files(dict(files))
    _loaded = v.set_files


def play_batch(v: Version, first: int, count: int) -> Tally:
    """Play seeds first .. first+count-1 of a version and return their tally."""
    from munchkin.simulate import run_game

    use_sets(v)
    t = Tally(v.players)
    opts = v.game_options()
    for seed in range(first, first + count):
        g = run_game(list(v.sets), v.players, seed, list(v.agents), opts)
        t.add_game(record_game(g))
    return t


def _records(v: Version, first: int, count: int) -> list[GameRecord]:
    from munchkin.simulate import run_game

    use_sets(v)
    opts = v.game_options()
    seeds = range(first, first + count)
    return [record_game(run_game(list(v.sets), v.players, s, list(v.agents), opts)) for s in seeds]


def play_pair_batch(pair: tuple[Version, Version], first: int, count: int) -> tuple[Tally, Tally, PairedTally]:
    """Play seeds first .. first+count-1 under version A and under version B in this process: each
    version's tally, and the paired sums of every seed's two games (the batch's A games first, then
    its B games, so each version's folders are registered once a batch)."""
    va, vb = pair
    ra, rb = _records(va, first, count), _records(vb, first, count)
    ta, tb, p = Tally(va.players), Tally(vb.players), PairedTally(va.players)
    for x, y in zip(ra, rb, strict=True):
        ta.add_game(x)
        tb.add_game(y)
        p.add_pair(x, y)
    return ta, tb, p


def _batch_job(v: Version, first: int, count: int) -> tuple[int, Tally]:
    return count, play_batch(v, first, count)


def _pair_job(pair: tuple[Version, Version], first: int, count: int) -> tuple[int, Tally, Tally, PairedTally]:
    return (count, *play_pair_batch(pair, first, count))


def _call(item: tuple[Callable[..., Any], Any, tuple[Any, ...]]) -> Any:
    """One job in a worker process: the function, what every job shares, and the job's own arguments."""
    func, shared, job = item
    return func(shared, *job)


@dataclass
class Runner:
    """Where the batches run: `workers` local processes (1: this process), or Ray when `ray` names
    a cluster ("auto", an address) or "local" (a Ray runtime started here)."""

    workers: int = 0  # 0: every core
    ray: str | None = None
    ray_cpus: int | None = None  # for a local Ray runtime: its CPUs (None: every core)
    _ray_started: bool = field(default=False, repr=False)

    def cores(self) -> int:
        return self.workers or os.cpu_count() or 1

    def run(self, v: Version, plan: Plan, progress: Callable[[int], None] | None = None) -> Tally:
        """Play the plan's games of a version; `progress(n)` after each batch of n games."""
        total = Tally(v.players)
        for count, t in self._results(v, plan):
            total.merge(t)
            if progress:
                progress(count)
        return total

    def run_pair(
        self, va: Version, vb: Version, plan: Plan, progress: Callable[[int], None] | None = None
    ) -> tuple[Tally, Tally, PairedTally]:
        """Play the plan's seeds under both versions, each seed's two games in the same batch: the
        tallies of A and B and their paired sums; `progress(n)` after each batch of n seeds."""
        if va.players != vb.players:
            raise ValueError("the versions of a comparison seat the same number of players")
        ta, tb, p = Tally(va.players), Tally(vb.players), PairedTally(va.players)
        for count, a, b, pt in self.map(_pair_job, (va, vb), plan.batches):
            ta.merge(a)
            tb.merge(b)
            p.merge(pt)
            if progress:
                progress(count)
        return ta, tb, p

    def _results(self, v: Version, plan: Plan) -> Iterator[tuple[int, Tally]]:
        yield from self.map(_batch_job, v, plan.batches)

    def map(self, func: Callable[..., Any], shared: Any, jobs: Callable[[int], list[tuple[Any, ...]]]) -> Iterator[Any]:
        """`func(shared, *job)` for every job, where the runner runs, yielded as each finishes (not in the
        jobs' order). `jobs(workers)` cuts the work for that many workers, known only once Ray is
        reached; `func` must be a module's top-level function (it is sent to the workers by name)."""
        if self.ray:
            yield from self._on_ray(func, shared, jobs)
            return
        n = self.cores()
        todo = jobs(n)
        if n == 1 or len(todo) == 1:
            for job in todo:
                yield func(shared, *job)
            return
        import multiprocessing as mp

        # "spawn": a fresh interpreter per worker (forking a process with threads is unsafe)
        with mp.get_context("spawn").Pool(min(n, len(todo))) as pool:
            yield from pool.imap_unordered(_call, [(func, shared, job) for job in todo])

    def _on_ray(
        self, func: Callable[..., Any], shared: Any, jobs: Callable[[int], list[tuple[Any, ...]]]
    ) -> Iterator[Any]:
        try:
            import ray
        except ImportError:
            raise RuntimeError("Ray is not installed: pip install 'munchkin[scale]'") from None
        if not ray.is_initialized():
            try:
                if self.ray == "local":
                    ray.init(num_cpus=self.ray_cpus, include_dashboard=False, log_to_driver=False)
                else:
                    ray.init(address=self.ray, log_to_driver=False)
            except (ConnectionError, ValueError, OSError) as exc:  # no cluster there, or a bad address
                where = "start one with `ray start --head`" if self.ray == "auto" else "check the address"
                raise RuntimeError(f"no Ray cluster at {self.ray!r} ({where}): {exc}") from None
            self._ray_started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(func)
        ref = ray.put(shared)  # stored once in the cluster, not copied into every task
        pending = [remote.remote(ref, *job) for job in jobs(cpus)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for r in done:
                yield ray.get(r)

    def close(self) -> None:
        """Shut down a Ray runtime this runner started."""
        if self._ray_started:
            import ray

            ray.shutdown()
            self._ray_started = False
