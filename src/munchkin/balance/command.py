"""`munchkin balance`: play seeded bot games on every core (or Ray) and write a balance report."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from munchkin.agents.registry import AGENTS_HELP, DEFAULT_AGENT, check_spec, make_agent
from munchkin.balance import about, parse_options, play, play_pair
from munchkin.balance.paired import PairedTally
from munchkin.balance.runner import Plan, Runner, Version
from munchkin.balance.tally import Tally
from munchkin.errors import CardError
from munchkin.origin import origin_difference


class _Speed(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed or 0.0:.1f} games/s")


def _split(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _designer_sets(paths: list[Path]) -> tuple[list[str], tuple[tuple[tuple[str, str], ...], ...]]:
    """Each designer folder checked and read as its files, with the names of its sets; a folder with a
    mistake stops the command with the CardError (naming file, card and problem), as in every command."""
    from munchkin.cards.loader import add_set_dir, set_dir_files

    names, out = [], []
    for p in paths:
        try:
            names.append(add_set_dir(p))
            out.append(tuple(sorted(set_dir_files(p).items())))
        except CardError as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
    return names, tuple(out)


def _version(
    sets: list[str] | None, players: int, agents: list[str], options: list[str], set_dirs: list[Path], label: str
) -> Version:
    """A version from the flags, every name checked; `sets` None: the folders' sets, else Deluxe."""
    from munchkin.cards.loader import clear_set_dirs, load_set
    from munchkin.origin import report_origin

    if not agents:
        raise typer.BadParameter("name at least one agent", param_hint="--agents")
    for a in agents:
        why = check_spec(a)
        if why is None:
            try:  # a class of the user's own is made once here, so that a constructor's error is said now
                make_agent(a, 0)
            except ValueError as e:
                why = str(e)
        if why is not None:
            raise typer.BadParameter(why, param_hint="--agents")
    try:
        opts = parse_options(options)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--option") from None
    clear_set_dirs()
    designed, files = _designer_sets(set_dirs)
    if sets is None:
        sets = list(dict.fromkeys(designed)) or ["deluxe"]
    if not sets:
        raise typer.BadParameter("name at least one set", param_hint="--set")
    for s in sets:
        try:
            load_set(s)
        except CardError as exc:
            raise typer.BadParameter(str(exc), param_hint="--set") from None
    origin = report_origin(sets)  # while its folders are registered: their names, hashes and card versions
    clear_set_dirs()  # each version registers its own folders where its games are played
    return Version(tuple(sets), players, tuple(agents), opts, files, label, origin)


