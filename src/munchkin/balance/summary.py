"""A tally read as the balance report's figures: rates with 95% intervals, tables by card.

`summarize` gives a plain dict (written as summary.json) computed from integer counts alone,
so the same games give the same summary wherever they ran. `compare` sets two side by side.
"""

from __future__ import annotations

import math
from typing import Any

from munchkin.balance.paired import PairedTally
from munchkin.balance.record import CHARACTER_KINDS
from munchkin.balance.stats import games_needed, mean_diff, mover, newcombe, quantile, wilson
from munchkin.balance.tally import DECISION_BIN, FAR_BEHIND, CardTally, Tally

FEW = 50  # a row resting on fewer seat-games (or fights) than this is flagged "few"
DIGITS = 6  # rates are rounded so the JSON reads well; the counts beside them are exact


def _r(x: float) -> float:
    return round(x, DIGITS)


def rate(k: int, n: int) -> dict[str, Any]:
    """k of n as a rate with its Wilson 95% interval."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": _r(k / n if n else 0.0), "low": _r(lo), "high": _r(hi)}


def by_agent(wins_by_seat: list[int], agents: list[str], games: int) -> list[dict[str, Any]]:
    """Wins by agent spec when seat i plays agents[i % len(agents)]: the seats (from 0) each spec
    plays, and its wins (k) over its seat-games (n: games times its seats) with a Wilson 95% interval."""
    seats: dict[str, list[int]] = {}
    for seat in range(len(wins_by_seat)):
        seats.setdefault(agents[seat % len(agents)], []).append(seat)
    return [
        {"agent": spec, "seats": s, **rate(sum(wins_by_seat[i] for i in s), games * len(s))}
        for spec, s in seats.items()
    ]


def diff(k1: int, n1: int, k2: int, n2: int) -> dict[str, Any]:
    """p1 − p2 with its Newcombe 95% interval, and whether the interval leaves out zero."""
    d, lo, hi = newcombe(k1, n1, k2, n2)
    return {"diff": _r(d), "low": _r(lo), "high": _r(hi), "significant": bool(n1 and n2 and (lo > 0 or hi < 0))}


def _hist(c: dict[int, int]) -> dict[str, int]:
    return {str(k): c[k] for k in sorted(c)}


def _length(t: Tally) -> dict[str, Any]:
    n = t.games
    turns_sum = sum(k * v for k, v in t.turns.items())
    rounds: dict[int, int] = {}
    for k, v in t.turns.items():
        r = -(-k // t.players)
        rounds[r] = rounds.get(r, 0) + v
    return {
        "turns": {
            "mean": _r(turns_sum / n if n else 0.0),
            "median": quantile(t.turns, 0.5),
            "p5": quantile(t.turns, 0.05),
            "p95": quantile(t.turns, 0.95),
            "hist": _hist(t.turns),
        },
        "rounds": {"median": quantile(rounds, 0.5), "p95": quantile(rounds, 0.95)},
        "decisions": {
            "mean": _r(t.decisions_sum / n if n else 0.0),
            "median_bin": quantile(t.decisions, 0.5),
            "bin": DECISION_BIN,
            "hist": _hist(t.decisions),
        },
    }


def _levels(t: Tally) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    rounds = 1 + max((r for _, r in t.levels), default=-1)
    for seat in range(t.players):
        rows = []
        for r in range(rounds):
            c = t.levels.get((seat, r))
            if not c:
                continue
            rows.append(
                {
                    "round": r + 1,
                    "games": sum(c.values()),
                    "q1": quantile(c, 0.25),
                    "median": quantile(c, 0.5),
                    "q3": quantile(c, 0.75),
                }
            )
        out.append({"seat": seat, "rounds": rows})
    return out


def _cards(t: Tally) -> list[dict[str, Any]]:
    seat_games, wins = t.seat_games, t.wins
    rows: list[dict[str, Any]] = []
    for k, c in t.cards.items():
        info = t.info.get(k)
        if info is None or info.kind == "house":
            continue
        not_n, not_k = seat_games - c.drawn, wins - c.drawn_wins
        iwd = diff(c.drawn_wins, c.drawn, not_k, not_n)
        rows.append(
            {
                "id": k,
                "name": info.name,
                "set": info.set,
                "deck": info.deck,
                "kind": info.kind,
                "provenance": info.provenance,
                "drawn": c.drawn,
                "drawn_per_game": _r(c.drawn / t.games if t.games else 0.0),
                "win_when_drawn": rate(c.drawn_wins, c.drawn),
                "win_when_not_drawn": rate(not_k, not_n),
                "improvement_when_drawn": iwd,
                "played": c.played,
                "played_games": c.played_games,
                "win_when_played": rate(c.played_wins, c.played_games),
                "few": c.drawn < FEW or not_n < FEW,
            }
        )
    rows.sort(key=lambda r: (-r["improvement_when_drawn"]["diff"], r["id"]))
    return rows


def _monsters(t: Tally) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for k, m in t.monsters.items():
        info = t.info.get(k)
        if info is None:
            continue
        killed = m.killed_alone + m.killed_helped
        c = t.cards.get(k)
        rows.append(
            {
                "id": k,
                "name": info.name,
                "set": info.set,
                "level": info.level,
                "provenance": info.provenance,
                "fought": m.fought,
                "killed_alone": m.killed_alone,
                "killed_helped": m.killed_helped,
                "kill_rate": rate(min(killed, m.fought), m.fought),
                "escaped": m.escaped,
                "caught": m.caught,
                "deaths": m.deaths,
                "death_rate": rate(min(m.deaths, m.fought), m.fought),
                "other_end": m.other_end,
                "win_when_drawn": rate(c.drawn_wins, c.drawn) if c else rate(0, 0),
                "few": m.fought < FEW,
            }
        )
    rows.sort(key=lambda r: (r["kill_rate"]["rate"], r["id"]))
    return rows


def _characters(t: Tally) -> list[dict[str, Any]]:
    seat_games, wins = t.seat_games, t.wins
    rows: list[dict[str, Any]] = []
    for k, c in t.cards.items():
        info = t.info.get(k)
        if info is None or info.kind not in CHARACTER_KINDS or not c.held:
            continue
        rows.append(
            {
                "id": k,
                "name": info.name,
                "set": info.set,
                "kind": info.kind,
                "provenance": info.provenance,
                "held": c.held,
                "win_when_held": rate(c.held_wins, c.held),
                "against_not_held": diff(c.held_wins, c.held, wins - c.held_wins, seat_games - c.held),
                "few": c.held < FEW,
            }
        )
    rows.sort(key=lambda r: (CHARACTER_KINDS.index(r["kind"]), -r["win_when_held"]["rate"], r["id"]))
    return rows


def _help(t: Tally) -> dict[str, Any]:
    h = t.help
    asked, offered = h["asked"], h["volunteered"]
    taken = min(h["offer_taken"], offered)  # offers of help the fighter took (a tally of older code: 0)
    return {  # an ask is accepted, refused or compelled; an offer made unasked is taken or turned down
        "asked": asked,
        "asked_per_game": _r(asked / t.games if t.games else 0.0),
        "given": rate(min(h["given"] - taken, asked), asked),
        "refused": rate(min(h["refused"], asked), asked),
        "compelled": h["compelled"],
        "volunteered": offered,
        "offers_taken": rate(taken, offered),
        "offers_refused": h["offer_refused"],
        "fights_helped": h["given"] + h["compelled"],
        "backed_out": h["backed_out"],
        "treasures_promised_per_ask": _r(h["promised_treasures"] / asked if asked else 0.0),
        "cards_promised_per_ask": _r(h["promised_cards"] / asked if asked else 0.0),
        "monsters_bribed": h["monster_bribes"],
    }


def _curses(t: Tally) -> dict[str, Any]:
    c = t.curses
    played = c["played"]
    return {
        "played": played,
        "played_per_game": _r(played / t.games if t.games else 0.0),
        "on_the_leader": rate(min(c["on_leader"], played), played),
        "on_a_lower_level": rate(min(c["on_lower"], played), played),
        "on_oneself": rate(min(c["on_self"], played), played),
        "drawn_face_up": c["face_up"],
        "cancelled": c["cancelled"],
    }


def summarize(t: Tally, about: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report's figures from a tally; `about` (the version, seeds) is copied in as it is."""
    finished = t.games - t.capped
    par = 1 / t.players
    seat0 = t.wins_by_seat[0] if t.wins_by_seat else 0
    others = sum(t.wins_by_seat[1:])
    return {
        "about": about or {},
        "games": t.games,
        "finished": finished,
        "capped": t.capped,
        "players": t.players,
        "par": _r(par),
        "seats": [{"seat": i, **rate(w, finished)} for i, w in enumerate(t.wins_by_seat)],
        "agents": by_agent(t.wins_by_seat, list((about or {}).get("version", {}).get("agents", [])) or ["?"], finished),
        "first_player": {
            **rate(seat0, finished),
            "advantage": _r((seat0 / finished if finished else 0.0) - par),
            "against_the_others": diff(seat0, finished, others, finished * (t.players - 1)),
        },
        "length": _length(t),
        "levels": _levels(t),
        "far_behind": {
            "levels": FAR_BEHIND,
            "games": rate(t.far_behind_games, t.games),
            "seats_at_the_end": rate(t.far_behind_end, t.seat_games),
        },
        "cards": _cards(t),
        "monsters": _monsters(t),
        "characters": _characters(t),
        "help": _help(t),
        "curses": _curses(t),
    }


