"""`munchkin ladder`: seat-rotated games among agents on every core (or Ray), rated and written as a report."""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from munchkin.agents.registry import check_spec
from munchkin.balance.command import _split, plots_or_exit, progress_bar
from munchkin.balance.runner import Plan, Runner
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS, RULES
from munchkin.errors import CardError
from munchkin.ladder.games import AgentFailed, League, Outcome, Timing, play_batch
from munchkin.ladder.report import duration, write_report
from munchkin.ladder.schedule import Schedule
from munchkin.origin import report_origin


def _agents(text: str) -> tuple[str, ...]:
    """The agents' specs from --agents, each checked: at least two, none named twice."""
    specs = _split(text)
    if len(specs) < 2:
        raise typer.BadParameter("name at least two agents to rate against each other", param_hint="--agents")
    for spec in specs:
        why = check_spec(spec)
        if why is not None:
            raise typer.BadParameter(why, param_hint="--agents")
    twice = sorted({s for s in specs if specs.count(s) > 1})
    if twice:
        raise typer.BadParameter(f"{', '.join(map(repr, twice))} named twice", param_hint="--agents")
    return tuple(specs)


def _editions(given: list[str] | None) -> tuple[tuple[str, ...], ...]:
    """The editions from the --set flags (each one set or a mix), every set checked; Deluxe by default."""
    from munchkin.cards.loader import load_set

    out: list[tuple[str, ...]] = []
    for text in given or ["deluxe"]:
        sets = tuple(dict.fromkeys(_split(text)))
        if not sets:
            raise typer.BadParameter(f"{text!r} names no set", param_hint="--set")
        for s in sets:
            try:
                load_set(s)
            except CardError as exc:
                raise typer.BadParameter(str(exc), param_hint="--set") from None
        if sets in out:
            raise typer.BadParameter(f"{','.join(sets)} given twice", param_hint="--set")
        out.append(sets)
    return tuple(out)


def _table(s: dict[str, Any]) -> Table:
    """The agents' table as printed: the ratings, the wins (of the seats played) and the think time."""
    t = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("agent", overflow="fold")
    for col in ("mu ± sigma", "ordinal", "games", "wins/seats", "win rate (95%)", "think: median", "p95"):
        t.add_column(col, justify="right", no_wrap=True)
    for r in s["agents"]:
        w = r["win_rate"]
        t.add_row(
            str(r["rank"]),
            escape(r["agent"]),
            f"{r['mu']:.2f} ± {r['sigma']:.2f}",
            f"{r['ordinal']:.2f}",
            str(r["games"]),
            f"{r['wins']}/{r['seats']}",
            f"{100 * w['rate']:.1f}% ({100 * w['low']:.1f}–{100 * w['high']:.1f})",
            duration(r["think"]["median_ms"]),
            duration(r["think"]["p95_ms"]),
        )
    return t


def ladder(
    agents: Annotated[
        str,
        typer.Option(
            help="The agents, comma-separated: random, heuristic, a registered variant (search:fast), "
            "or a class as package.module:Class."
        ),
    ],
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 200,
    players: Annotated[
        int, typer.Option(min=MIN_PLAYERS, max=MAX_PLAYERS, help=f"Seats per game ({MIN_PLAYERS} to {MAX_PLAYERS}).")
    ] = 4,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="An edition: one set or a mix (star,deluxe). Repeat it to play several in turn (default: deluxe).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    workers: Annotated[
        int | None, typer.Option(min=0, help="Local worker processes (0 or not given: one per core).")
    ] = None,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run on Ray: auto (a running cluster), an address, or local.")
    ] = None,
    batch: Annotated[int, typer.Option(min=0, help="Games per batch sent to a worker (0: chosen).")] = 0,
    out: Annotated[Path, typer.Option("--out", help="The report folder to write.")] = Path("ladder-report"),
) -> None:
    """Rate agents against each other: seat-rotated games, openskill Plackett-Luce ratings, a report folder
    (index.html, ladder.json, ladder.csv). The same seed and agents give the same ratings on any number of
    workers; docs/ladder.md says how seats are rotated and how to read the report."""
    from munchkin.ladder.ratings import summarize

    err = plots_or_exit()
    specs = _agents(agents)
    editions = _editions(set_)
    if ray is not None and workers is not None:
        raise typer.BadParameter("give --workers or --ray, not both", param_hint="--ray")
    if ray is not None and ray not in ("auto", "local") and ":" not in ray:
        raise typer.BadParameter(
            f"{ray!r}: give auto, local, or an address such as ray://HOST:10001", param_hint="--ray"
        )
    league = League(specs, editions, players, seed, Schedule.make(len(specs), players, len(editions), games))
    runner = Runner(workers=workers or 0, ray=ray)
    outcomes: list[Outcome] = []
    timings = {a: Timing() for a in range(len(specs))}
    progress = progress_bar("games", err)
    t0 = time.perf_counter()
    try:
        with progress:
            task = progress.add_task("games", total=games)
            plan = Plan(0, games, batch)  # batches of game numbers, from 0
            for outs, times in runner.map(play_batch, league, plan.batches):
                outcomes += outs
                for a, t in times.items():
                    timings[a].merge(t)
                progress.advance(task, len(outs))
    except AgentFailed as exc:
        err.print(f"Error: {escape(str(exc.args[0] if exc.args else exc))}", soft_wrap=True)
        raise typer.Exit(1) from None
    except RuntimeError as exc:  # Ray missing or unreachable
        err.print(f"Error: {escape(str(exc))}")
        raise typer.Exit(2) from None
    finally:
        runner.close()
    seconds = time.perf_counter() - t0
    s = summarize(league, outcomes, timings)
    where = f"Ray ({ray})" if ray else f"{runner.cores()} local worker(s)"
    command = ["munchkin", "ladder", "--agents", ",".join(specs), "--games", str(games), "--players", str(players)]
    for e in editions:
        command += ["--set", ",".join(e)]
    command += ["--seed", str(seed), *(["--ray", ray] if ray else ["--workers", str(runner.workers)])]
    command += ["--out", str(out)]
    s = {
        "about": {
            "agents": list(specs),
            "sets": [",".join(e) for e in editions],
            "players": players,
            "seed": seed,
            "games": games,
            "rules": RULES,
            "turn_cap": league.turn_cap,
            # where the cards came from (rules, engine, each set's card version; the ladder takes no folders)
            "origin": report_origin([x for e in editions for x in e]),
        },
        "run": {
            "command": shlex.join(command),
            "seconds": round(seconds, 3),
            "games_per_second": round(games / seconds, 3) if seconds else 0.0,
            "where": where,
        },
        **s,
    }
    try:
        page = write_report(s, out)
    except OSError as exc:
        err.print(f"Error: cannot write the report in {escape(str(out))}: {escape(str(exc))}")
        raise typer.Exit(2) from None
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = max(console.width, 140)  # the table whole in a file or a pipe, as on a wide terminal
    console.print(_table(s))
    console.print(
        f"{games} games ({s['capped']} stopped at the turn cap) in {seconds:.1f} s on {where}; "
        f"report: {escape(str(page))}"
    )
