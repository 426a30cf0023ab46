"""Writes a balance report folder: index.html (self-contained, plots inline), summary.json, CSV tables.

The page needs no network and no files beside it: plots are inline SVG drawn by matplotlib, the
style and the small table-sorting script are inline. The CSV tables hold every row, for people
who want to analyse further; the page shows every row too, flagged when it rests on few games.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from munchkin.balance.summary import FEW
from munchkin.engine.game import Options
from munchkin.origin import origin_words

PLOT_W, PLOT_H = 7.5, 3.4  # inches at matplotlib's 72 points: fits a laptop's column


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("the report's plots need matplotlib: pip install 'munchkin[balance]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "font.size": 9, "axes.spines.top": False, "axes.spines.right": False})
    return plt


def require_plots() -> None:
    """RuntimeError naming the extra to install when matplotlib is missing."""
    _pyplot()


def _svg(fig: Any) -> str:
    plt = _pyplot()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)  # the date drawn and RDF addresses
    return text[text.index("<svg") :]  # the inline element, without the XML prologue and doctype


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(r: dict[str, Any]) -> str:
    return f"{_pct(r['rate'])} ({_pct(r['low'])}–{_pct(r['high'])}; {r['k']}/{r['n']})"


def _diff(d: dict[str, Any]) -> str:
    sign = "+" if d["diff"] > 0 else ""
    mark = " *" if d.get("significant") else ""
    return f"{sign}{100 * d['diff']:.1f} pts ({100 * d['low']:+.1f} to {100 * d['high']:+.1f}){mark}"


def _e(x: Any) -> str:
    return html.escape(str(x))


# ------------------------------------------------------------------ plots


def plot_seats(s: dict[str, Any]) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(PLOT_W, PLOT_H * 0.8))
    seats = s["seats"]
    xs = [f"Seat {r['seat'] + 1}" + (" (first)" if r["seat"] == 0 else "") for r in seats]
    ys = [r["rate"] for r in seats]
    err = [[r["rate"] - r["low"] for r in seats], [r["high"] - r["rate"] for r in seats]]
    ax.bar(xs, ys, color="#4a7bb7", yerr=err, capsize=4)
    ax.axhline(s["par"], color="#c0392b", linestyle="--", linewidth=1, label=f"par: {_pct(s['par'])}")
    ax.set_ylabel("win rate (95% interval)")
    ax.legend(frameon=False)
    return _svg(fig)


def plot_hist(hist: dict[str, int], xlabel: str, width: float = 1.0) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(PLOT_W, PLOT_H * 0.8))
    xs = [int(k) for k in hist]
    ax.bar(xs, list(hist.values()), width=width, align="edge" if width > 1 else "center", color="#6a9f58")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    return _svg(fig)


def plot_levels(s: dict[str, Any]) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(PLOT_W, PLOT_H))
    colors = ["#4a7bb7", "#c0392b", "#6a9f58", "#8e6bb7", "#d68910", "#5d6d7e"]
    for row in s["levels"]:
        rounds = [r for r in row["rounds"] if r["games"] >= FEW] or row["rounds"]
        xs = [r["round"] for r in rounds]
        c = colors[row["seat"] % len(colors)]
        ax.plot(xs, [r["median"] for r in rounds], color=c, label=f"Seat {row['seat'] + 1}")
        ax.fill_between(xs, [r["q1"] for r in rounds], [r["q3"] for r in rounds], color=c, alpha=0.12)
    ax.set_xlabel(f"round (shown while {FEW} or more games are still going)")
    ax.set_ylabel("Level: median, quartiles shaded")
    ax.legend(frameon=False, ncol=3)
    return _svg(fig)


def plot_cards(rows: list[dict[str, Any]], n: int = 15) -> str:
    plt = _pyplot()
    solid = [r for r in rows if not r["few"]]
    pick = solid[:n] + solid[-n:] if len(solid) > 2 * n else solid
    pick = list(reversed(pick))
    fig, ax = plt.subplots(figsize=(PLOT_W, max(2.5, 0.19 * len(pick) + 0.8)))
    ys = list(range(len(pick)))
    d = [100 * r["improvement_when_drawn"]["diff"] for r in pick]
    lo = [100 * (r["improvement_when_drawn"]["diff"] - r["improvement_when_drawn"]["low"]) for r in pick]
    hi = [100 * (r["improvement_when_drawn"]["high"] - r["improvement_when_drawn"]["diff"]) for r in pick]
    ax.barh(ys, d, xerr=[lo, hi], color=["#6a9f58" if x > 0 else "#c0392b" for x in d], capsize=2)
    ax.set_yticks(ys, [r["name"] for r in pick], fontsize=7)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("improvement when drawn, points of win rate (95% interval)")
    return _svg(fig)


MONSTERS_NAMED = 8  # the monsters named on the kill-rate plot: those furthest from the Level trend


def _off_the_line(xs: list[float], ys: list[float]) -> list[int]:
    """Indices of the points, furthest first from the least-squares line through them."""
    n = len(xs)
    if n < 3:
        return list(range(n))
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    return sorted(range(n), key=lambda i: -abs(ys[i] - (my + slope * (xs[i] - mx))))


def plot_monsters(rows: list[dict[str, Any]]) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(PLOT_W, PLOT_H))
    from matplotlib.ticker import MaxNLocator

    rows = [r for r in rows if r["fought"]]
    xs = [r["level"] for r in rows]
    ys = [100 * r["kill_rate"]["rate"] for r in rows]
    ax.scatter(
        xs, ys, s=[8 + 60 * r["fought"] / max(x["fought"] for x in rows) for r in rows], alpha=0.6, color="#8e6bb7"
    )
    per_point = (max(ys) - min(ys) or 1) / (PLOT_H * 72 * 0.75)  # data units of y in one typographic point
    named: list[tuple[float, float]] = []  # where names went: Level, height in data units
    for i in _off_the_line(xs, ys)[:MONSTERS_NAMED]:  # the surprises are worth a name
        for lift in (3, -10, 14, -21, 25):  # beside the dot, else below, above, ...: clear of the names so far
            at = ys[i] + lift * per_point
            if not any(abs(xs[i] - x) < 2 and abs(at - y) < 9 * per_point for x, y in named):
                break
        ax.annotate(rows[i]["name"], (xs[i], ys[i]), xytext=(5, lift), textcoords="offset points", fontsize=7)
        named.append((xs[i], at))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"monster Level (dot size: times fought; named: the {MONSTERS_NAMED} furthest from the trend)")
    ax.set_ylabel("killed, % of fights")
    return _svg(fig)


def plot_characters(rows: list[dict[str, Any]], par: float) -> str:
    plt = _pyplot()
    rows = list(reversed(rows))
    fig, ax = plt.subplots(figsize=(PLOT_W, max(2.5, 0.19 * len(rows) + 0.8)))
    ys = list(range(len(rows)))
    w = [100 * r["win_when_held"]["rate"] for r in rows]
    lo = [100 * (r["win_when_held"]["rate"] - r["win_when_held"]["low"]) for r in rows]
    hi = [100 * (r["win_when_held"]["high"] - r["win_when_held"]["rate"]) for r in rows]
    ax.barh(ys, w, xerr=[lo, hi], color="#4a7bb7", capsize=2)
    ax.set_yticks(ys, [f"{r['name']} ({r['kind']})" for r in rows], fontsize=7)
    ax.axvline(100 * par, color="#c0392b", linestyle="--", linewidth=1)
    ax.set_xlabel("win rate of the seats that had it in play, % (95% interval; dashed: par)")
    return _svg(fig)


# ------------------------------------------------------------------ tables


def _table(cls: str, head: list[str], rows: Iterable[list[str]], few: Iterable[bool] | None = None) -> str:
    flags = list(few) if few is not None else None
    out = [f'<table class="{cls} sortable"><thead><tr>']
    out += [f"<th>{_e(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        attr = ' class="few"' if flags and flags[i] else ""
        out.append(f"<tr{attr}>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _few(flag: bool) -> str:
    return ' <span class="badge" title="fewer than the games needed to read this row">few</span>' if flag else ""


STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1280px;padding:1rem 1.2rem;color:#222}
h1{font-size:1.6rem;margin:.2rem 0}h2{margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px;margin:.6rem 0;width:100%}
th,td{border-bottom:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f6f6f6;position:sticky;top:0}
tr.few td{color:#888}.badge{background:#f2d7a0;color:#5a3d00;border-radius:3px;padding:0 4px;font-size:11px}
.fig svg{width:100%;max-width:900px;height:auto}
td{white-space:nowrap}.note{color:#555;font-size:13px}
.scroll{max-height:36rem;overflow:auto;border:1px solid #eee}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.8rem}
.tile{border:1px solid #ddd;border-radius:6px;padding:.5rem .8rem}.big{font-size:1.4rem;font-weight:600}
"""

SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (t) {
  t.querySelectorAll('th').forEach(function (th, i) {
    th.addEventListener('click', function () {
      var body = t.tBodies[0], rows = Array.from(body.rows), up = th.dataset.dir !== 'up';
      th.dataset.dir = up ? 'up' : 'down';
      var key = function (r) { var s = r.cells[i].textContent.trim(), n = parseFloat(s.replace(/[^0-9.+-]/g, ''));
        return isNaN(n) ? s.toLowerCase() : n; };
      rows.sort(function (a, b) { var x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1); });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""


def _page(title: str, body: list[str]) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
        + "".join(body)
        + f"<script>{SCRIPT}</script></body></html>"
    )


def _origin_note(s: dict[str, Any], who: str = "") -> str:
    """Where a run's cards came from, in a line under its header (summary.json keeps the full hashes)."""
    words = origin_words(s.get("about", {}).get("origin"))
    return f"<p class=note>{_e(who + ' cards' if who else 'Cards')}: {_e(words)}.</p>"


def _about(s: dict[str, Any], who: str = "") -> str:
    """The header of a run's page: what was played, on which seeds, and where its cards came from."""
    a = s.get("about", {})
    v = a.get("version", {})
    base = asdict(Options())
    given = v.get("options") or {}
    changed = [f"{k}={val}" for k, val in sorted(given.items()) if k != "turn_cap" and base.get(k) != val]
    opts = (", ".join(changed) or "none") + f" (turn cap {given.get('turn_cap', base['turn_cap'])})"
    return (
        f"<p>{s['games']} games ({s['finished']} won, {s['capped']} stopped at the turn cap) of "
        f"<b>{_e(', '.join(v.get('sets', [])))}</b> at {s['players']} players, agents "
        f"{_e(', '.join(v.get('agents', [])))}; seeds {_seeds(a, s['games'])}; optional rules {_e(opts)}"
        + (f"; {v['designer_sets']} designer set folder(s)" if v.get("designer_sets") else "")
        + ". Every rate comes with its 95% interval (Wilson) and the count behind it; rows resting on fewer "
        f"than {FEW} seat-games or fights are marked <span class=badge>few</span> and greyed, not hidden.</p>"
    ) + _origin_note(s, who)


def _kind(kind: str) -> str:
    """A card kind as the page shows it ("one_shot" is "one-shot"); the CSV keeps the data's word."""
    return {"one_shot": "one-shot"}.get(kind, kind.replace("_", " "))


def _seeds(a: dict[str, Any], games: int) -> str:
    """The seeds a report rests on: one range, or the ranges of merged runs."""
    ranges = a.get("seed_ranges") or [[a.get("seed", 0), a.get("seed", 0) + games - 1]]
    return ", ".join(f"{lo} to {hi}" for lo, hi in ranges)


def html_report(s: dict[str, Any], run: dict[str, Any] | None = None) -> str:
    """The report page of one run."""
    fp = s["first_player"]
    length = s["length"]
    h, cu = s["help"], s["curses"]
    body = [f"<h1>Balance report: {_e(', '.join(s.get('about', {}).get('version', {}).get('sets', [])))}</h1>"]
    body.append(_about(s))
    if run:
        body.append(
            f"<p class=note>Played in {run['seconds']:.0f} s on {_e(run['where'])} "
            f"({run['games_per_second']:.1f} games/s). Files beside this page: summary.json, "
            "cards.csv, monsters.csv, characters.csv, seats.csv, agents.csv, levels.csv.</p>"
        )
    body.append('<div class="tiles">')
    body.append(
        f'<div class="tile">First player wins<div class="big">{_pct(fp["rate"])}</div>'
        f"{_pct(fp['low'])}–{_pct(fp['high'])} against par {_pct(s['par'])}; "
        f"against the other seats {_diff(fp['against_the_others'])}</div>"
    )
    body.append(
        f'<div class="tile">Game length<div class="big">{length["turns"]["median"]:.0f} turns</div>'
        f"median; mean {length['turns']['mean']:.1f}, 5–95%: {length['turns']['p5']:.0f}–"
        f"{length['turns']['p95']:.0f}; {length['decisions']['mean']:.0f} decisions a game</div>"
    )
    fb = s["far_behind"]
    body.append(
        f'<div class="tile">Left far behind<div class="big">{_pct(fb["games"]["rate"])}</div>of games had a '
        f"player {fb['levels']}+ Levels below the leader at a round's start ({_pct(fb['games']['low'])}–"
        f"{_pct(fb['games']['high'])}); {_pct(fb['seats_at_the_end']['rate'])} of players end that far behind</div>"
    )
    body.append("</div>")

    body.append("<h2>Wins by seat</h2>")
    body.append(f'<div class="fig">{plot_seats(s)}</div>')
    body.append(
        _table(
            "seats",
            ["seat", "wins", "win rate (95%)"],
            [[str(r["seat"] + 1) + (" (first)" if r["seat"] == 0 else ""), str(r["k"]), _rate(r)] for r in s["seats"]],
        )
    )
    body.append(
        "<p class=note>Seat 1 takes the first turn. With one winner a game, par is 1 / players. The first "
        "player's edge is the first seat's rate against the other seats' pooled rate (Newcombe interval; * "
        "marks an interval that leaves out zero).</p>"
    )
    agents = s.get("agents", [])
    if len(agents) > 1:  # mixed agents: how each one did over the seats it played
        body.append("<h2>Wins by agent</h2>")
        body.append(
            _table(
                "agents",
                ["agent", "seats", "wins", "win rate (95%)"],
                [[r["agent"], ", ".join(str(x + 1) for x in r["seats"]), str(r["k"]), _rate(r)] for r in agents],
            )
        )
        body.append(
            "<p class=note>An agent's rate is its wins over its seat-games (finished games times the seats it "
            "played), with a Wilson 95% interval; par is 1 / players.</p>"
        )

    body.append("<h2>Game length</h2>")
    body.append(f'<div class="fig">{plot_hist(length["turns"]["hist"], "turns")}</div>')
    body.append(
        f'<div class="fig">{plot_hist(length["decisions"]["hist"], "decisions", length["decisions"]["bin"])}</div>'
    )

    body.append("<h2>Levels by round</h2>")
    body.append(f'<div class="fig">{plot_levels(s)}</div>')

    cards = s["cards"]
    body.append("<h2>Cards: improvement when drawn</h2>")
    body.append(
        "<p class=note>For each card: the win rate of the players who drew it in a game, against the win rate "
        'of those who did not (17lands\' "improvement when drawn"). Players who draw more cards win more, '
        "so most cards show a gain: read a card against the others, not against zero. A Curse drawn is a "
        "card its drawer may play on someone else; a monster drawn face-down can be played to Look For "
        f"Trouble. The plot shows the 15 strongest and 15 weakest of the cards drawn in {FEW} or more "
        "seat-games; the table lists all.</p>"
    )
    body.append(f'<div class="fig">{plot_cards(cards)}</div>')
    body.append('<div class="scroll">')
    body.append(
        _table(
            "cards",
            ["card", "kind", "set", "drawn (per game)", "win when drawn", "not drawn", "improvement", "played"],
            [
                [
                    _e(r["name"]) + _few(r["few"]),
                    _e(_kind(r["kind"])),
                    _e(r["set"]) + ("" if r["provenance"] != "original" else " (original)"),
                    f"{r['drawn']} ({r['drawn_per_game']:.2f})",
                    _rate(r["win_when_drawn"]),
                    _pct(r["win_when_not_drawn"]["rate"]),
                    _diff(r["improvement_when_drawn"]),
                    str(r["played"]),
                ]
                for r in cards
            ],
            [r["few"] for r in cards],
        )
    )
    body.append("</div>")

    mons = s["monsters"]
    body.append("<h2>Monsters</h2>")
    if mons:
        body.append(f'<div class="fig">{plot_monsters(mons)}</div>')
    body.append(
        "<p class=note>Fought: fights it was in (kicked open, fought from the hand, joined as a Wandering "
        "Monster). Escaped: a fighter Ran Away from it; caught: the roll failed; deaths: its Bad Stuff "
        "killed the fighter; other: bribed, charmed, chased or sent away by a card. Sorted by kill rate, "
        "the hardest first.</p>"
    )
    body.append('<div class="scroll">')
    body.append(
        _table(
            "monsters",
            ["monster", "Level", "fought", "killed alone", "with help", "kill rate", "escaped", "caught", "deaths"]
            + ["other", "drawer's win rate"],
            [
                [
                    _e(r["name"]) + _few(r["few"]),
                    str(r["level"]),
                    str(r["fought"]),
                    str(r["killed_alone"]),
                    str(r["killed_helped"]),
                    _rate(r["kill_rate"]),
                    str(r["escaped"]),
                    str(r["caught"]),
                    str(r["deaths"]),
                    str(r["other_end"]),
                    _rate(r["win_when_drawn"]),
                ]
                for r in mons
            ],
            [r["few"] for r in mons],
        )
    )
    body.append("</div>")

    chars = s["characters"]
    body.append("<h2>Races, Classes, Roles, Houses, Steeds and Sidekicks</h2>")
    if chars:
        body.append(f'<div class="fig">{plot_characters(chars, s["par"])}</div>')
    body.append(
        "<p class=note>Win rate of the players who had the card in play at some time in the game (a House: "
        "chosen at setup), against the players who did not.</p>"
    )
    body.append(
        _table(
            "characters",
            ["card", "kind", "held (seat-games)", "win when held", "against the others"],
            [
                [
                    _e(r["name"]) + _few(r["few"]),
                    _e(_kind(r["kind"])),
                    str(r["held"]),
                    _rate(r["win_when_held"]),
                    _diff(r["against_not_held"]),
                ]
                for r in chars
            ],
            [r["few"] for r in chars],
        )
    )

    body.append("<h2>Help and bribes</h2>")
    body.append(
        f"<p>Help asked {h['asked']} times ({h['asked_per_game']:.2f} a game): accepted {_rate(h['given'])}, "
        f"refused {_rate(h['refused'])}, compelled by an Item {h['compelled']} times. Help offered unasked "
        f"{h['volunteered']} times: taken {_rate(h['offers_taken'])}, turned down {h['offers_refused']} times. "
        f"{h['fights_helped']} fights had a helper; a helper backed out of a winning fight "
        f"{h['backed_out']} times. The bribe offered: {h['treasures_promised_per_ask']:.2f} Treasures and "
        f"{h['cards_promised_per_ask']:.2f} cards per ask. Monsters bribed away: {h['monsters_bribed']}.</p>"
    )
    body.append("<h2>Curses</h2>")
    body.append(
        f"<p>Played {cu['played']} times ({cu['played_per_game']:.2f} a game), and {cu['drawn_face_up']} struck "
        f"face-up from the Door deck; {cu['cancelled']} were cancelled. Of those played: on the leader "
        f"(a player at the highest Level) {_rate(cu['on_the_leader'])}; on a player below the curser "
        f"{_rate(cu['on_a_lower_level'])}; on oneself {_rate(cu['on_oneself'])}.</p>"
    )
    return _page("Munchkin balance report", body)


# ------------------------------------------------------------------ the folder


def _csv(path: Path, head: list[str], rows: Iterable[list[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)


def _rate_cols(r: dict[str, Any]) -> list[Any]:
    return [r["k"], r["n"], r["rate"], r["low"], r["high"]]


def write_tables(s: dict[str, Any], out: Path) -> None:
    """The CSV tables of a summary: every row, counts and rates with their intervals."""
    rc = ["wins", "games", "rate", "low", "high"]
    _csv(out / "seats.csv", ["seat", *rc], [[r["seat"] + 1, *_rate_cols(r)] for r in s["seats"]])
    _csv(
        out / "agents.csv",
        ["agent", "seats", *rc],
        [[r["agent"], " ".join(str(x + 1) for x in r["seats"]), *_rate_cols(r)] for r in s.get("agents", [])],
    )
    _csv(
        out / "levels.csv",
        ["seat", "round", "games", "q1", "median", "q3"],
        [
            [row["seat"] + 1, r["round"], r["games"], r["q1"], r["median"], r["q3"]]
            for row in s["levels"]
            for r in row["rounds"]
        ],
    )
    _csv(
        out / "cards.csv",
        ["id", "name", "set", "deck", "kind", "provenance", "drawn", "drawn_per_game"]
        + ["drawn_wins", "win_when_drawn", "low", "high", "win_when_not_drawn"]
        + ["improvement_when_drawn", "improvement_low", "improvement_high", "played", "played_games"]
        + ["win_when_played", "few"],
        [
            [
                r["id"], r["name"], r["set"], r["deck"], r["kind"], r["provenance"], r["drawn"], r["drawn_per_game"],
                r["win_when_drawn"]["k"], r["win_when_drawn"]["rate"], r["win_when_drawn"]["low"],
                r["win_when_drawn"]["high"], r["win_when_not_drawn"]["rate"],
                r["improvement_when_drawn"]["diff"], r["improvement_when_drawn"]["low"],
                r["improvement_when_drawn"]["high"], r["played"], r["played_games"],
                r["win_when_played"]["rate"], r["few"],
            ]
            for r in s["cards"]
        ],
    )  # fmt: skip
    _csv(
        out / "monsters.csv",
        ["id", "name", "set", "level", "provenance", "fought", "killed_alone", "killed_helped", "kill_rate"]
        + ["kill_low", "kill_high", "escaped", "caught", "deaths", "other_end", "win_when_drawn", "few"],
        [
            [
                r["id"], r["name"], r["set"], r["level"], r["provenance"], r["fought"], r["killed_alone"],
                r["killed_helped"], r["kill_rate"]["rate"], r["kill_rate"]["low"], r["kill_rate"]["high"],
                r["escaped"], r["caught"], r["deaths"], r["other_end"], r["win_when_drawn"]["rate"], r["few"],
            ]
            for r in s["monsters"]
        ],
    )  # fmt: skip
    _csv(
        out / "characters.csv",
        ["id", "name", "set", "kind", "provenance", "held", *rc[:1], "win_when_held", "low", "high", "vs_others"]
        + ["vs_low", "vs_high", "few"],
        [
            [
                r["id"], r["name"], r["set"], r["kind"], r["provenance"], r["held"], r["win_when_held"]["k"],
                r["win_when_held"]["rate"], r["win_when_held"]["low"], r["win_when_held"]["high"],
                r["against_not_held"]["diff"], r["against_not_held"]["low"], r["against_not_held"]["high"], r["few"],
            ]
            for r in s["characters"]
        ],
    )  # fmt: skip


def write_report(s: dict[str, Any], out: Path, run: dict[str, Any] | None = None) -> Path:
    """Write a run's report folder; returns the page's path. `run` (timing) goes in run.json, not in
    summary.json, which depends on the games alone."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(s, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if run is not None:
        (out / "run.json").write_text(json.dumps(run, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    write_tables(s, out)
    page = out / "index.html"
    page.write_text(html_report(s, run), encoding="utf-8")
    return page


def html_compare(c: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> str:
    """The page comparing version B with version A on the same seeds."""
    la = a.get("about", {}).get("version", {}).get("label", "A")
    lb = b.get("about", {}).get("version", {}).get("label", "B")
    sig = c["significant"]
    body = [f"<h1>Balance comparison: {_e(lb)} against {_e(la)}</h1>"]
    body.append(_about(a, "Version A's"))
    body.append(_origin_note(b, "Version B's"))
    body.append(
        f"<p>Both versions played the same {c['games'][0]} seeds. Each change is B − A with its 95% interval "
        "(Newcombe for rates, normal for the mean game length); * marks an interval that leaves out zero. "
        f"With many rows, about 1 in 20 will be marked by chance alone: {sig['cards']} of {sig['cards_of']} "
        f"cards and {sig['monsters']} of {sig['monsters_of']} monsters are marked here (by chance, about "
        f"{sig['cards_of'] / 20:.0f} and {sig['monsters_of'] / 20:.0f}). The full reports of each version are "
        '<a href="a/index.html">A</a> and <a href="b/index.html">B</a>.</p>'
    )
    changed = c.get("changed_cards") or []
    if changed:
        body.append("<h2>Cards that differ in B</h2><ul>")
        for ch in changed:
            if ch["change"] != "changed":
                body.append(f"<li>{_e(ch['name'])}: {_e(ch['change'])}</li>")
                continue
            fields = "; ".join(f"{_e(f['field'])}: {_e(f['a'])} → {_e(f['b'])}" for f in ch["fields"])
            body.append(f"<li><b>{_e(ch['name'])}</b>: {fields}</li>")
        body.append("</ul>")
    mt = c["mean_turns"]
    body.append(
        f"<h2>Headlines</h2><p>Mean game length: {mt['a']:.1f} → {mt['b']:.1f} turns "
        f"({mt['diff']:+.1f}, {mt['low']:+.1f} to {mt['high']:+.1f}{' *' if mt['significant'] else ''}). "
        f"Games stopped at the cap: {_diff(c['capped'])}. Games with a player left far behind: "
        f"{_diff(c['far_behind'])}.</p>"
    )
    body.append(
        _table(
            "seats",
            ["seat", "win rate A", "win rate B", "change"],
            [
                [str(r["seat"] + 1), _pct(a["seats"][r["seat"]]["rate"]), _pct(b["seats"][r["seat"]]["rate"]), _diff(r)]
                for r in c["seats"]
            ],
        )
    )
    body.append("<h2>Monsters: kill rate and deaths</h2><div class=scroll>")
    body.append(
        _table(
            "monsters",
            ["monster", "Level", "fought A / B", "kill rate A", "kill rate B", "kill rate change", "death rate change"],
            [
                [
                    _e(r["name"]),
                    " → ".join(dict.fromkeys(str(x) for x in r["level"] if x is not None)),
                    f"{r['fought'][0]} / {r['fought'][1]}",
                    _pct(r["kill_rate"][0]),
                    _pct(r["kill_rate"][1]),
                    _diff(r["kill_change"]),
                    _diff(r["death_change"]),
                ]
                for r in c["monsters"]
            ],
            [min(r["fought"]) < FEW for r in c["monsters"]],
        )
    )
    body.append("</div><h2>Cards: win rate of the players who drew them</h2><div class=scroll>")
    body.append(
        _table(
            "cards",
            ["card", "kind", "drawn A / B", "win when drawn A", "B", "change"],
            [
                [
                    _e(r["name"]),
                    _e(_kind(r["kind"])),
                    f"{r['drawn'][0]} / {r['drawn'][1]}",
                    _pct(r["win_when_drawn"][0]),
                    _pct(r["win_when_drawn"][1]),
                    _diff(r["change"]),
                ]
                for r in c["cards"]
            ],
            [min(r["drawn"]) < FEW for r in c["cards"]],
        )
    )
    body.append("</div>")
    return _page("Munchkin balance comparison", body)


def write_compare(c: dict[str, Any], a: dict[str, Any], b: dict[str, Any], out: Path) -> Path:
    """Write a comparison folder: the comparison page and JSON, and each version's full report."""
    out.mkdir(parents=True, exist_ok=True)
    write_report(a, out / "a")
    write_report(b, out / "b")
    (out / "comparison.json").write_text(json.dumps(c, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    page = out / "index.html"
    page.write_text(html_compare(c, a, b), encoding="utf-8")
    return page