def _improvement(t: Tally, k: str, which: str = "drawn") -> dict[str, Any] | None:
    """A card's improvement when drawn (or held) in one version; None when nobody, or everybody, drew it."""
    c = t.cards.get(k) or CardTally()
    n1, k1 = (c.drawn, c.drawn_wins) if which == "drawn" else (c.held, c.held_wins)
    n0 = t.seat_games - n1
    if n1 == 0 or n0 <= 0:
        return None
    return diff(k1, n1, t.wins - k1, n0)


def _change(d: tuple[float, float, float] | dict[str, Any] | None, games: int, paired: bool) -> dict[str, Any] | None:
    """A difference B − A as the page gives it: rounded, whether its interval leaves out zero, whether
    it was read game by game (paired), and when not yet clear the games likely needed to settle it."""
    if d is None:
        return None
    if isinstance(d, dict):
        d = (d["diff"], d["low"], d["high"])
    v, lo, hi = d
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return {"diff": _r(v), "low": None, "high": None, "significant": False, "paired": paired, "games_needed": None}
    return {
        "diff": _r(v),
        "low": _r(lo),
        "high": _r(hi),
        "significant": bool(lo > 0 or hi < 0),
        "paired": paired,
        "games_needed": games_needed(v, lo, hi, games),
    }


