"""A table's stored row: a new one made (`new_table_row`, with its people's seat tokens), the game's setup and
rules read back from its config, and what the lobby lists of it (`table_summary`)."""

from __future__ import annotations

import secrets
from dataclasses import asdict
from typing import Any

from munchkin.cards.loader import origin_problem, set_dir_origins
from munchkin.engine.cards import card_version
from munchkin.engine.game import RULES, Options, Setup, declared_sexes
from munchkin.server.fairness import new_fair_record, public_fair
from munchkin.server.store import DamagedTable, SeatRow, TableRow, now, token_hash

AWAY_SECONDS = 120.0  # default: how long a person may be away before a bot plays their seat
JOIN_SECONDS = 30.0  # default: how long a seat nobody has opened waits, once someone sat down, before a bot plays it


def table_setup(row: TableRow) -> Setup:
    """The game's setup from a table's stored config (raises if the config is damaged, or DamagedTable
    if it was dealt from a designer folder this server was not given, or whose cards changed since)."""
    cfg = row.config
    problem = origin_problem(cfg.get("origin"), "table", sets=cfg.get("sets"), rules=cfg.get("rules"))
    if problem:
        raise DamagedTable(problem)
    seed = cfg.get("seed")
    seed = None if seed is None else int(seed)
    return Setup(
        sets=list(cfg["sets"]),
        players=[s.name for s in row.seats],
        seed=seed,
        options=Options(**cfg["options"]),
        sexes=cfg.get("sexes") if seed is None else declared_sexes(cfg.get("sexes"), seed),
        houses=cfg.get("houses"),
        # the cards the table began with (a table from before sets had versions: every set's first)
        card_versions=cfg.get("card_versions") or {s: 1 for s in cfg["sets"]},
        origin=cfg.get("origin"),
    )


def table_rules(row: TableRow) -> int:
    """The rules the table began under (see `munchkin.engine.game.RULES`)."""
    return int(row.config.get("rules", 1))


def table_summary(
    r: TableRow,
    connected: set[int] | frozenset[int] = frozenset(),
    spectators: int = 0,
    stand_ins: frozenset[int] = frozenset(),
    stopped: str = "",
) -> dict[str, Any]:
    """What the lobby shows of a table (public: no tokens, no cards). The seed is shown only when the
    table's creator chose it, since then whoever knows it can work out every hand; a fair table's
    commitment and entropy are shown, its secret only once the game is over."""
    cfg = r.config
    stopped = stopped or (f"its stored data is damaged: {r.damaged}" if r.damaged else "")
    return {
        "id": r.id,
        "name": r.name,
        "sets": cfg.get("sets", []),
        "status": "stopped" if stopped else r.status,
        "stopped": stopped or None,
        "turn": r.turn + 1,
        "created": r.created,
        "window_seconds": cfg.get("window_seconds"),
        "allow_wait": cfg.get("allow_wait", True),
        "away_seconds": cfg.get("away_seconds", AWAY_SECONDS),
        "join_seconds": cfg.get("join_seconds", JOIN_SECONDS),
        "turn_clock": cfg.get("turn_clock"),
        "pass_and_play": bool(cfg.get("pass_and_play")),
        "chat": cfg.get("chat", True),
        "spectator_chat": cfg.get("spectator_chat", True),
        "seed": cfg.get("seed") if cfg.get("seed_chosen") else None,
        "spectators": spectators,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "strength": s.strength,
                "claimed": s.claimed or s.kind == "bot",
                "connected": s.seat in connected,
                "stand_in": s.seat in stand_ins,
            }
            for s in r.seats
        ],
        "winners": r.winners,
        "fair": public_fair(cfg.get("fair"), r.status == "over"),
    }


def new_table_row(
    name: str,
    sets: list[str],
    seats: list[dict[str, Any]],
    options: dict[str, Any],
    window_seconds: float,
    bot_delay: float,
    seed: int | None,
    away_seconds: float = AWAY_SECONDS,
    turn_clock: float | None = None,
    allow_wait: bool = True,
    join_seconds: float = JOIN_SECONDS,
    device_token: str | None = None,
    chat: bool = True,
    spectator_chat: bool = True,
) -> tuple[TableRow, dict[int, str]]:
    """A fresh table and the secret token of each person's seat. Without a chosen seed the table keeps
    no seed at all: it is a fair table, dealt from a secret drawn now and the entropy its people give
    (`fairness.new_fair_record`), its chance outcomes stored one by one. A `device_token` makes it a
    pass-and-play table: that token (stored as its hash only) plays every person seat from one page."""
    tokens: dict[int, str] = {}
    rows = []
    for i, s in enumerate(seats):
        tok = ""
        if s["kind"] == "human":
            tok = tokens[i] = secrets.token_urlsafe(18)
        rows.append(
            SeatRow(i, s["name"], s["kind"], s.get("strength", "heuristic"), token_hash(tok) if tok else "", False)
        )
    cfg: dict[str, object] = {
        "sets": sets,
        "options": asdict(Options(**options)),
        "seed": seed,
        "seed_chosen": seed is not None,
        "bot_seed": seed if seed is not None else secrets.randbits(128),  # the bots' own dice, not the game's
        "window_seconds": window_seconds,
        "bot_delay": bot_delay,
        "away_seconds": away_seconds,
        "join_seconds": join_seconds,
        "turn_clock": turn_clock,
        "allow_wait": allow_wait,
        "chat": chat,
        "spectator_chat": spectator_chat,
        "rules": RULES,
        "card_versions": {s: card_version(s) for s in sets},
    }
    folders = set_dir_origins(sets)
    if folders:  # dealt from `serve --set-dir` folders: their names and hashes, checked when it is restored
        cfg["origin"] = {"set_dirs": folders}
    if seed is None:
        cfg["fair"] = new_fair_record(len(seats))
    if device_token is not None:
        cfg["pass_and_play"] = True
        cfg["device_hash"] = token_hash(device_token)
    if any(s.get("sex") for s in seats):  # declared sexes; the others are drawn by the game
        cfg["sexes"] = [s.get("sex") for s in seats]
    if any(s.get("house") for s in seats):  # declared Houses; the others are drawn by the game
        cfg["houses"] = [s.get("house") or None for s in seats]
    t = now()
    row = TableRow(secrets.token_hex(6), name, t, cfg, "playing", 0, [], rows, updated=t)
    return row, tokens
