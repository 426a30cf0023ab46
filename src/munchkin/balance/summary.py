"""A tally read as the balance report's figures: rates with 95% intervals, tables by card.

`summarize` gives a plain dict (written as summary.json) computed from integer counts alone,
so the same games give the same summary wherever they ran. `compare` sets two side by side.
"""

from __future__ import annotations

from typing import Any

from munchkin.balance.record import CHARACTER_KINDS
from munchkin.balance.stats import mean_diff, newcombe, quantile, wilson
from munchkin.balance.tally import DECISION_BIN, FAR_BEHIND, Tally

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


def compare(a: Tally, b: Tally) -> dict[str, Any]:
    """Version B against version A: each difference (B − A) with its 95% interval."""
    fa, fb = a.games - a.capped, b.games - b.capped
    out: dict[str, Any] = {
        "games": [a.games, b.games],
        "seats": [
            {"seat": i, **diff(b.wins_by_seat[i], fb, a.wins_by_seat[i], fa)} for i in range(min(a.players, b.players))
        ],
        "capped": diff(b.capped, b.games, a.capped, a.games),
        "far_behind": diff(b.far_behind_games, b.games, a.far_behind_games, a.games),
    }
    sa = sum(k * v for k, v in a.turns.items())
    sb = sum(k * v for k, v in b.turns.items())
    d, lo, hi = mean_diff(sb, b.turns_sq, b.games, sa, a.turns_sq, a.games)
    out["mean_turns"] = {
        "a": _r(sa / a.games if a.games else 0.0),
        "b": _r(sb / b.games if b.games else 0.0),
        "diff": _r(d),
        "low": _r(lo),
        "high": _r(hi),
        "significant": bool(lo > 0 or hi < 0),
    }
    cards: list[dict[str, Any]] = []
    for k in sorted(set(a.cards) | set(b.cards)):
        info = b.info.get(k) or a.info.get(k)
        if info is None or info.kind == "house":
            continue
        ca, cb = a.cards.get(k), b.cards.get(k)
        ka, na = (ca.drawn_wins, ca.drawn) if ca else (0, 0)
        kb, nb = (cb.drawn_wins, cb.drawn) if cb else (0, 0)
        cards.append(
            {
                "id": k,
                "name": info.name,
                "kind": info.kind,
                "drawn": [na, nb],
                "win_when_drawn": [rate(ka, na)["rate"], rate(kb, nb)["rate"]],
                "change": diff(kb, nb, ka, na),
            }
        )
    monsters: list[dict[str, Any]] = []
    for k in sorted(set(a.monsters) | set(b.monsters)):
        info = b.info.get(k) or a.info.get(k)
        if info is None:
            continue
        ma, mb = a.monsters.get(k), b.monsters.get(k)
        fa_, fb_ = (ma.fought if ma else 0), (mb.fought if mb else 0)
        ka_ = min(fa_, (ma.killed_alone + ma.killed_helped) if ma else 0)
        kb_ = min(fb_, (mb.killed_alone + mb.killed_helped) if mb else 0)
        da, db = min(fa_, ma.deaths if ma else 0), min(fb_, mb.deaths if mb else 0)
        monsters.append(
            {
                "id": k,
                "name": info.name,
                "level": [x.level if x else None for x in (a.info.get(k), b.info.get(k))],
                "fought": [fa_, fb_],
                "kill_rate": [rate(ka_, fa_)["rate"], rate(kb_, fb_)["rate"]],
                "kill_change": diff(kb_, fb_, ka_, fa_),
                "death_change": diff(db, fb_, da, fa_),
            }
        )
    out["cards"] = sorted(cards, key=lambda r: (not r["change"]["significant"], -abs(r["change"]["diff"]), r["id"]))
    out["monsters"] = sorted(
        monsters, key=lambda r: (not r["kill_change"]["significant"], -abs(r["kill_change"]["diff"]), r["id"])
    )
    out["significant"] = {
        "cards": sum(r["change"]["significant"] for r in cards),
        "cards_of": len(cards),
        "monsters": sum(r["kill_change"]["significant"] for r in monsters),
        "monsters_of": len(monsters),
        "seats": sum(r["significant"] for r in out["seats"]),
    }
    return out