def _triple(d: dict[str, Any] | None) -> tuple[float, float, float] | None:
    return None if d is None else (d["diff"], d["low"], d["high"])


def _both(ca: Any, cb: Any) -> tuple[float, float, float] | None:
    if ca is None or cb is None:
        return None
    return mover(ca, cb)


def _only_in(changed: list[dict[str, Any]] | None) -> dict[str, str]:
    return {ch["id"]: ch["change"][-1] for ch in changed or [] if ch["change"] in ("only in A", "only in B")}


def _order(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """Changed cards first, then the differences whose interval leaves out zero, largest first."""

    def k(r: dict[str, Any]) -> tuple[bool, bool, float, str]:
        ch = r[key]
        return (not r["changed"], not (ch and ch["significant"]), -abs(ch["diff"]) if ch else 0.0, r["id"])

    return sorted(rows, key=k)


def compare(
    a: Tally, b: Tally, paired: PairedTally | None = None, changed: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Version B against version A: each difference (B − A) with its 95% interval. With `paired` (the
    same seeds played under both, counted game by game) the intervals of the figures it holds are
    paired ones; `changed` (command.changed_cards) pins the designer's changed cards first."""
    games = min(a.games, b.games)
    pg = paired.games if paired else games
    changed_ids = [ch["id"] for ch in changed or []]
    only = _only_in(changed)
    fa, fb = a.games - a.capped, b.games - b.capped

    def pick(p: dict[str, Any] | None, unpaired: Any) -> dict[str, Any] | None:
        """The paired difference where it is defined; the unpaired one where it is not, or where every
        game gave the same difference (an interval of no width says only that too few events happened)."""
        if p is not None and (p["high"] - p["low"] > 1e-6 or unpaired is None):
            return _change(p, pg, True)
        return _change(unpaired, games, False)

    def card_row(k: str, info: Any, which: str, figure: str) -> dict[str, Any]:
        """A card's row: its seat-games `which` ("drawn", or "held" in play) in each version, its win rate
        then, its improvement (`figure`) in each and the change (none for a card in one version only)."""
        ca, cb = a.cards.get(k), b.cards.get(k)
        ia, ib = _improvement(a, k, which), _improvement(b, k, which)
        gone = only.get(k)
        wins = f"{which}_wins"
        return {
            "id": k,
            "name": info.name,
            "kind": info.kind,
            "changed": k in changed_ids,
            "only_in": gone,
            which: [getattr(ca, which) if ca else 0, getattr(cb, which) if cb else 0],
            f"win_when_{which}": [
                rate(getattr(ca, wins), getattr(ca, which)) if ca else None,
                rate(getattr(cb, wins), getattr(cb, which)) if cb else None,
            ],
            figure: [ia, ib],
            "change": None
            if gone
            else pick(paired.improvement(k, which) if paired else None, _both(_triple(ib), _triple(ia))),
        }

    out: dict[str, Any] = {
        "games": [a.games, b.games],
        "paired_games": paired.games if paired else 0,
        "seats": [
            {
                "seat": i,
                "a": rate(a.wins_by_seat[i], fa),
                "b": rate(b.wins_by_seat[i], fb),
                **(pick(paired.seat(i) if paired else None, diff(b.wins_by_seat[i], fb, a.wins_by_seat[i], fa)) or {}),
            }
            for i in range(min(a.players, b.players))
        ],
    }
    for key, index, ka, kb in (
        ("capped", 1, a.capped, b.capped),
        ("far_behind", 2, a.far_behind_games, b.far_behind_games),
    ):
        ch = pick(paired.figure(index) if paired else None, diff(kb, b.games, ka, a.games))
        out[key] = {"a": rate(ka, a.games), "b": rate(kb, b.games), **(ch or {})}
    pa, pb = a.players, b.players
    edge_a = diff(a.wins_by_seat[0], fa, sum(a.wins_by_seat[1:]), fa * (pa - 1))
    edge_b = diff(b.wins_by_seat[0], fb, sum(b.wins_by_seat[1:]), fb * (pb - 1))
    out["first_player"] = {
        "a": edge_a,
        "b": edge_b,
        "change": pick(paired.first_player_edge() if paired else None, _both(_triple(edge_b), _triple(edge_a))),
    }
    sa = sum(k * v for k, v in a.turns.items())
    sb = sum(k * v for k, v in b.turns.items())
    turns = pick(paired.figure(0) if paired else None, mean_diff(sb, b.turns_sq, b.games, sa, a.turns_sq, a.games))
    out["mean_turns"] = {
        "a": _r(sa / a.games if a.games else 0.0),
        "b": _r(sb / b.games if b.games else 0.0),
        **(turns or {}),
    }
    cards: list[dict[str, Any]] = []
    for k in sorted(set(a.cards) | set(b.cards) | set(changed_ids)):
        info = b.info.get(k) or a.info.get(k)
        if info is None or info.kind == "house":
            continue
        cards.append(card_row(k, info, "drawn", "improvement"))
    monsters: list[dict[str, Any]] = []
    for k in sorted(set(a.monsters) | set(b.monsters)):
        info = b.info.get(k) or a.info.get(k)
        if info is None:
            continue
        ma, mb = a.monsters.get(k), b.monsters.get(k)
        gone = only.get(k)
        row: dict[str, Any] = {
            "id": k,
            "name": info.name,
            "changed": k in changed_ids,
            "only_in": gone,
            "level": [x.level if x else None for x in (a.info.get(k), b.info.get(k))],
            "fought": [ma.fought if ma else 0, mb.fought if mb else 0],
        }
        for fig, field_ in (("kill", None), ("death", "deaths"), ("escape", "escaped")):
            counts = []
            for m in (ma, mb):
                f = m.fought if m else 0
                x = (m.killed_alone + m.killed_helped if field_ is None else getattr(m, field_)) if m else 0
                counts.append((min(f, x), f))
            (ka, na), (kb, nb) = counts
            row[f"{fig}_rate"] = [rate(ka, na), rate(kb, nb)]
            unpaired = diff(kb, nb, ka, na) if na and nb else None
            p = paired.monster(k, fig) if paired else None
            row[f"{fig}_change"] = None if gone else pick(p, unpaired)
        row["deaths"] = [ma.deaths if ma else 0, mb.deaths if mb else 0]
        monsters.append(row)
    characters: list[dict[str, Any]] = []
    for k in sorted(set(a.cards) | set(b.cards)):
        info = b.info.get(k) or a.info.get(k)
        ca, cb = a.cards.get(k), b.cards.get(k)
        if info is None or info.kind not in CHARACTER_KINDS or not ((ca and ca.held) or (cb and cb.held)):
            continue
        characters.append(card_row(k, info, "held", "against_not_held"))
    out["cards"] = _order(cards, "change")
    out["monsters"] = _order(monsters, "kill_change")
    out["characters"] = _order(characters, "change")
    out["pinned"] = changed_ids

    def marked(rows: list[dict[str, Any]], key: str) -> int:
        return sum(bool(r[key] and r[key]["significant"]) for r in rows)

    out["significant"] = {
        "cards": marked(cards, "change"),
        "cards_of": sum(r["change"] is not None for r in cards),
        "monsters": marked(monsters, "kill_change"),
        "monsters_of": sum(r["kill_change"] is not None for r in monsters),
        "seats": sum(bool(r.get("significant")) for r in out["seats"]),
    }
    return out
