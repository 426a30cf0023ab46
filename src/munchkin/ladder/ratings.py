"""A ladder's games read as ratings and tables: openskill's Plackett-Luce model fitted over each game's
finishing order, in game order, and counts with Wilson intervals (wins, head-to-head, editions, seats).

A game's finishing order: its winners first (sharing first place), then the others by Level, equal
Levels sharing a place; a game stopped by the turn cap has no winner and ranks everyone by Level.
Each seat is its own player in the model's update. An agent in several seats of a game (fewer agents
than seats) is pooled afterwards: its mu moves by the sum of its seats' moves and its variance
shrinks by the product of their shrinking factors, as if each seat's result had been learnt in turn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from openskill.models import PlackettLuce

from munchkin.balance.stats import wilson
from munchkin.ladder.games import League, Outcome, Timing

# The bots do not learn between games, so their skill is fixed: no drift is added before each game
# (openskill's tau, 25/300 by default, would keep sigma from narrowing as the games add up).
TAU = 0.0
Z = 3.0  # the ordinal is mu - 3 sigma, openskill's default: a rating the agent is very likely above
HISTORY_POINTS = 200  # the ratings kept for the plot and ladder.json: about this many moments of the run


def model() -> PlackettLuce:
    """The rating model: openskill's defaults (mu 25, sigma 25/3, beta 25/6) without drift."""
    return PlackettLuce(tau=TAU)