def balance(
    set_: Annotated[
        str | None, typer.Option("--set", help="Card set(s), comma-separated (default: the --set-dir sets, or deluxe).")
    ] = None,
    players: Annotated[int, typer.Option(min=3, max=6, help="Players per game (3 to 6).")] = 4,
    games: Annotated[int, typer.Option(min=1, help="Number of games (of each version with --compare).")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    agents: Annotated[str, typer.Option(help=AGENTS_HELP)] = DEFAULT_AGENT,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            metavar="KEY=VALUE",
            help="An optional rule, KEY=VALUE (e.g. listen_at_the_door=on, turn_cap=800; the turn cap is 5000).",
        ),
    ] = None,
    set_dir: Annotated[
        list[Path] | None,
        typer.Option("--set-dir", metavar="FOLDER", help="A designer's set folder, used in place of its set."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="The report folder to write.")] = Path("balance-report"),
    workers: Annotated[int, typer.Option(min=0, help="Local worker processes (0: one per core).")] = 0,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run on Ray: auto (a running cluster), an address, or local.")
    ] = None,
    batch: Annotated[int, typer.Option(min=0, help="Games per batch sent to a worker (0: chosen).")] = 0,
    compare: Annotated[
        bool, typer.Option("--compare", help="Also play version B (the --b-* flags) on the same seeds and compare.")
    ] = False,
    b_option: Annotated[
        list[str] | None,
        typer.Option("--b-option", metavar="KEY=VALUE", help="Version B's optional rules (replacing --option)."),
    ] = None,
    b_set_dir: Annotated[
        list[Path] | None,
        typer.Option("--b-set-dir", metavar="FOLDER", help="Version B's designer set folder(s) (replacing --set-dir)."),
    ] = None,
    b_agents: Annotated[str | None, typer.Option("--b-agents", help="Version B's agents.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print summary.json (or comparison.json) on stdout.")] = False,
) -> None:
    """Play seeded bot games and write a balance report folder: index.html, summary.json and CSV tables.

    The summary depends only on the games: the same seeds give the same summary on one worker,
    on every core or on a Ray cluster. With --compare, version B (the --b-* flags; what they do not
    name is as in version A) plays the same seeds and the report shows each difference with its
    95% interval.
    """
    from munchkin.balance.report import write_compare, write_report
    from munchkin.balance.summary import compare as compare_tallies
    from munchkin.balance.summary import summarize

    err = plots_or_exit()
    sets = _split(set_) if set_ is not None else None
    agent_list = _split(agents)
    va = _version(sets, players, agent_list, option or [], set_dir or [], "A")
    b_named = b_option is not None or b_set_dir is not None or b_agents is not None
    if b_named and not compare:
        raise typer.BadParameter("the --b-* flags describe version B: add --compare", param_hint="--compare")
    vb = None
    if compare:
        vb = _version(
            list(va.sets),
            players,
            _split(b_agents) if b_agents is not None else agent_list,
            b_option if b_option is not None else (option or []),
            b_set_dir if b_set_dir is not None else (set_dir or []),
            "B",
        )
        va, vb = replace(va, label=_label(va, vb)), replace(vb, label=_label(vb, va))
    if ray is not None and ray not in ("auto", "local") and ":" not in ray:
        raise typer.BadParameter(
            f"{ray!r}: give auto, local, or an address such as ray://HOST:10001", param_hint="--ray"
        )
    runner = Runner(workers=workers, ray=ray)
    plan = Plan(seed, games, batch)
    try:
        if vb is None:
            tally, run = _run(va, plan, runner, err, "games", quiet=as_json)
        else:
            ta, tb, paired, run = _run_pair(va, vb, plan, runner, err, quiet=as_json)
    except RuntimeError as exc:  # Ray missing or unreachable
        err.print(f"Error: {escape(str(exc))}")
        raise typer.Exit(2) from None
    finally:
        runner.close()
    try:
        if vb is None:
            s = summarize(tally, about(va, plan))
            page = write_report(s, out, run)
            write_tally(out, about(va, plan), tally)
            shown: dict[str, Any] = s
        else:
            sa, sb = summarize(ta, about(va, plan)), summarize(tb, about(vb, plan))
            changed = changed_cards(va, vb)
            c = compare_tallies(ta, tb, paired, changed)
            c["about"] = {"a": about(va, plan), "b": about(vb, plan)}
            c["changed_cards"] = changed
            c["version_differences"] = version_differences(va, vb)
            c["paired_sums"] = paired.to_json()
            page = write_compare(c, sa, sb, out)
            write_tally(out / "a", about(va, plan), ta)
            write_tally(out / "b", about(vb, plan), tb)
            for d in ("a", "b"):
                (out / d / "run.json").write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
            shown = c
    except OSError as exc:
        err.print(f"Error: cannot write the report in {escape(str(out))}: {escape(str(exc))}")
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(shown, sort_keys=True))
    else:
        Console(highlight=False).print(f"Report: {escape(str(page))}")


