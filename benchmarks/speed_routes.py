"""Issue 50's speed route, measured: the hot path (the table part of a Main list, a fight's weighing) of
Munchkin Deluxe with 4 players, prototyped three ways beside the engine, each checked equal to the engine
on every position it covers and timed on the same positions.

    .venv/bin/python benchmarks/speed_routes.py [--games 6] [--every 2] [--repeats 5] [--no-build]

Routes: the engine itself; (a) `prototypes/core.py`, data-oriented plain Python over `prototypes/encode.py`'s
tuples; (b) the same file compiled by mypyc (and by Cython in pure-Python mode when Cython is installed);
(c) `prototypes/core_c.c`, a C extension behind the same interface. Compiled routes are built into
`benchmarks/prototypes/build/` (ignored by git) with what this machine has; one that cannot be built is
reported and skipped. Positions: every `--every`-th decision of seeded random-agent games (seeds 1..N),
a Main decision of one's own turn for the listing, any decision during a fight for the weighing; those
the prototypes leave out are counted. Times are the best of `--repeats` passes over all positions (CPU
time, routes interleaved pass by pass); "with encoding" adds reading the position out of the `Game`.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
PROTO = HERE / "prototypes"
BUILD = PROTO / "build"
sys.path.insert(0, str(PROTO))

import core  # noqa: E402  # route (a)
import encode  # noqa: E402

from munchkin.agents.base import decide, make_agent  # noqa: E402
from munchkin.engine import combat, legal  # noqa: E402
from munchkin.engine.actions import Action  # noqa: E402
from munchkin.engine.game import Game, Options, Setup  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dee"]
EXT = str(sysconfig.get_config_var("EXT_SUFFIX"))


class Position:
    """One decision of a seeded game: a copy of the game, and what the prototypes read of it."""

    __slots__ = ("game", "seat", "table", "main", "fight")

    def __init__(self, game: Game, seat: int, table: encode.Table) -> None:
        self.game, self.seat, self.table = game, seat, table
        self.main: Any = None
        self.fight: Any = None


def collect(games: int, every: int) -> tuple[list[Position], list[Position], Counter[str], Counter[str]]:
    """Main positions and fight positions of seeded random Deluxe games, and why others were left out."""
    mains: list[Position] = []
    fights: list[Position] = []
    out_main: Counter[str] = Counter()
    out_fight: Counter[str] = Counter()
    for seed in range(1, games + 1):
        g = Game(Setup(["deluxe"], NAMES, seed, Options(turn_cap=5000)))
        table = encode.Table(g)
        bots = [make_agent("random", seed * 7919 + i) for i in range(4)]
        n = 0
        while not g.over:
            seat = g.to_act[0]
            n += 1
            if n % every == 0:
                main_why = encode.main_outside(table, g, seat) if g.prompt.kind == "main" else "-"
                fight_why = encode.fight_outside(table, g) if g.combat is not None else "-"
                if main_why is None or fight_why is None:
                    pos = Position(g.clone(), seat, table)
                    if main_why is None:
                        pos.main = encode.main_position(pos.game, seat)
                        mains.append(pos)
                    if fight_why is None:
                        pos.fight = encode.fight_position(pos.game)
                        fights.append(pos)
                if main_why not in (None, "-"):
                    out_main[main_why] += 1
                if fight_why not in (None, "-"):
                    out_fight[fight_why] += 1
            g.apply(decide(bots[seat], g, seat))
    return mains, fights, out_main, out_fight


def engine_main(p: Position) -> list[Action]:
    """The engine's own answer, its caches of sales and trades emptied first (the prototypes keep none)."""
    g = p.game
    g._sale_cache.clear()
    g._exchange_cache.clear()
    return legal.table_actions(g, g.players[p.seat], True)


def engine_main_list(p: Position) -> list[Action]:
    """The engine's whole list at the Main decision (for the share the covered part is of it)."""
    g = p.game
    g._sale_cache.clear()
    g._exchange_cache.clear()
    return legal.main_actions(g, p.seat, g.prompt.stage)  # type: ignore[attr-defined]


