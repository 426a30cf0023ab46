"""The command line: play in the terminal, simulate, replay, run scenarios, check the cards.

`munchkin --help` lists the commands; docs/notation.md describes the action notation
that `play` reads and that saved games and scenarios are written in.
"""

from __future__ import annotations

import errno
import json
import math
import re
import secrets
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperArgument, TyperOption

from munchkin.agents.base import Agent, make_agent
from munchkin.agents.registry import AGENTS_HELP, DEFAULT_AGENT, check_spec
from munchkin.balance.command import balance as balance_command
from munchkin.balance.command import balance_merge as balance_merge_command
from munchkin.cards.loader import (
    SHORT_HASH,
    CardError,
    add_set_dir,
    available_sets,
    designer_card,
    load_set,
    origin_problem,
    set_dir_origins,
)
from munchkin.cards.schema import House
from munchkin.engine.actions import Action, MunchkinError
from munchkin.engine.cards import CardDef
from munchkin.engine.game import Game, Options, Setup, declared_sexes
from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from munchkin.engine.view import narrate
from munchkin.ladder.command import ladder as ladder_command
from munchkin.origin import origin_words
from munchkin.simulate import NAMES
from munchkin.terminal import Seat, card_summary

app = typer.Typer(
    name="munchkin",
    help="Munchkin: kick down doors, kill monsters, take their stuff.",
    no_args_is_help=True,
    add_completion=False,
)
cards_app = typer.Typer(help="Check and list the card sets.", no_args_is_help=True)
app.add_typer(cards_app, name="cards")


def _readable_help() -> None:
    """Mend typer's --help: a flag shows no type (it printed "--check <bool>" as if it took a value); a
    repeatable value shows its element ("<path>..." rather than "<list[Path]>"); and an option with a
    metavar of its own (serve's SECONDS, N...) says its range in its help, so that at 80 columns the
    table keeps room for whole flag names."""
    for cls in (TyperOption, TyperArgument):
        shown = getattr(cls, "display_type_rich", None)
        if shown is None:  # a typer without this hook: nothing to mend
            continue

        def display_type_rich(self: Any, ctx: Any, shown: Any = shown) -> str | None:
            if getattr(self, "is_flag", False) and not getattr(self, "count", False):
                return None
            text = shown(self, ctx)
            return re.sub(r"^<list\[(\w+)\]>$", lambda m: f"<{m[1].lower()}>...", text) if text else text

        setattr(cls, "display_type_rich", display_type_rich)  # noqa: B010 - mypy refuses a method assignment
    ranged = getattr(TyperOption, "_get_number_range_help_str", None)
    if ranged is not None:

        def range_help(self: TyperOption) -> str | None:
            return None if self.metavar else ranged(self)

        setattr(TyperOption, "_get_number_range_help_str", range_help)  # noqa: B010


_readable_help()