def _card_data(v: Version) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every card of a version's sets: id -> (name, its data as the set files give it)."""
    from munchkin.balance.runner import use_sets
    from munchkin.cards.loader import clear_set_dirs, load_set

    use_sets(v)
    try:
        return {c.id: (c.name, c.model_dump(mode="json", exclude_none=True)) for s in v.sets for c in load_set(s).cards}
    finally:
        clear_set_dirs()
        use_sets(Version((), v.players, v.agents))


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for k, val in data.items():
            out.update(_flat(val, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: data}


def _faces(v: Version) -> dict[str, dict[str, Any]]:
    """Every card of a version's sets as its face (cards/face.py: the rules text in words), by id."""
    from munchkin.balance.runner import use_sets
    from munchkin.cards.face import card_face
    from munchkin.cards.loader import clear_set_dirs
    from munchkin.engine.cards import build_houses, build_table

    use_sets(v)
    try:
        defs, _ = build_table(list(v.sets))
        out: dict[str, dict[str, Any]] = {}
        for d in [*defs, *build_houses(list(v.sets)).values()]:
            out.setdefault(d.id, card_face(d))
        return out
    finally:
        clear_set_dirs()
        use_sets(Version((), v.players, v.agents))


def _plain(x: Any) -> str:
    """A value of a card's data in plain words (never Python's brackets and quotes)."""
    if x is None:
        return "nothing"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {_plain(v)}" for k, v in x.items()) or "nothing"
    if isinstance(x, list):
        return "; ".join(_plain(v) for v in x) or "nothing"
    return str(x).replace("_", " ") if isinstance(x, str) and x.isidentifier() else str(x)


def face_differences(fa: dict[str, Any], fb: dict[str, Any]) -> list[str]:
    """What differs between two faces of a card, line by line in the face's words ("Level: 8 → 12")."""
    la = {ln["label"]: ln["text"] for ln in fa.get("lines", [])}
    lb = {ln["label"]: ln["text"] for ln in fb.get("lines", [])}
    out = []
    for key, label in (("name", "Name"), ("kind_word", "Kind"), ("deck_word", "Deck")):
        if fa.get(key) != fb.get(key):
            out.append(f"{label}: {fa.get(key)} → {fb.get(key)}")
    for label in dict.fromkeys([*la, *lb]):
        if la.get(label) != lb.get(label):
            out.append(f"{label}: {la.get(label, '(none)')} → {lb.get(label, '(none)')}")
    if fa.get("text") != fb.get("text"):
        out.append(f"Card text: {fa.get('text') or '(none)'} → {fb.get('text') or '(none)'}")
    return out


def changed_cards(a: Version, b: Version) -> list[dict[str, Any]]:
    """The cards whose data differ between two versions (a designer's change): field by field for
    comparison.json, and in `words` as the card's face says it (the lines that differ)."""
    if a.set_files == b.set_files and a.sets == b.sets:
        return []
    da, db = _card_data(a), _card_data(b)
    faces_a, faces_b = _faces(a), _faces(b)
    out: list[dict[str, Any]] = []
    for k in sorted(set(da) | set(db)):
        if k not in da or k not in db:
            there, face = ("B", faces_b.get(k, {})) if k in db else ("A", faces_a.get(k, {}))
            words = [f"only in {there}: " + "; ".join(f"{ln['label']}: {ln['text']}" for ln in face.get("lines", []))]
            out.append({"id": k, "name": (da.get(k) or db[k])[0], "change": f"only in {there}", "words": words})
            continue
        fa, fb = _flat(da[k][1]), _flat(db[k][1])
        fields = [
            {"field": f, "a": fa.get(f), "b": fb.get(f)} for f in sorted(set(fa) | set(fb)) if fa.get(f) != fb.get(f)
        ]
        if fields:
            words = face_differences(faces_a.get(k, {}), faces_b.get(k, {}))
            if not words:  # a field the face does not show: said in plain words all the same
                words = [f"{str(f['field']).replace('_', ' ')}: {_plain(f['a'])} → {_plain(f['b'])}" for f in fields]
            out.append({"id": k, "name": db[k][0], "change": "changed", "fields": fields, "words": words})
    return out


def version_differences(a: Version, b: Version) -> list[str]:
    """How version B differs from A besides its cards, in words: optional rules, agents, card folders."""
    out = []
    oa, ob = asdict(a.game_options()), asdict(b.game_options())

    def said(x: Any) -> str:
        return ("on" if x else "off") if isinstance(x, bool) else _plain(x)

    for k in oa:
        if oa[k] != ob[k]:
            out.append(f"{k.replace('_', ' ').capitalize()}: {said(oa[k])} → {said(ob[k])}")
    if a.agents != b.agents:
        out.append(f"Agents: {', '.join(a.agents)} → {', '.join(b.agents)}")
    if a.set_files != b.set_files:
        out.append(f"Cards: {_cards_from(a)} → {_cards_from(b)}")
    return out


def _cards_from(v: Version) -> str:
    """Where a version's cards come from, in words: its designer folders by name (and short hash), or
    the built-in cards."""
    from munchkin.cards.loader import SHORT_HASH

    dirs = (v.origin or {}).get("set_dirs") or []
    if not dirs:
        return f"{len(v.set_files)} designer folder(s)" if v.set_files else "the built-in cards"
    named = ", ".join(f"{d.get('folder')} ({str(d.get('sha256'))[:SHORT_HASH]})" for d in dirs)
    return f"the designer folder{'s' if len(dirs) > 1 else ''} {named}"


def _label(v: Version, other: Version) -> str:
    """A short name for a version: what sets it apart from the other."""
    parts = []
    if v.options != other.options:
        parts.append(", ".join(f"{k}={val}" for k, val in v.options) or "default options")
    if v.set_files != other.set_files:
        parts.append(_cards_from(v))
    if v.agents != other.agents:
        parts.append("agents " + ",".join(v.agents))
    return "; ".join(parts) or "as the other"


def plots_or_exit() -> Console:
    """The error console of a run that ends in a report with plots; exit 2 at once, saying why, when
    plots cannot be drawn here (before any game is played, not after hours of them)."""
    from munchkin.balance.report import require_plots

    err = Console(stderr=True, highlight=False)
    try:
        require_plots()
    except RuntimeError as exc:
        err.print(f"Error: {escape(str(exc))}")
        raise typer.Exit(2) from None
    return err


def progress_bar(name: str, err: Console, quiet: bool = False) -> Progress:
    """The progress bar of a run of games (games done, games a second, time left) on `err`; off when
    quiet, not on a terminal, or with MUNCHKIN_NO_PROGRESS set."""
    return Progress(
        TextColumn(name),
        BarColumn(),
        MofNCompleteColumn(),
        _Speed(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal or bool(os.environ.get("MUNCHKIN_NO_PROGRESS")),
    )


def _run_pair(
    va: Version, vb: Version, plan: Plan, runner: Runner, err: Console, quiet: bool
) -> tuple[Tally, Tally, PairedTally, dict[str, Any]]:
    """Both versions of every seed, each seed's two games in one batch (paired), with a progress bar."""
    progress = progress_bar("versions A and B", err, quiet)
    with progress:
        task = progress.add_task("games", total=plan.games)
        return play_pair(va, vb, plan, runner, lambda n: progress.advance(task, n))


def _run(v: Version, plan: Plan, runner: Runner, err: Console, name: str, quiet: bool) -> tuple[Any, dict[str, Any]]:
    progress = progress_bar(name, err, quiet)
    with progress:
        task = progress.add_task("games", total=plan.games)
        return play(v, plan, runner, lambda n: progress.advance(task, n))


TALLY_FILE = "tally.json"


def write_tally(out: Path, about_run: dict[str, Any], tally: Tally) -> None:
    """The run's counts beside its report, so a later run on other seeds can be merged with it."""
    data = {"about": about_run, "tally": tally.to_json()}
    (out / TALLY_FILE).write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")


def read_tally(folder: Path) -> tuple[dict[str, Any], Tally]:
    """A report folder's run (version and seeds) and counts; ValueError naming the file and the problem."""
    path = folder / TALLY_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file (is {folder} a report folder of `munchkin balance`?)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read it: {exc}") from None
    try:
        if not isinstance(data, dict) or not isinstance(data.get("about"), dict):
            raise ValueError("it names no run ('about')")
        a = data["about"]
        if not isinstance(a.get("version"), dict) or not isinstance(a.get("seed"), int):
            raise ValueError("its 'about' names no version and first seed")
        tally = Tally.from_json(data.get("tally"))
        if tally.games != a.get("games"):
            raise ValueError(f"it counts {tally.games} games but says it played {a.get('games')}")
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    return a, tally


def merge_runs(runs: list[tuple[dict[str, Any], Tally]]) -> tuple[dict[str, Any], Tally]:
    """Runs of one version on disjoint seeds as one: the counts added, the seeds named. Runs on
    consecutive seeds give exactly the summary one run over all of them would."""
    runs = sorted(runs, key=lambda r: r[0]["seed"])
    first = runs[0][0]
    for a, _ in runs[1:]:
        if a["version"] != first["version"]:
            differ = sorted(
                k for k in set(a["version"]) | set(first["version"]) if a["version"].get(k) != first["version"].get(k)
            )
            raise ValueError(f"the runs played different versions (they differ in {', '.join(differ)})")
        why = origin_difference(first.get("origin"), a.get("origin"))
        if why:
            raise ValueError(f"the runs starting at seeds {first['seed']} and {a['seed']} cannot be merged: {why}")
    ranges = [(a["seed"], a["games"]) for a, _ in runs]
    for (s1, n1), (s2, n2) in zip(ranges, ranges[1:]):
        if s2 < s1 + n1:
            raise ValueError(f"seeds {s1} to {s1 + n1 - 1} and {s2} to {s2 + n2 - 1} overlap: a game would count twice")
    total = Tally(runs[0][1].players)
    for _, t in runs:
        total.merge(t)
    merged: dict[str, Any] = {"version": first["version"], "seed": ranges[0][0], "games": total.games}
    if all(a.get("origin") for a, _ in runs):  # parts written before origins were recorded leave it out
        merged["origin"] = first["origin"]
    if any(s2 != s1 + n1 for (s1, n1), (s2, _) in zip(ranges, ranges[1:])):
        merged["seed_ranges"] = [[s, s + n - 1] for s, n in ranges]
    return merged, total


def balance_merge(
    folders: Annotated[
        list[Path],
        typer.Argument(metavar="FOLDER", help="Report folders of runs of one version on different seeds."),
    ],
    out: Annotated[Path, typer.Option("--out", help="The merged report folder to write.")] = Path("balance-report"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the merged summary.json on stdout.")] = False,
) -> None:
    """Merge balance runs of one version on different seeds into one report, as if one run had played
    them all: split a long run over sessions or machines (`--seed` sets where each part starts)."""
    from munchkin.balance.report import require_plots, write_report
    from munchkin.balance.summary import summarize

    err = Console(stderr=True, highlight=False)
    try:
        require_plots()
        runs = [read_tally(f) for f in folders]
        merged, tally = merge_runs(runs)
    except (RuntimeError, ValueError) as exc:
        err.print(f"Error: {escape(str(exc))}", soft_wrap=True)  # a file's path is never broken
        raise typer.Exit(2) from None
    seconds = 0.0
    for f in folders:
        try:
            seconds += float(json.loads((f / "run.json").read_text(encoding="utf-8"))["seconds"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # the time is shown only for information
    run = {
        "seconds": round(seconds, 3),
        "games": tally.games,
        "games_per_second": round(tally.games / seconds, 3) if seconds else 0.0,
        "where": f"{len(folders)} merged runs",
    }
    s = summarize(tally, merged)
    try:
        page = write_report(s, out, run)
        write_tally(out, merged, tally)
    except OSError as exc:
        err.print(f"Error: cannot write the report in {escape(str(out))}: {escape(str(exc))}")
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(s, sort_keys=True))
    else:
        Console(highlight=False).print(f"Report: {escape(str(page))} ({tally.games} games from {len(folders)} runs)")
