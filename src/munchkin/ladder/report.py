"""Writes a ladder's report folder: index.html (the balance report's style, its plot inline), ladder.json
(every figure), ladder.csv (the agents' table), head_to_head.csv and ratings.png (the plot alone)."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

from munchkin.balance.report import PLOT_H, PLOT_W, _csv, _e, _page, _pct, _pyplot, _table
from munchkin.origin import origin_words

COLORS = ["#4a7bb7", "#c0392b", "#6a9f58", "#8e6bb7", "#d68910", "#5d6d7e", "#17a589", "#a04000"]


def _rate(r: dict[str, Any]) -> str:
    return f"{_pct(r['rate'])} ({_pct(r['low'])}–{_pct(r['high'])}; {r['k']}/{r['n']})"


def duration(ms: float) -> str:
    """A think time in the unit that suits it: 2.2 µs, 87 µs, 1.4 ms, 3.1 s."""
    if ms < 1:
        return f"{1000 * ms:.2g} µs" if ms < 0.01 else f"{1000 * ms:.0f} µs"
    if ms < 1000:
        return f"{ms:.2g} ms" if ms < 10 else f"{ms:.0f} ms"
    return f"{ms / 1000:.2g} s" if ms < 10000 else f"{ms / 1000:.0f} s"


def plot_ratings(s: dict[str, Any]) -> bytes:
    """Each agent's rating along the run (mu, ±3 sigma shaded) and at its end (mu with ±3 sigma bars), as PNG."""
    plt = _pyplot()
    fig, (along, end) = plt.subplots(
        1, 2, figsize=(PLOT_W, PLOT_H), gridspec_kw={"width_ratios": [3, 2]}, constrained_layout=True
    )
    history = s["history"]
    xs = [h["games"] for h in history]
    names = s["about"]["agents"]
    for a, name in enumerate(names):
        c = COLORS[a % len(COLORS)]
        mu = [h["ratings"][a]["mu"] for h in history]
        sd = [h["ratings"][a]["sigma"] for h in history]
        along.plot(xs, mu, color=c, label=name, linewidth=1.4)
        low, high = [m - 3 * x for m, x in zip(mu, sd)], [m + 3 * x for m, x in zip(mu, sd)]
        along.fill_between(xs, low, high, color=c, alpha=0.15)
    along.set_xlabel("games played")
    along.set_ylabel("rating: mu, ±3 sigma shaded")
    along.legend(frameon=False, fontsize=8)
    rows = list(reversed(s["agents"]))  # the best at the top
    ys = list(range(len(rows)))
    for y, r in zip(ys, rows):
        c = COLORS[names.index(r["agent"]) % len(COLORS)]
        end.errorbar(r["mu"], y, xerr=3 * r["sigma"], fmt="o", color=c, capsize=4)
    end.set_yticks(ys, [r["agent"] for r in rows])
    end.set_ylim(-0.6, len(rows) - 0.4)
    end.set_xlabel("at the end: mu ±3 sigma")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=144, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _about(s: dict[str, Any]) -> str:
    a, run = s["about"], s["run"]
    return (
        f"<p>{s['games']} games ({s['finished']} won, {s['capped']} stopped at the turn cap of {a['turn_cap']}) at "
        f"{a['players']} players between <b>{_e(', '.join(a['agents']))}</b>; editions "
        f"{_e('; '.join(a['sets']))}; seeds {a['seed']} to {a['seed'] + s['games'] - 1}; rules {a['rules']}. "
        f"Played in {run['seconds']:.1f} s on {_e(run['where'])} ({run['games_per_second']:.2f} games/s).</p>"
        f"<p class=note>Cards: {_e(origin_words(a.get('origin')))}.</p>"
        f"<p class=note>Command: <code>{_e(run['command'])}</code>. Files beside this page: ladder.json, ladder.csv, "
        "head_to_head.csv, ratings.png.</p>"
    )