def _out(lines: bool = False) -> Console:
    """A console on the current stdout (created per call, so redirection and tests work).

    With `lines`, long lines are left whole (for output read line by line, such as a
    list of results); otherwise rich wraps them at word boundaries.
    """
    return Console(highlight=False, soft_wrap=lines)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def _split(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


SetDirs = Annotated[
    list[Path] | None,
    typer.Option(
        "--set-dir",
        metavar="DIR",
        help="A designer's set folder (docs/cards.md); it replaces a built-in set of its name. Repeatable.",
    ),
]


def _add_set_dirs(folders: list[Path] | None) -> list[str]:
    """Register each designer's set folder before anything reads a set; return their set names.
    A bad folder is its one-line CardError on stderr and exit 1, never a traceback."""
    names: list[str] = []
    for folder in folders or []:
        try:
            names.append(add_set_dir(folder))
        except CardError as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
    return names


def _game_sets(set_: str | None, designed: list[str]) -> list[str]:
    """The sets a game is dealt from: --set, else the --set-dir folders' sets, else Deluxe."""
    if set_ is not None:
        return _split(set_)
    return list(dict.fromkeys(designed)) or ["deluxe"]


def game_origin(sets: list[str]) -> dict[str, Any] | None:
    """What a new game's save records of where its cards came from (`Setup.origin`): each designer
    folder it is dealt from, by name and hash; None when every set is built in."""
    folders = set_dir_origins(sets)
    return {"set_dirs": folders} if folders else None


def _save_origin_problem(text: str) -> str | None:
    """Why a save cannot be replayed with the --set-dir folders given (`origin_problem`), said before
    replaying it; None also when it is not JSON or has no origin (the replay says what is wrong then)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    setup = data.get("setup") if isinstance(data, dict) else None
    if not isinstance(setup, dict):
        return None
    return origin_problem(setup.get("origin"), sets=setup.get("sets"), rules=data.get("rules"))


def _check_sets(sets: list[str]) -> None:
    if not sets:
        raise typer.BadParameter("name at least one set")
    for s in sets:
        try:
            load_set(s)
        except CardError as exc:
            raise typer.BadParameter(str(exc), param_hint="--set") from None


def _check_agents(agents: list[str]) -> None:
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


def _make_bot(name: str, seed: int, warn: Callable[[str], None] | None = None) -> Agent:
    """An agent by name; the heuristic bot falls back to the random one if it is not installed."""
    try:
        return make_agent(name, seed)
    except ImportError:
        if name != "heuristic":
            raise
        if warn is not None:
            warn("the heuristic bot is not available here; the bots play at random")
        return make_agent("random", seed)


def _bot_label(spec: str) -> str:
    """How the bots are named to a player: a tier with the agent behind it, else the agent."""
    from munchkin.agents.registry import TIERS

    t = TIERS.get(spec.strip().lower())
    return f"{t.label}: {t.spec}" if t is not None else spec


# ====================================================================== card words
def card_record(d: CardDef, copy: int, copies: int) -> dict[str, Any]:
    """One physical card as a JSON object: identity, text and the numbers that apply."""
    rec: dict[str, Any] = {
        "id": d.id,
        "name": d.name,
        "set": d.set,
        "deck": d.deck,
        "kind": d.kind,
        "provenance": d.provenance,
        "copy": copy,
        "copies": copies,
        "text": d.text,
    }
    if d.model.note:
        rec["note"] = d.model.note
    designed = designer_card(d.set, d.id)
    if designed is not None:  # from a --set-dir folder: which, and whether the card differs from the built-in one
        rec["folder"] = {"name": designed[0], "card": designed[1]}
    m = d.model
    if isinstance(m, House):  # pragma: no cover - Houses are listed by house_records
        return rec
    if m.monster is not None:
        rec.update(level=d.level, treasures=d.treasures, levels=d.levels, undead=d.undead)
        if d.kin - {"undead"}:
            rec.update(tags=sorted(d.kin))
        if d.bonus_doors:
            rec.update(bonus_doors=d.bonus_doors)
    elif m.item is not None:
        rec.update(bonus=d.bonus, gold=d.gold, slot=d.slot, hands=d.hands, big=d.big, complex=d.complex, laser=d.laser)
        if d.steed:
            rec.update(steed=True, run_away=d.run_away, as_monster_level=d.level)
        if d.needs_steed:
            rec.update(needs_steed=True)
    elif m.one_shot is not None:
        rec.update(bonus=d.bonus, gold=d.gold, when=d.when)
    elif m.enhancer is not None:
        rec.update(strength=d.strength, treasures=d.treasures)
    elif m.curse is not None:
        rec.update(duration=d.duration, word=d.word)
    elif m.race is not None or m.class_ is not None or d.is_role or d.is_proficiency:
        rec.update(abilities=sorted(d.abilities), run_away=d.run_away)
        if d.is_proficiency:
            rec.update(rank=d.rank)
        if d.alone_bonus:
            rec.update(alone_bonus=d.alone_bonus)
    elif d.is_sidekick:
        rec.update(bonus=d.bonus, run_away=d.run_away, carries=d.carries, grants=sorted(d.abilities))
        if d.sex:
            rec.update(sex=d.sex, hands=d.extra_hands)
    elif d.is_item_enhancer:
        rec.update(bonus=d.bonus, gold=d.gold)
    elif m.special is not None:
        rec.update(when=d.when)
    return rec


# ====================================================================== play
@app.command()
def play(
    bots: Annotated[int, typer.Option(min=2, max=5, help="Number of bots (2 to 5).")] = 3,
    set_: Annotated[
        str | None, typer.Option("--set", help="Card set(s), comma-separated (default: the --set-dir sets, or deluxe).")
    ] = None,
    set_dir: SetDirs = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffle (default: random).")] = None,
    name: Annotated[str, typer.Option(help="Your name.")] = "Player",
    sex: Annotated[str | None, typer.Option(help="Your character's sex, male or female (default: at random).")] = None,
    house: Annotated[
        str | None, typer.Option(help="Harry Potter: your House, e.g. Slytherin (default: at random).")
    ] = None,
    bot_agent: Annotated[
        str,
        typer.Option(
            help="The bots: easy, medium or hard (docs/bots.md), or an agent: random, heuristic, search:fast, "
            "search, search:strong, or package.module:Class."
        ),
    ] = "medium",
    listen_at_the_door: Annotated[
        bool, typer.Option("--listen-at-the-door", help="Faster Play: draw a face-down Door first.")
    ] = False,
    shared_victories: Annotated[
        bool, typer.Option("--shared-victories", help="Faster Play: a helper may win too.")
    ] = False,
    load: Annotated[Path | None, typer.Option(help="Resume a game saved with 'save FILE'.")] = None,
) -> None:
    """Play Munchkin in the terminal against bots: you are seat 0. Answer by number or action text."""
    out = _out()
    designed = _add_set_dirs(set_dir)
    _check_agents([bot_agent])
    if load is not None:
        try:
            text = load.read_text(encoding="utf-8")
            problem = _save_origin_problem(text)
            if problem:
                raise CardError(problem)
            g = Game.from_json(text)
        except (OSError, ValueError, KeyError, TypeError, MunchkinError, CardError) as exc:
            out.print(f"[red]Error:[/red] cannot load {escape(str(load))}: {escape(str(exc))}")
            raise typer.Exit(1) from None
        seed = g.setup.seed if g.setup.seed is not None else secrets.randbelow(1_000_000)  # the bots' dice
    else:
        sets = _game_sets(set_, designed)
        _check_sets(sets)
        name = name.strip()
        if not name:
            raise typer.BadParameter("your name may not be empty", param_hint="--name")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        others = [n for n in NAMES if n.lower() != name.lower()][:bots]
        opts = Options(listen_at_the_door=listen_at_the_door, shared_victories=shared_victories)
        if sex is not None and sex not in ("male", "female"):
            raise typer.BadParameter("male or female", param_hint="--sex")
        sexes = declared_sexes([sex] + [None] * len(others), seed) if sex else None
        houses: list[str | None] | None = [house] + [None] * len(others) if house else None
        try:
            g = Game(Setup(sets, [name] + others, seed, opts, sexes, houses=houses, origin=game_origin(sets)))
        except MunchkinError as exc:
            raise typer.BadParameter(str(exc), param_hint="--house" if "House" in str(exc) else None) from None

    def warn(msg: str) -> None:
        out.print(f"[yellow]Note:[/yellow] {msg}")

    names = [p["name"] for p in g.view(0)["players"]]
    agents = {s: _make_bot(bot_agent, seed * 7919 + s, warn) for s in range(1, len(names))}
    out.print(
        f"Munchkin ({', '.join(g.setup.sets)}), seed {seed}. You are {escape(names[0])}; "
        f"the bots ({escape(_bot_label(bot_agent))}) are {escape(', '.join(names[1:]))}. Type 'help' for help."
    )
    Seat(g, agents, out).run()


# ====================================================================== serve
@app.command()
def serve(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", min=1, max=65535, help="Port to listen on (1 to 65535).")] = 8000,
    data: Annotated[Path, typer.Option(metavar="DIR", help="Folder for the SQLite database.")] = Path("munchkin-data"),
    db: Annotated[
        str | None,
        typer.Option(metavar="URL", help="A database URL instead of SQLite, e.g. postgresql://HOST/DB."),
    ] = None,
    tables_per_minute: Annotated[
        float, typer.Option(metavar="N", min=0, help="New tables a minute from one client address (0 = no limit).")
    ] = 10.0,
    tables_per_minute_total: Annotated[
        float, typer.Option(metavar="N", min=0, help="New tables a minute from everyone together (0 = no limit).")
    ] = 60.0,
    max_live_tables: Annotated[
        int,
        typer.Option(
            metavar="N", min=1, help="Unfinished tables held at once (at least 1); more are refused until some end."
        ),
    ] = 500,
    max_live_tables_per_address: Annotated[
        int,
        typer.Option(
            metavar="N", min=0, help="Unfinished tables created from one IPv4 address or IPv6 /64 (0 = no limit)."
        ),
    ] = 10,
    expire_unjoined: Annotated[
        float,
        typer.Option(metavar="MINUTES", min=0, help="Minutes an unfinished table nobody ever joined is kept idle."),
    ] = 30.0,
    expire_idle: Annotated[
        float, typer.Option(metavar="HOURS", min=0, help="Hours an unfinished table people left is kept idle.")
    ] = 24.0,
    keep_finished: Annotated[
        float, typer.Option(metavar="DAYS", min=0, help="Days a finished game and its replay are kept (0 = for ever).")
    ] = 30.0,
    replays_per_second: Annotated[
        float, typer.Option(metavar="N", min=0, help="Replay downloads served a second, server-wide (0 = no limit).")
    ] = 20.0,
    max_connections: Annotated[
        int,
        typer.Option(
            metavar="N", min=16, help="Open connections in all (at least 16; lowered to fit the open-files limit)."
        ),
    ] = 4096,
    max_connections_per_address: Annotated[
        int, typer.Option(metavar="N", min=0, help="Open connections from one IPv4 address or IPv6 /64 (0 = no limit).")
    ] = 64,
    requests_per_second: Annotated[
        float,
        typer.Option(
            metavar="N", min=0, help="HTTP requests and new connections a second from one address (0 = no limit)."
        ),
    ] = 20.0,
    header_timeout: Annotated[
        float,
        typer.Option(
            metavar="SECONDS", min=0.5, help="Seconds a client has to send a request's line and headers (at least 0.5)."
        ),
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            min=0.5,
            help="Seconds a client has to send a request's body after its headers (at least 0.5).",
        ),
    ] = 30.0,
    write_timeout: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            min=1,
            help="Seconds a client may leave what it is sent unread before it is cut off (at least 1).",
        ),
    ] = 30.0,
    max_websockets_per_address: Annotated[
        int, typer.Option(metavar="N", min=0, help="Open WebSockets from one IPv4 address or IPv6 /64 (0 = no limit).")
    ] = 16,
    max_spectators_per_table: Annotated[
        int, typer.Option(metavar="N", min=1, help="Spectators watching one table at once (at least 1).")
    ] = 50,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ADDRESS",
            help="A reverse proxy's address whose X-Forwarded-For names the client (repeat for several; "
            "default: the FORWARDED_ALLOW_IPS environment variable, else none).",
        ),
    ] = None,
    set_dir: SetDirs = None,
) -> None:
    """Serve the multiplayer table in the browser: a lobby, seats for people and bots, live play."""
    import logging
    import os

    from munchkin.server.config import ServerSettings
    from munchkin.server.serving import table_server
    from munchkin.server.store import DataFolderError, database_url

    _add_set_dirs(set_dir)  # the lobby offers their sets, and tables deal their cards
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    figures = {
        "--tables-per-minute": tables_per_minute,
        "--tables-per-minute-total": tables_per_minute_total,
        "--expire-unjoined": expire_unjoined,
        "--expire-idle": expire_idle,
        "--keep-finished": keep_finished,
        "--replays-per-second": replays_per_second,
        "--requests-per-second": requests_per_second,
        "--header-timeout": header_timeout,
        "--body-timeout": body_timeout,
        "--write-timeout": write_timeout,
    }
    for flag, value in figures.items():
        if not math.isfinite(value):
            raise typer.BadParameter(f"must be a finite number, not {value}", param_hint=flag)
    from_env = [p.strip() for p in os.environ.get("FORWARDED_ALLOW_IPS", "").split(",") if p.strip()]
    proxies = tuple(trusted_proxy or from_env)
    for proxy in proxies:
        if not _is_address(proxy):
            raise typer.BadParameter(f"{proxy!r} is not an IP address", param_hint="--trusted-proxy")
    sock = _listen_socket(host, port)  # before the address is announced: a port in use is said plainly
    try:
        url = database_url(data, db)
    except DataFolderError as exc:
        raise typer.BadParameter(str(exc), param_hint="--data") from None
    shown = url if db is None else url.split("@")[-1]
    print(f"Munchkin table: http://{host}:{port}/  (games stored in {shown})", flush=True)
    settings = ServerSettings(
        tables_per_minute=tables_per_minute,
        tables_per_minute_total=tables_per_minute_total,
        max_live_tables=max_live_tables,
        max_live_tables_per_address=max_live_tables_per_address,
        keep_finished_days=keep_finished,
        expire_unjoined_minutes=expire_unjoined,
        expire_idle_hours=expire_idle,
        replays_per_second=replays_per_second,
        max_connections=max_connections,
        max_connections_per_address=max_connections_per_address,
        requests_per_second=requests_per_second,
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        write_timeout=write_timeout,
        max_websockets_per_address=max_websockets_per_address,
        max_spectators_per_table=max_spectators_per_table,
        trusted_proxies=proxies,
    )
    server, most = table_server(url, settings, host, port)
    if most < max_connections:
        print(f"Note: at most {most} connections at once, to fit the limit on open files", flush=True)
    server.run(sockets=[sock])


def _is_address(text: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _listen_socket(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound here so that a port in use or a host that is not this
    machine's is one clear line and the flag to change (exit 1), never a traceback."""
    from munchkin.server.serving import listening_socket

    try:
        return listening_socket(host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else port - 1
            why = f"port {port} is already in use on {host}: choose another one with --port, e.g. --port {other}"
        elif exc.errno == errno.EACCES:
            why = f"this user may not listen on port {port}: choose one above 1023 with --port"
        else:
            why = f"cannot listen on {host} port {port} ({exc.strerror or exc}): check --host and --port"
        typer.echo(f"Error: {why}", err=True)
        raise typer.Exit(1) from None


# ====================================================================== simulate
def _summary_table(s: dict[str, Any]) -> Table:
    t = Table(title="Simulation", box=box.SIMPLE, show_header=False)
    t.add_column("what", style="bold")
    t.add_column("value")
    t.add_row("sets", ", ".join(s["sets"]))
    t.add_row("cards", origin_words(s.get("origin")))
    t.add_row("players / agents", f"{s['players']} / {', '.join(s['agents'])}")
    t.add_row("seeds", f"{s['seed']} to {s['seed'] + s['games'] - 1}" if s["games"] else "-")
    t.add_row("games", str(s["games"]))
    t.add_row("finished", str(s["finished"]))
    t.add_row("capped (no winner)", str(s["capped"]))
    agents = s["agents"]
    wins = ", ".join(
        f"seat {i + 1} ({NAMES[i]}, {agents[i % len(agents)]}): {w}" for i, w in enumerate(s["wins_by_seat"])
    )
    t.add_row("wins by seat", wins)
    if len(s["wins_by_agent"]) > 1:  # mixed agents: each one's wins over its seat-games, with the interval
        t.add_row(
            "wins by agent",
            "; ".join(
                f"{r['agent']} (seat{'s' if len(r['seats']) > 1 else ''} {', '.join(str(x + 1) for x in r['seats'])}): "
                f"{r['k']} of {r['n']} seat-games, "
                f"{100 * r['rate']:.1f}% (95%: {100 * r['low']:.1f} to {100 * r['high']:.1f})"
                for r in s["wins_by_agent"]
            ),
        )
    tr = s["turns"]
    t.add_row("turns", f"mean {tr['mean']:.1f}, median {tr['p50']:.0f}, 95th percentile {tr['p95']:.0f}")
    t.add_row("decisions", f"{s['decisions']} in {s['seconds']:.2f} s")
    t.add_row("decisions per second", f"{s['decisions_per_second']:,.0f}")
    t.add_row("games per second", f"{s['games_per_second']:.2f}")
    checked = "" if s["checked"] else " (not checked; use --check)"
    t.add_row("invariant violations", f"{s['invariant_violations']}{checked}")
    return t


@app.command()
def simulate(
    set_: Annotated[
        str | None, typer.Option("--set", help="Card set(s), comma-separated (default: the --set-dir sets, or deluxe).")
    ] = None,
    set_dir: SetDirs = None,
    players: Annotated[int, typer.Option(min=MIN_PLAYERS, max=MAX_PLAYERS, help="Players per game (3 to 6).")] = 4,
    games: Annotated[int, typer.Option(min=0, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    agents: Annotated[str, typer.Option(help=AGENTS_HELP)] = DEFAULT_AGENT,
    check: Annotated[bool, typer.Option("--check", help="Check every invariant after every step.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print only the summary as one JSON object.")] = False,
    save_log: Annotated[Path | None, typer.Option(help="Save each game as DIR/game-SEED.json.")] = None,
) -> None:
    """Play many games between bots and summarise them; exit 1 if an invariant was broken.

    A game stops at the turn cap (5000 turns, as in balance) if no one has won. Seats are numbered from 1 in
    the table and from 0 in --json (wins_by_seat[0] is the first seat), as the engine numbers them."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from munchkin import simulate as sim

    sets = _game_sets(set_, _add_set_dirs(set_dir))
    _check_sets(sets)
    agent_list = _split(agents)
    _check_agents(agent_list)
    err = _err()
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=as_json or not err.is_terminal,
    )
    with progress:
        task = progress.add_task("games", total=games)

        def tick(done: int) -> None:
            progress.update(task, completed=done)

        try:
            summary = sim.simulate(sets, players, games, seed, agent_list, check, progress=tick, save_dir=save_log)
        except ImportError as exc:
            err.print(f"Error: an agent is not available: {exc}")
            raise typer.Exit(2) from None
        except OSError as exc:
            err.print(f"Error: {exc}")
            raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        out = _out()
        out.print(_summary_table(summary))
        for v in summary["violations"]:
            out.print(f"[red]violation:[/red] {escape(v)}")
        if save_log is not None:
            out.print(f"Saved {summary['games']} game logs in {escape(str(save_log))}.")
    if summary["invariant_violations"] > 0:
        raise typer.Exit(1)


app.command("balance")(balance_command)
app.command("balance-merge")(balance_merge_command)
app.command("ladder")(ladder_command)


# ====================================================================== replay
@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game (JSON).")],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every action and what it did.")] = False,
    set_dir: SetDirs = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="N",
            help="Show the game after move N: the first N actions of the save's log (0: the deal; "
            "past the end: the end). Without it, --list, --seat, --spectator and --all list the moves.",
        ),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(metavar="S", help="As this seat saw it at the terminal: a number from 0, or a player's name."),
    ] = None,
    spectator: Annotated[
        bool, typer.Option("--spectator", help="As a spectator saw it: no hand (the default with --to).")
    ] = False,
    everything: Annotated[
        bool, typer.Option("--all", help="Everything, for an analyst: every hand and the decks' order, top first.")
    ] = False,
    list_: Annotated[bool, typer.Option("--list", help="Number the save's moves, to pick an N for --to.")] = False,
) -> None:
    """Replay a saved game from its seed and log; check that it rebuilds the same state. With --to N,
    show the game after its Nth move as one seat, a spectator or an analyst saw it; with --list, its
    numbered moves. Bad input to these exits 2 with one line saying why.

    A game dealt from a designer's folder is replayed with the same --set-dir: its save names the folder
    and the hash of its cards, and a replay without it, or with changed cards, says so before replaying."""
    stepping = to is not None or list_ or seat is not None or spectator or everything
    if stepping:
        views = [f for f, on in (("--seat", seat is not None), ("--spectator", spectator), ("--all", everything)) if on]
        if len(views) > 1:
            _bad_replay(f"choose one of --seat, --spectator and --all, not {' and '.join(views)}")
        if to is not None and not re.fullmatch(r"\s*\d+\s*", to):
            _bad_replay(f"--to takes a move number from 0 (the deal), not {to!r}")
        if verbose:
            _bad_replay("--verbose checks the whole save: use it without --to, --list, --seat, --spectator or --all")
    _add_set_dirs(set_dir)
    out = _out(lines=True)
    try:
        text = file.read_text(encoding="utf-8")
        data = json.loads(text)
        problem = _save_origin_problem(text)
        if problem:
            _bad_replay(f"{file} does not replay: {problem}", 2 if stepping else 1)
        g = Game.from_json(text)
    except OSError as exc:
        _bad_replay(f"cannot read {file}: {exc.strerror or exc}", 2 if stepping else 1)
    except UnicodeDecodeError:
        _bad_replay(f"{file} is not a saved game: it is not UTF-8 text", 2 if stepping else 1)
    except json.JSONDecodeError as exc:
        _bad_replay(f"{file} is not JSON: {exc}", 2 if stepping else 1)
    except (MunchkinError, CardError, KeyError, TypeError, ValueError, AttributeError) as exc:
        why = str(exc) or type(exc).__name__
        _bad_replay(f"{file} does not replay: {why}{_folder_hint(text, why)}", 2 if stepping else 1)
    if stepping:
        _replay_step(out, g, data, to, seat, everything, list_)
        return
    n = sum(1 for e in g.log if e[0] == "act")
    if verbose:
        _replay_verbose(out, data, g)
    out.print(f"replayed {n} actions: identical (fingerprint {g.fingerprint()})")
    if verbose:
        if g.winners:
            out.print(f"winner: {escape(' and '.join(g.name_of(s) for s in g.winners))} after {g.turn + 1} turns")
        elif g.capped:
            out.print(f"stopped at the turn cap ({g.turn} turns)")
        else:
            out.print(f"unfinished: turn {g.turn + 1}, waiting on {escape(', '.join(g.name_of(s) for s in g.to_act))}")


def _folder_hint(text: str, why: str) -> str:
    """For a save that names no designer folder (built-in sets, or saved before saves named their folder)
    whose move does not replay or whose set is unknown: that a folder may be missing, or in the way."""
    if not (re.match(r"log entry \d+ .* does not replay", why) or "unknown set" in why):
        return ""
    try:
        data = json.loads(text)
        setup = data["setup"]
        if setup.get("origin") is not None:
            return ""
        sets = [s for s in setup["sets"] if isinstance(s, str)]
    except (ValueError, KeyError, TypeError, AttributeError):
        return ""
    given = [o["set"] for o in set_dir_origins(sets)]
    if given:
        return f" (the save names no designer folder, but --set-dir replaced its set {given[0]!r}: try without it)"
    return " (if it was dealt from a designer's folder, saved before saves named their folder: give it with --set-dir)"


def _bad_replay(msg: str, code: int = 2) -> NoReturn:
    """A replay that cannot be made: one line saying why (on stdout, as replay's verdicts are), and
    exit 2 for bad input to a stepped replay, 1 for a save that does not replay when checked whole."""
    _out(lines=True).print(f"[red]Error:[/red] {escape(msg)}")
    raise typer.Exit(code)


def _replay_step(
    out: Console, loaded: Game, data: dict[str, Any], to: str | None, seat: str | None, everything: bool, list_: bool
) -> None:
    """`replay --to N` and `--list`: the numbered moves, and the game after move N as asked, from the
    save's record of every move's state when it has one (saved before records: played again)."""
    from munchkin import stepping

    record = data.get("record")

    names = [p["name"] for p in loaded.view(None)["players"]]
    who: int | str | None = stepping.ALL if everything else None
    if seat is not None:
        try:
            who = stepping.parse_seat(seat, names)
        except ValueError as exc:
            _bad_replay(f"--seat {seat}: {exc}")
    if list_ or to is None:
        texts = [e["act"] for e in data["log"] if isinstance(e, dict) and "act" in e]
        if len(texts) != len(stepping.logged_moves(loaded)):  # a save of rules 1 gained the passes it never said
            texts = [e["act"] for e in loaded.log_json() if "act" in e]
            record = None
        try:
            stepping.print_moves(out, loaded, texts, record)
        except (MunchkinError, KeyError, TypeError, IndexError, AttributeError) as exc:
            _bad_replay(f"the save's record of its moves is broken: {exc}", 1)
    if to is None:
        return
    total = len(stepping.logged_moves(loaded))
    asked = int(to)
    n = min(asked, total)
    if asked > total:
        out.print(f"Note: the save has {total} moves; showing the end (move {total}), not move {asked}.")
    try:
        at = stepping.step_to(loaded, n, record)
    except MunchkinError as exc:
        _bad_replay(f"the save's record of its moves is broken: {exc}", 1)
    stepping.show_at(out, at, who, n, total)


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A fair table's finished game, as its replay link gives it (JSON).")],
    set_dir: SetDirs = None,
) -> None:
    """Check that a fair table dealt honestly: the revealed secret matches the commitment shown at the
    table, and every shuffle, die roll and blind pick is what the table's generator gives for that
    secret and the players' entropy (docs/server.md, "Provably fair deals").

    Exit 0: honest; 1: not (the first draw that differs is named); 2: the file cannot be checked."""
    from munchkin.verify import Unverifiable, verify_text

    _add_set_dirs(set_dir)
    out = _out(lines=True)
    try:
        verdict = verify_text(file.read_text(encoding="utf-8"))
    except OSError as exc:
        out.print(f"[red]Error:[/red] cannot read {escape(str(file))}: {escape(exc.strerror or str(exc))}")
        raise typer.Exit(2) from None
    except UnicodeDecodeError:
        out.print(f"[red]Error:[/red] {escape(str(file))} cannot be checked: it is not UTF-8 text")
        raise typer.Exit(2) from None
    except Unverifiable as exc:
        out.print(f"[red]Error:[/red] {escape(str(file))} cannot be checked: {escape(str(exc))}")
        raise typer.Exit(2) from None
    colour = "green" if verdict.honest else "red"
    out.print(f"[{colour}]{escape(verdict.summary)}[/{colour}]")
    for line in verdict.details:
        out.print(f"  {escape(line)}")
    if not verdict.honest:
        raise typer.Exit(1)


def _action_from_raw(raw: list[Any]) -> Action:
    """An Action from its saved field list (JSON turns the `cards` tuple into a list)."""
    kind, seat, card, target, monster, cards, n, flag = raw
    return Action(kind, seat, card, target, monster, tuple(cards), n, flag)


def _replay_verbose(out: Console, data: dict[str, Any], loaded: Game) -> None:
    """Print each logged action and the narration it caused (as a spectator sees it); a game without
    a seed draws again the chance outcomes its save recorded."""
    from munchkin.engine.chance import RecordedChance, SystemChance

    setup = loaded.setup
    chance = None if loaded.seeded else RecordedChance(loaded.chance_log(), then=SystemChance())
    g = Game(setup, chance, loaded.rules)  # under the rules it was played with
    seen = 0
    for line in narrate(g, None, 0):
        out.print("  " + escape(line))
    seen = len(g.events)
    i = 0
    for entry in data["log"]:
        if "act" not in entry:
            continue
        i += 1
        a = _action_from_raw(entry["raw"]) if "raw" in entry else None
        out.print(f"{i:>5}. {escape(g.name_of(entry['seat']))}: {escape(entry['act'])}")
        if a is not None:
            g.apply(a)
        else:
            g.play(entry["act"], entry["seat"])
        for line in narrate(g, None, seen):
            out.print("       " + escape(line))
        seen = len(g.events)


# ====================================================================== scenario
@app.command()
def scenario(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files, or folders of *.yaml files.")],
    set_dir: SetDirs = None,
    trace: Annotated[
        bool,
        typer.Option(
            "--trace",
            help="After every step print the state: turn, prompt, who acts and their moves, players, fight, narration.",
        ),
    ] = False,
) -> None:
    """Run scenario files: PASS or FAIL for each, with every failed expectation and where the game stood
    after its step (prompt, who is to act, their legal moves); exit 1 on any failure.

    With --set-dir, a scenario's `sets:` naming the folder's set is dealt from the folder. With --trace,
    the state after every step is printed too, to see why a check passes or fails."""
    from munchkin.scenario import run_scenario

    _add_set_dirs(set_dir)

    out = _out(lines=True)
    files: list[Path] = []
    missing: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(p.rglob("*.yaml"))
        elif p.exists():
            files.append(p)
        else:
            missing.append(p)
    passed = failed = 0
    for p in missing:
        out.print(f"[red]FAIL[/red] {escape(str(p))}: no such file or folder")
        failed += 1
    for f in files:
        steps: list[str] = []
        try:
            result = run_scenario(f, trace=trace)
            failures = result.report()
            label = result.name
            steps = result.trace
        except Exception as exc:  # a crash in the engine is a failure of this scenario, not of the run
            failures = [f"crashed: {type(exc).__name__}: {exc}"]
            label = f.stem
        if not failures:
            passed += 1
            out.print(f"[green]PASS[/green] {escape(str(f))}: {escape(label)}")
        else:
            failed += 1
            out.print(f"[red]FAIL[/red] {escape(str(f))}: {escape(label)}")
            for x in failures:  # where the game stood after a failing step comes indented under it
                out.print(f"         {escape(x[2:])}" if x.startswith("  ") else f"       - {escape(x)}")
        for x in steps:
            out.print(f"       {escape(x)}")
    out.print(f"{passed} passed, {failed} failed")
    if failed or not (files or missing):
        if not (files or missing):
            out.print("no scenario files found")
        raise typer.Exit(1)


# ====================================================================== cards
@cards_app.command("check")
def cards_check(
    folders: Annotated[
        list[Path] | None,
        typer.Argument(metavar="FOLDER", help="A designer's set folder to check: the same as --set-dir FOLDER."),
    ] = None,
    set_: Annotated[
        str | None, typer.Option("--set", help="Only this set (default: the folders' sets, or every set).")
    ] = None,
    set_dir: SetDirs = None,
) -> None:
    """Load and validate every set: schema, names, numbers, deck counts, hooks. Exit 1 on a problem.

    Every problem of a set is listed at once, with file, line, card and field (docs/cards.md).

    Check your own set folder: munchkin cards check my-deluxe (the same as --set-dir my-deluxe)."""
    designed = _add_set_dirs([*(folders or []), *(set_dir or [])])
    out = _out(lines=True)
    names = _split(set_) if set_ else list(dict.fromkeys(designed)) or available_sets()
    bad = 0
    for name in names:
        try:
            cs = load_set(name)
        except CardError as exc:
            bad += 1
            out.print(f"[red]{escape(name)}: ERROR[/red] {escape(str(exc))}")
            continue
        doors = sum(c.copies for c in cs.cards if c.deck == "door")
        treasures = sum(c.copies for c in cs.cards if c.deck == "treasure")
        houses = f" (and {len(cs.house_cards)} House cards showing {len(cs.houses)} Houses)" if cs.houses else ""
        here = {o["set"]: o for o in set_dir_origins([name])}
        folder = (
            f" (from {escape(here[name]['folder'])}, cards sha256 {here[name]['sha256'][:SHORT_HASH]})"
            if name in here
            else ""
        )
        out.print(f"{escape(name)}: {doors} Door, {treasures} Treasure cards OK{houses}{folder}")
    if bad:
        raise typer.Exit(1)


@cards_app.command("list")
def cards_list(
    set_: Annotated[
        str | None, typer.Option("--set", help="Set(s), comma-separated (default: the --set-dir sets, or every set).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="A JSON array with one object per physical card.")] = False,
    set_dir: SetDirs = None,
) -> None:
    """List the cards of a set: a table, or with --json one object per physical card (copies counted)."""
    from munchkin.engine.cards import build_def

    designed = _add_set_dirs(set_dir)
    names = _split(set_) if set_ else list(dict.fromkeys(designed)) or available_sets()
    records: list[dict[str, Any]] = []
    house_rows: list[dict[str, Any]] = []
    defs: list[tuple[CardDef, int]] = []
    for name in names:
        try:
            cs = load_set(name)
        except CardError as exc:
            _err().print(f"Error: {exc}")
            raise typer.Exit(1) from None
        for card in cs.cards:
            d = build_def(len(defs), name, card, cs.terms)
            defs.append((d, card.copies))
            for k in range(card.copies):
                records.append(card_record(d, k + 1, card.copies))
        house_rows += house_records(name, cs)
    records += house_rows  # apart from both decks: "deck": "house"
    if as_json:
        typer.echo(json.dumps(records, indent=1))
        return
    out = _out()
    for deck in ("door", "treasure"):
        rows = [(d, n) for d, n in defs if d.deck == deck]
        total = sum(n for _, n in rows)
        t = Table(title=f"{deck.capitalize()} cards ({total})", box=box.SIMPLE_HEAD)
        t.add_column("Name")
        t.add_column("Copies", justify="right")
        t.add_column("Kind")
        t.add_column("Provenance")
        for d, n in sorted(rows, key=lambda r: (r[0].kind, r[0].name)):
            folder = designer_card(d.set, d.id)
            where = f" (folder {folder[0]}: {folder[1]})" if folder else ""
            t.add_row(escape(d.name), str(n), escape(card_summary(d)), escape(d.provenance + where))
        out.print(t)
    if house_rows:
        t = Table(title=f"House cards ({len(house_rows)}), chosen at setup", box=box.SIMPLE_HEAD)
        t.add_column("Card")
        t.add_column("Faces")
        t.add_column("Powers")
        for r in house_rows:
            powers = "; ".join(f"{f['name']}: {f['text']}" for f in r["faces"])
            t.add_row(escape(r["id"]), escape(" / ".join(f["name"] for f in r["faces"])), escape(powers))
        out.print(t)


@cards_app.command("copy")
def cards_copy(
    set_: Annotated[str, typer.Argument(help="The set to copy, e.g. deluxe.")],
    folder: Annotated[Path, typer.Argument(help="A new folder for the copy.")],
) -> None:
    """Copy a set's YAML files to a new folder: the start of your own set (see docs/cards.md).

    The copy keeps the set's name, so with --set-dir it replaces that set; its cards use the set's hooks."""
    import shutil

    try:
        cs = load_set(set_)
    except CardError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        typer.echo(f"Error: {folder} already exists: name a new folder", err=True)
        raise typer.Exit(1)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files = sorted(cs.path.glob("*.yaml"))
        for f in files:
            shutil.copyfile(f, folder / f.name)
    except OSError as exc:
        typer.echo(f"Error: cannot write {folder}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"Copied {len(files)} files of {set_} to {folder}. Edit them, then: munchkin cards check {folder}")


def house_records(set_name: str, cs: Any) -> list[dict[str, Any]]:
    """The double-sided House cards as JSON objects, each with its two Houses (outside both decks)."""
    houses = {h.id: h for h in cs.houses}
    out = []
    for hc in cs.house_cards:
        faces = []
        for f in hc.faces:
            h = houses[f]
            face = {"id": h.id, "name": h.name, "provenance": h.provenance, "text": h.text}
            face.update(abilities=list(h.house.abilities), run_away=h.house.run_away)
            if h.note:
                face["note"] = h.note
            faces.append(face)
        out.append({"id": hc.id, "set": set_name, "deck": "house", "kind": "house_card", "faces": faces})
    return out


if __name__ == "__main__":  # pragma: no cover
    app()