def places(o: Outcome) -> list[int]:
    """Each seat's place (1 is first): 1 + the number of seats that finished strictly ahead of it."""
    won = set(o.winners)
    keys = [(s not in won, -o.levels[s]) for s in range(len(o.seats))]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def fit(
    outcomes: Iterable[Outcome], agents: int
) -> tuple[list[tuple[float, float]], list[tuple[int, list[tuple[float, float]]]]]:
    """Each agent's (mu, sigma) after the games, taken in game order, and its ratings along the way:
    (games played so far, every agent's (mu, sigma)) at about HISTORY_POINTS moments."""
    m = model()
    mu = [m.mu] * agents
    sigma = [m.sigma] * agents
    games = sorted(outcomes, key=lambda o: o.game)
    every = max(1, len(games) // HISTORY_POINTS)
    history = [(0, list(zip(mu, sigma, strict=True)))]
    for n, o in enumerate(games, 1):
        teams = [[m.rating(mu=mu[a], sigma=sigma[a])] for a in o.seats]
        rated = m.rate(teams, ranks=[float(p) for p in places(o)])
        moved = dict.fromkeys(o.seats, 0.0)
        kept = dict.fromkeys(o.seats, 1.0)
        for a, (r,) in zip(o.seats, rated, strict=True):
            moved[a] += r.mu - mu[a]
            kept[a] *= (r.sigma / sigma[a]) ** 2
        for a in moved:
            mu[a] += moved[a]
            sigma[a] *= math.sqrt(kept[a])
        if n % every == 0 or n == len(games):
            history.append((n, list(zip(mu, sigma, strict=True))))
    return list(zip(mu, sigma, strict=True)), history


def above(a: tuple[float, float], b: tuple[float, float]) -> float:
    """How likely rating a's skill is above rating b's, each a normal (mu, sigma)."""
    return 0.5 * (1 + math.erf((a[0] - b[0]) / math.sqrt(2 * (a[1] ** 2 + b[1] ** 2))))


def rate(k: int, n: int) -> dict[str, Any]:
    """k of n as a rate with its Wilson 95% interval, the counts beside it."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else 0.0, "low": lo, "high": hi}


def think(t: Timing) -> dict[str, Any]:
    """An agent's time: its decisions (answers to what the game waits on), their seconds, the median and
    95th percentile of one decision's time, decisions a second; and the times it was asked whether to act
    at any time, with their seconds."""
    c = t.decide
    return {
        "decisions": c.decisions,
        "seconds": round(c.seconds, 3),
        "median_ms": 1000 * c.quantile(0.5),
        "p95_ms": 1000 * c.quantile(0.95),
        "decisions_per_second": round(c.decisions / c.seconds, 1) if c.seconds else 0.0,
        "any_time_asks": t.ask.decisions,
        "any_time_seconds": round(t.ask.seconds, 3),
    }


def summarize(league: League, outcomes: list[Outcome], timings: Mapping[int, Timing]) -> dict[str, Any]:
    """Everything the report shows. Apart from `think` in each agent's row, it depends on the games
    alone: the same seed and agents give the same summary on any number of workers."""
    k, p = len(league.agents), league.players
    outcomes = sorted(outcomes, key=lambda o: o.game)
    final, history = fit(outcomes, k)
    games = [0] * k
    seats_played = [0] * k
    wins = [0] * k
    place_sum = [0] * k
    by_seat = [[[0, 0] for _ in range(p)] for _ in range(k)]  # agent, seat: [games, wins]
    editions = [[[0, 0] for _ in league.editions] for _ in range(k)]  # agent, edition: [seats, wins]
    capped = [0] * len(league.editions)
    played = [0] * len(league.editions)
    pairs: dict[tuple[int, int], list[int]] = {}  # (a, b), a < b: [games, comparisons, a ahead, b ahead]
    for o in outcomes:
        won = set(o.winners)
        pl = places(o)
        played[o.edition] += 1
        capped[o.edition] += o.capped
        for a in set(o.seats):
            games[a] += 1
        for s, a in enumerate(o.seats):
            seats_played[a] += 1
            wins[a] += s in won
            place_sum[a] += pl[s]
            by_seat[a][s][0] += 1
            by_seat[a][s][1] += s in won
            editions[a][o.edition][0] += 1
            editions[a][o.edition][1] += s in won
        present = sorted(set(o.seats))
        for x, a in enumerate(present):
            for b in present[x + 1 :]:
                row = pairs.setdefault((a, b), [0, 0, 0, 0])
                row[0] += 1
                for sa, aa in enumerate(o.seats):
                    for sb, bb in enumerate(o.seats):
                        if aa == a and bb == b:
                            row[1] += 1
                            row[2] += pl[sa] < pl[sb]
                            row[3] += pl[sb] < pl[sa]
    rows: list[dict[str, Any]] = []
    for a, spec in enumerate(league.agents):
        mu, sigma = final[a]
        rows.append(
            {
                "agent": spec,
                "mu": mu,
                "sigma": sigma,
                "ordinal": mu - Z * sigma,
                "games": games[a],
                "seats": seats_played[a],
                "wins": wins[a],
                "win_rate": rate(wins[a], seats_played[a]),
                "mean_place": place_sum[a] / seats_played[a] if seats_played[a] else 0.0,
                "by_seat": [{"seat": s + 1, "games": g, "wins": w} for s, (g, w) in enumerate(by_seat[a])],
                "think": think(timings.get(a, Timing())),
            }
        )
    order = sorted(range(k), key=lambda a: (-final[a][0] + Z * final[a][1], a))  # the highest ordinal first
    for place, a in enumerate(order, 1):
        rows[a]["rank"] = place
    head = [
        {
            "a": league.agents[a],
            "b": league.agents[b],
            "games": g,
            "comparisons": n,
            "a_ahead": rate(ahead, n),
            "b_ahead": rate(behind, n),
            "ties": n - ahead - behind,
            "a_rated_above": above(final[a], final[b]),
        }
        for (a, b), (g, n, ahead, behind) in sorted(pairs.items())
    ]
    eds = [
        {
            "edition": ",".join(sets),
            "games": played[e],
            "capped": capped[e],
            "agents": [
                {"agent": league.agents[a], "win_rate": rate(editions[a][e][1], editions[a][e][0])} for a in order
            ],
        }
        for e, sets in enumerate(league.editions)
    ]
    return {
        "games": len(outcomes),
        "finished": sum(not o.capped for o in outcomes),
        "capped": sum(o.capped for o in outcomes),
        "par": 1 / p,
        "agents": [rows[a] for a in order],
        "head_to_head": head,
        "editions": eds,
        "history": [{"games": n, "ratings": [{"mu": mu, "sigma": sg} for mu, sg in r]} for n, r in history],
        "model": {
            "name": "openskill PlackettLuce",
            "mu": model().mu,
            "sigma": model().sigma,
            "beta": model().beta,
            "tau": TAU,
            "ordinal": f"mu - {Z:g} sigma",
        },
    }