def html_report(s: dict[str, Any], png: bytes) -> str:
    """The report page."""
    a = s["about"]
    body = [f"<h1>Ladder: {_e(', '.join(a['agents']))}</h1>", _about(s)]
    body.append("<h2>Ratings</h2>")
    body.append(
        _table(
            "agents",
            ["rank", "agent", "mu", "sigma", "ordinal (mu − 3σ)", "games", "wins", "win rate (95%)", "mean place"]
            + ["decisions", "think: median", "95th pct", "decisions/s", "any-time asks"],
            [
                [
                    str(r["rank"]),
                    f"<b>{_e(r['agent'])}</b>",
                    f"{r['mu']:.2f}",
                    f"{r['sigma']:.2f}",
                    f"{r['ordinal']:.2f}",
                    str(r["games"]) + (f" ({r['seats']} seats)" if r["seats"] != r["games"] else ""),
                    str(r["wins"]),
                    _rate(r["win_rate"]),
                    f"{r['mean_place']:.2f}",
                    str(r["think"]["decisions"]),
                    duration(r["think"]["median_ms"]),
                    duration(r["think"]["p95_ms"]),
                    f"{r['think']['decisions_per_second']:,.0f}",
                    f"{r['think']['any_time_asks']} ({r['think']['any_time_seconds']:.2f} s)",
                ]
                for r in s["agents"]
            ],
        )
    )
    body.append(
        f'<div class="fig"><img alt="Each agent\'s rating along the run and at its end" '
        f'style="width:100%;max-width:900px;height:auto" src="data:image/png;base64,{base64.b64encode(png).decode()}">'
        "</div>"
    )
    body.append(
        "<p class=note>Ratings are openskill's Plackett-Luce model fitted over each game's finishing order "
        "(the winner first, the others by Level, equal Levels sharing a place; a game stopped by the turn "
        "cap ranks everyone by Level), the games taken in order. mu is the rating, sigma its uncertainty; "
        "agents are ranked by the ordinal mu − 3σ (the left end of a bar on the right), a rating each is "
        "very likely above. How likely one agent's skill is above another's is under Head to head. "
        f"Win rate: wins per seat played (par {_pct(s['par'])}). Think time: each decision of an agent (an "
        "answer to what the game waits on), timed from its observation to its action; the median and 95th "
        "percentile are read from bins 4% wide. Any-time asks: the moments an agent that acts at any time "
        "was asked whether to (mostly a quick no), counted and timed apart.</p>"
    )
    body.append("<h2>Head to head</h2>")
    names = [r["agent"] for r in s["agents"]]
    pair = {(h["a"], h["b"]): h for h in s["head_to_head"]}

    def cell(x: str, y: str) -> str:
        if x == y:
            return "—"
        h = pair.get((x, y)) or pair.get((y, x))
        if h is None:
            return "never met"
        r, p = (h["a_ahead"], h["a_rated_above"]) if h["a"] == x else (h["b_ahead"], 1 - h["a_rated_above"])
        return f"{_rate(r)}; {h['games']} games<br><span class=note>skill above: {_pct(p)}</span>"

    body.append(
        _table("h2h", ["ahead of →", *names], [[f"<b>{_e(x)}</b>", *(cell(x, y) for y in names)] for x in names])
    )
    body.append(
        "<p class=note>Each cell: how often the row's agent finished ahead of the column's, of the times "
        "they sat at one table (an agent in several seats of a game is compared seat by seat), with its 95% "
        "interval, and the games they met in. Ties (equal Levels, or shared wins) count for neither, so a "
        "pair's two cells may add up to less than 100%. Skill above: how likely the row's rating is truly "
        "above the column's, from both ratings' mu and sigma.</p>"
    )
    body.append("<h2>Win rate by edition</h2>")
    eds = s["editions"]
    by_ed = {e["edition"]: {r["agent"]: r["win_rate"] for r in e["agents"]} for e in eds}
    body.append(
        _table(
            "editions",
            ["agent", *(f"{e['edition']} ({e['games']} games, {e['capped']} capped)" for e in eds)],
            [[f"<b>{_e(x)}</b>", *(_rate(by_ed[e["edition"]][x]) for e in eds)] for x in names],
        )
    )
    body.append("<h2>Seats</h2>")
    body.append(
        _table(
            "seats",
            ["agent", *(f"seat {i + 1}" + (" (first)" if i == 0 else "") for i in range(a["players"]))],
            [
                [f"<b>{_e(r['agent'])}</b>", *(f"{x['games']} games, {x['wins']} won" for x in r["by_seat"])]
                for r in s["agents"]
            ],
        )
    )
    body.append(
        "<p class=note>The seats are rotated so that every agent sits in every seat equally often (exactly, "
        "once the games are a multiple of the agents times the editions) and meets the others about "
        "equally; docs/ladder.md tells how.</p>"
    )
    return _page("Munchkin ladder", body)


def write_report(s: dict[str, Any], out: Path) -> Path:
    """Write the report folder; returns the page's path."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "ladder.json").write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    _csv(
        out / "ladder.csv",
        ["rank", "agent", "mu", "sigma", "ordinal", "games", "seats", "wins", "win_rate", "win_low", "win_high"]
        + ["mean_place", "decisions", "think_seconds", "think_median_ms", "think_p95_ms", "decisions_per_second"]
        + ["any_time_asks", "any_time_seconds"],
        [
            [
                r["rank"], r["agent"], r["mu"], r["sigma"], r["ordinal"], r["games"], r["seats"], r["wins"],
                r["win_rate"]["rate"], r["win_rate"]["low"], r["win_rate"]["high"], r["mean_place"],
                r["think"]["decisions"], r["think"]["seconds"], r["think"]["median_ms"], r["think"]["p95_ms"],
                r["think"]["decisions_per_second"], r["think"]["any_time_asks"], r["think"]["any_time_seconds"],
            ]
            for r in s["agents"]
        ],
    )  # fmt: skip
    _csv(
        out / "head_to_head.csv",
        ["a", "b", "games", "comparisons", "a_ahead", "a_rate", "a_low", "a_high", "b_ahead", "b_rate", "b_low"]
        + ["b_high", "ties", "a_rated_above"],
        [
            [
                h["a"], h["b"], h["games"], h["comparisons"], h["a_ahead"]["k"], h["a_ahead"]["rate"],
                h["a_ahead"]["low"], h["a_ahead"]["high"], h["b_ahead"]["k"], h["b_ahead"]["rate"],
                h["b_ahead"]["low"], h["b_ahead"]["high"], h["ties"], h["a_rated_above"],
            ]
            for h in s["head_to_head"]
        ],
    )  # fmt: skip
    png = plot_ratings(s)
    (out / "ratings.png").write_bytes(png)
    page = out / "index.html"
    page.write_text(html_report(s, png), encoding="utf-8")
    return page