def engine_fight(p: Position) -> Any:
    g = p.game
    g._win_cache = (-1, None, False)  # weighed afresh, as the prototypes do
    return combat.standing(g, g.combat)  # type: ignore[arg-type]


# ------------------------------------------------------------------ building the compiled routes
def load(name: str, path: Path) -> ModuleType:
    """An extension module from `path` under `name` (not put in sys.modules: route (a) is `core` there)."""
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def run(cmd: list[str], cwd: Path) -> str | None:
    """Run a build command; None if it worked, else the end of what it said."""
    try:
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except OSError as e:
        return str(e)
    return None if r.returncode == 0 else (r.stdout + r.stderr)[-600:]


def build_mypyc(rebuild: bool) -> ModuleType | str:
    """Route (b): core.py compiled by mypyc, unchanged."""
    out = BUILD / "mypyc"
    so = out / f"core{EXT}"
    if rebuild or not so.exists():
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        shutil.copy(PROTO / "core.py", out / "core.py")
        mypyc = shutil.which("mypyc", path=str(Path(sys.executable).parent)) or shutil.which("mypyc")
        if mypyc is None:
            return "mypyc not found (pip install mypy)"
        err = run([mypyc, "core.py"], out)
        if err:
            return f"mypyc failed: {err}"
    return load("core", so)


def build_cython(rebuild: bool) -> ModuleType | str:
    """Route (b'): core.py compiled by Cython in pure-Python mode, unchanged (when Cython is installed)."""
    if importlib.util.find_spec("Cython") is None:
        return "Cython not installed (pip install cython)"
    out = BUILD / "cython"
    so = out / f"core{EXT}"
    if rebuild or not so.exists():
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        shutil.copy(PROTO / "core.py", out / "core.py")
        err = run([sys.executable, "-m", "cython", "-3", "core.py", "-o", "core_cy.c"], out)
        if err:
            return f"cython failed: {err}"
        err = compile_c(out / "core_cy.c", so)
        if err:
            return f"gcc failed on Cython's C: {err}"
    return load("core", so)


def compile_c(source: Path, so: Path) -> str | None:
    """An extension module from one C file with gcc and the Python headers."""
    include = sysconfig.get_paths()["include"]
    return run(["gcc", "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(so)], source.parent)


def build_c(rebuild: bool) -> ModuleType | str:
    """Route (c): core_c.c, a C extension with the same interface."""
    out = BUILD / "c"
    so = out / f"core_c{EXT}"
    if rebuild or not so.exists():
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        err = compile_c(PROTO / "core_c.c", so)
        if err:
            return f"gcc failed: {err}"
    mod = load("core_c", so)
    mod.setup(Action)
    return mod


# ------------------------------------------------------------------ checking and timing
class Route:
    """A route's three functions: its table from encode's (once per game), the listing, the weighing."""

    def __init__(
        self, name: str, prepare: Callable[[Any], Any], listing: Callable[..., Any], weigh: Callable[..., Any]
    ):
        self.name, self.prepare, self.listing, self.weigh = name, prepare, listing, weigh
        self.tables: dict[int, Any] = {}

    def table(self, t: encode.Table) -> Any:
        got = self.tables.get(id(t))
        if got is None:
            got = self.tables[id(t)] = self.prepare(t)
        return got


def check(route: Route, mains: list[Position], fights: list[Position]) -> tuple[int, int]:
    """Positions where the route's answer differs from the engine's: (listing, weighing)."""
    bad_main = sum(route.listing(route.table(p.table), p.main) != engine_main(p) for p in mains)
    bad_fight = sum(route.weigh(route.table(p.table), p.fight) != engine_fight(p) for p in fights)
    return bad_main, bad_fight


def timed(f: Callable[[], object]) -> float:
    t0 = time.process_time()
    f()
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="seeded random-agent games (seeds 1..N)")
    ap.add_argument("--every", type=int, default=2, help="keep every N-th decision")
    ap.add_argument("--repeats", type=int, default=5, help="passes over the positions; the best is kept")
    ap.add_argument("--rebuild", action="store_true", help="build the compiled routes afresh")
    ap.add_argument("--no-build", action="store_true", help="only routes already built (and route a)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    mains, fights, out_main, out_fight = collect(args.games, args.every)
    print(f"positions: {len(mains):,} Main (own turn), {len(fights):,} in a fight, from {args.games} seeded random")
    print(f"  Deluxe games, 4 players ({time.perf_counter() - t0:.1f} s); left out:")
    for kind, out in (("Main", out_main), ("fight", out_fight)):
        for why, n in out.most_common():
            print(f"    {n:6} {kind} positions: {why}")

    routes = [Route("(a) pure Python", lambda t: t, core.table_actions, core.standing)]
    for name, build in (("(b) mypyc", build_mypyc), ("(b) Cython", build_cython), ("(c) C", build_c)):
        if args.no_build and not (BUILD / name.split()[-1].lower()).exists():
            print(f"{name}: not built (--no-build)")
            continue
        t0 = time.perf_counter()
        mod = build(args.rebuild)
        if isinstance(mod, str):
            print(f"{name}: skipped: {mod}")
            continue
        print(f"{name}: ready ({time.perf_counter() - t0:.1f} s)")
        if name == "(c) C":
            routes.append(Route(name, mod.compile_table, mod.table_actions, mod.standing))
        else:
            routes.append(Route(name, lambda t: t, mod.table_actions, mod.standing))

    print("equality with the engine on every covered position:")
    failed = False
    for r in routes:
        bad = check(r, mains, fights)
        failed |= any(bad)
        lists, weighs = f"{len(mains) - bad[0]:,}/{len(mains):,}", f"{len(fights) - bad[1]:,}/{len(fights):,}"
        print(f"  {r.name:16} listing {lists} equal, weighing {weighs} equal")

    runs: dict[str, list[float]] = {}

    def note(key: str, f: Callable[[], object]) -> None:
        runs.setdefault(key, []).append(timed(f))

    for _ in range(args.repeats):
        note("engine list", lambda: [engine_main(p) for p in mains])
        note("engine whole", lambda: [engine_main_list(p) for p in mains])
        note("engine fight", lambda: [engine_fight(p) for p in fights])
        note("encode list", lambda: [encode.main_position(p.game, p.seat) for p in mains])
        note("encode fight", lambda: [encode.fight_position(p.game) for p in fights])
        for r in routes:
            note(f"{r.name} list", lambda r=r: [r.listing(r.table(p.table), p.main) for p in mains])  # type: ignore[misc]
            note(f"{r.name} fight", lambda r=r: [r.weigh(r.table(p.table), p.fight) for p in fights])  # type: ignore[misc]
    best = {k: min(v) for k, v in runs.items()}
    per_main = {k: best[k] / len(mains) * 1e6 for k in best if k.endswith(("list", "whole"))}
    per_fight = {k: best[k] / len(fights) * 1e6 for k in best if k.endswith("fight")}
    print()
    print(
        f"the engine's whole Main list: {per_main['engine whole']:.1f} µs, of which the covered part "
        f"(legal.table_actions) {per_main['engine list']:.1f} µs; reading a position out of the Game: "
        f"{per_main['encode list']:.1f} µs (Main), {per_fight['encode fight']:.1f} µs (fight)"
    )
    print()
    print("| route | listing µs | speed-up | with encoding | weighing µs | speed-up | with encoding |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    el, ef = per_main["engine list"], per_fight["engine fight"]
    print(f"| engine | {el:.2f} | 1.00x | | {ef:.2f} | 1.00x | |")
    for r in routes:
        lst, fgt = per_main[f"{r.name} list"], per_fight[f"{r.name} fight"]
        enc_l, enc_f = lst + per_main["encode list"], fgt + per_fight["encode fight"]
        listing = f"{lst:.2f} | {el / lst:.2f}x | {el / enc_l:.2f}x"
        print(f"| {r.name} | {listing} | {fgt:.2f} | {ef / fgt:.2f}x | {ef / enc_f:.2f}x |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
