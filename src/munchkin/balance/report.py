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


def _table(
    cls: str,
    head: list[str],
    rows: Iterable[list[str]],
    few: Iterable[bool] | None = None,
    marked: Iterable[bool] | None = None,
) -> str:
    """A sortable table in a box of its own that scrolls sideways on a narrow screen (never cut);
    `few` rows greyed, `marked` rows (a card the designer changed) highlighted."""
    flags = list(few) if few is not None else None
    marks = list(marked) if marked is not None else None
    out = [f'<div class="wide"><table class="{cls} sortable"><thead><tr>']
    out += [f"<th>{_e(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls_ = " ".join(c for c, on in (("few", flags and flags[i]), ("changed", marks and marks[i])) if on)
        attr = f' class="{cls_}"' if cls_ else ""
        out.append(f"<tr{attr}>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out.append("</tbody></table></div>")
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
.wide{overflow-x:auto;max-width:100%}.scroll .wide{overflow:visible}
table.pinned td,table.headlines td{white-space:normal;min-width:4.5rem}
tr.changed td{background:#fff4d6}.badge.changed{background:#c0392b;color:#fff}
.pin{border:2px solid #e0b050;border-radius:6px;padding:.2rem .8rem;margin:.8rem 0}.pin h3{margin:.3rem 0}
li,p{overflow-wrap:anywhere}
@media (max-width:600px){body{padding:.6rem}h1{font-size:1.3rem}}
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
        + (
            f"; {v['designer_sets']} designer folder{'s' if v['designer_sets'] > 1 else ''}"
            if v.get("designer_sets")
            else ""
        )
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


def _chg(c: dict[str, Any] | None, unit: str = "pts", scale: float = 100.0) -> str:
    """A difference B − A with its interval ("+19.2 pts (+1.9 to +36.5) *"); a dash when there is none."""
    if c is None:
        return "—"
    v = scale * c["diff"]
    if c.get("low") is None:
        return f"{v:+.1f} {unit} (no interval)"
    mark = " *" if c.get("significant") else ""
    return f"{v:+.1f} {unit} ({scale * c['low']:+.1f} to {scale * c['high']:+.1f}){mark}"


def _need(c: dict[str, Any] | None) -> str:
    """What a difference still needs: "clear" when its interval leaves out zero, else the games likely to settle it."""
    if c is None:
        return ""
    if c.get("significant"):
        return "clear"
    n = c.get("games_needed")
    if not n:
        return "no difference seen" if c.get("diff") == 0 else ""
    shown = float(f"{n:.2g}")  # two significant figures: an estimate, not a count
    return f"not yet clear: about {shown:,.0f} more games"


def _maybe_pct(r: dict[str, Any] | None) -> str:
    return "—" if r is None else _pct(r["rate"])


def _imp(d: dict[str, Any] | None) -> str:
    """One version's improvement when drawn, in points."""
    return "—" if d is None else f"{100 * d['diff']:+.1f} pts"


def _changed_badge(r: dict[str, Any]) -> str:
    if not r.get("changed"):
        return ""
    word = f"only in {r['only_in']}" if r.get("only_in") else "changed"
    return f' <span class="badge changed" title="a card you changed">{_e(word)}</span>'


def _missing(r: dict[str, Any]) -> str:
    """The change column of a card in one version only: no difference is made up against nothing."""
    return "not in A" if r.get("only_in") == "B" else "not in B"


def plot_forest(rows: list[tuple[str, dict[str, Any]]]) -> str:
    """The differences B − A of the changed cards' figures, each with its 95% interval."""
    plt = _pyplot()
    rows = [(name, c) for name, c in rows if c is not None and c.get("low") is not None]
    fig, ax = plt.subplots(figsize=(PLOT_W, max(1.8, 0.3 * len(rows) + 0.9)))
    ys = list(range(len(rows)))[::-1]
    for y, (_, c) in zip(ys, rows, strict=True):
        color = "#c0392b" if c["significant"] else "#777"
        ax.plot([100 * c["low"], 100 * c["high"]], [y, y], color=color, linewidth=2)
        ax.plot([100 * c["diff"]], [y], "o", color=color)
    ax.set_yticks(ys, [name for name, _ in rows], fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("B − A, points (95% interval; red: leaves out zero)")
    return _svg(fig)


def plot_kill_rates(rows: list[dict[str, Any]]) -> str:
    """Each monster's kill rate in A against B: off the diagonal, the fights changed; changed cards named."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(PLOT_W, PLOT_H * 1.3))
    rows = [r for r in rows if r["fought"][0] and r["fought"][1]]
    top = max([max(r["fought"]) for r in rows] or [1])
    for r in rows:
        x, y = 100 * r["kill_rate"][0]["rate"], 100 * r["kill_rate"][1]["rate"]
        mine = r["changed"]
        ax.scatter(
            [x],
            [y],
            s=8 + 60 * max(r["fought"]) / top,
            alpha=0.9 if mine else 0.45,
            color="#c0392b" if mine else "#8e6bb7",
        )
        if mine or (r["kill_change"] and r["kill_change"]["significant"]):
            ax.annotate(r["name"], (x, y), xytext=(5, 3), textcoords="offset points", fontsize=7)
    ax.plot([0, 100], [0, 100], color="#333", linewidth=0.8, linestyle="--")
    ax.set_xlim(-3, 103)
    ax.set_ylim(-3, 103)
    ax.set_xlabel("killed in A, % of fights")
    ax.set_ylabel("killed in B, % of fights")
    return _svg(fig)  # fmt: skip


MONSTER_FIGURES = (("kill", "kill rate"), ("death", "deaths caused, % of fights"), ("escape", "escape rate"))


def _pinned(c: dict[str, Any]) -> list[str]:
    """The "What you changed" section: each changed card's words and its figures in A and B."""
    cards = {r["id"]: r for r in c["cards"]}
    mons = {r["id"]: r for r in c["monsters"]}
    chars = {r["id"]: r for r in c["characters"]}
    body = ['<h2 id="changed">What you changed</h2>']
    diffs = c.get("version_differences") or []
    changed = c.get("changed_cards") or []
    if diffs:
        body.append("<ul>" + "".join(f"<li>{_e(d)}</li>" for d in diffs) + "</ul>")
    if not changed:
        body.append("<p>No card differs between A and B.</p>")
        return body
    forest: list[tuple[str, dict[str, Any]]] = []
    for ch in changed:
        k = ch["id"]
        body.append(f'<div class="pin"><h3>{_e(ch["name"])}</h3>')
        words = ch.get("words") or []
        if words:
            body.append("<ul>" + "".join(f"<li>{_e(w)}</li>" for w in words) + "</ul>")
        card, mon, char = cards.get(k), mons.get(k), chars.get(k)
        figures: list[tuple[str, str, str, dict[str, Any] | None]] = []  # label, A, B, change
        if card:
            imp = card["improvement"]
            figures.append(("improvement when drawn", _imp(imp[0]), _imp(imp[1]), card["change"]))
        if mon:
            for fig, label in (
                ("kill", "kill rate"),
                ("death", "deaths caused, % of fights"),
                ("escape", "escape rate"),
            ):
                ra, rb = mon[f"{fig}_rate"]
                figures.append((label, *[_rate(r) if r["n"] else "—" for r in (ra, rb)], mon[f"{fig}_change"]))
        if char:
            held = char["against_not_held"]
            figures.append(("holders against the others", _imp(held[0]), _imp(held[1]), char["change"]))
        gone = ch["change"] if ch["change"] != "changed" else None
        rows: list[list[str]] = []
        for label, va, vb, change in figures:
            if gone:  # in one version only: its figures there, and no difference made up against nothing
                rows.append([_e(label), va, vb, "not in A" if gone.endswith("B") else "not in B", ""])
                continue
            rows.append([_e(label), va, vb, _chg(change), _e(_need(change))])
            if change:
                forest.append((f"{ch['name']}: {label}", change))
        if not (card or mon or char):
            body.append("<p class=note>Not drawn in these games: no figures.</p>")
        else:
            body.append(_table("pinned", ["figure", "A", "B", "B − A (95%)", "games needed"], rows))
        body.append("</div>")
    if forest:
        body.append(f'<div class="fig">{plot_forest(forest)}</div>')
    return body


def html_compare(c: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> str:
    """The page comparing version B with version A on the same seeds: what you changed first."""
    la = a.get("about", {}).get("version", {}).get("label", "A")
    lb = b.get("about", {}).get("version", {}).get("label", "B")
    sig = c["significant"]
    paired = c.get("paired_games", 0)
    body = [f"<h1>Balance comparison: {_e(lb)} against {_e(la)}</h1>"]
    body.append(_about(a, "Version A's"))
    body.append(_origin_note(b, "Version B's"))
    body.append(
        f"<p>Both versions played the same {c['games'][0]} seeds"
        + (
            ", each seed's two games side by side (the same deals until the change matters), so each difference "
            "is read game by game: a paired difference of means with its normal 95% interval (the delta method "
            "for rates over draws or fights)"
            if paired
            else "; the intervals are those of two independent samples (Newcombe for rates, MOVER for a "
            "difference of two improvements, normal for the mean game length)"
        )
        + ". Each change is B − A; * marks an interval that leaves out zero. A difference not yet clear says "
        "how many more games of each version would likely settle it at its observed size (95%, 80% power). "
        f"With many rows, about 1 in 20 will be marked by chance alone: {sig['cards']} of {sig['cards_of']} "
        f"cards and {sig['monsters']} of {sig['monsters_of']} monsters are marked here (by chance, about "
        f"{sig['cards_of'] / 20:.0f} and {sig['monsters_of'] / 20:.0f}); a card you changed is pinned first, "
        'above them. The full reports of each version are <a href="a/index.html">A</a> and '
        '<a href="b/index.html">B</a>; the tables are in compare_*.csv beside this page.</p>'
    )
    body += _pinned(c)
    mt, fp = c["mean_turns"], c["first_player"]
    body.append("<h2>Headlines</h2>")
    heads = [
        ["mean game length, turns", f"{mt['a']:.1f}", f"{mt['b']:.1f}", _chg(mt, "turns", 1.0), _e(_need(mt))],
        ["first player's edge over the others", _imp(fp["a"]), _imp(fp["b"]), _chg(fp["change"]),
         _e(_need(fp["change"]))],
        ["games stopped at the turn cap", _pct(c["capped"]["a"]["rate"]), _pct(c["capped"]["b"]["rate"]),
         _chg(c["capped"]), _e(_need(c["capped"]))],
        ["games with a player left far behind", _pct(c["far_behind"]["a"]["rate"]),
         _pct(c["far_behind"]["b"]["rate"]), _chg(c["far_behind"]), _e(_need(c["far_behind"]))],
    ]  # fmt: skip
    heads += [
        [f"seat {r['seat'] + 1} wins" + (" (first)" if r["seat"] == 0 else ""), _pct(r["a"]["rate"]),
         _pct(r["b"]["rate"]), _chg(r if "diff" in r else None), _e(_need(r if "diff" in r else None))]
        for r in c["seats"]
    ]  # fmt: skip
    body.append(_table("headlines", ["figure", "A", "B", "B − A (95%)", "games needed"], heads))

    body.append("<h2>Monsters: kill rate, deaths, escapes</h2>")
    if c["monsters"]:
        body.append(f'<div class="fig">{plot_kill_rates(c["monsters"])}</div>')
    body.append(
        "<p class=note>Each dot a monster: its kill rate in A across, in B up; on the dashed line nothing changed. "
        "Red: a card you changed. Rows: your changed cards first, then the changes whose interval leaves out "
        "zero, largest first.</p>"
    )
    body.append('<div class="scroll">')
    body.append(
        _table(
            "monsters",
            ["monster", "Level", "fought A / B", "kill rate A", "B", "kill rate change", "games needed"]
            + ["deaths A / B", "death rate change", "escape rate change"],
            [
                [
                    _e(r["name"]) + _changed_badge(r),
                    " → ".join(dict.fromkeys(str(x) for x in r["level"] if x is not None)),
                    f"{r['fought'][0]} / {r['fought'][1]}",
                    _maybe_pct(r["kill_rate"][0] if r["fought"][0] else None),
                    _maybe_pct(r["kill_rate"][1] if r["fought"][1] else None),
                    _missing(r) if r["only_in"] else _chg(r["kill_change"]),
                    _e(_need(r["kill_change"])),
                    f"{r['deaths'][0]} / {r['deaths'][1]}",
                    "" if r["only_in"] else _chg(r["death_change"]),
                    "" if r["only_in"] else _chg(r["escape_change"]),
                ]
                for r in c["monsters"]
            ],
            [min(r["fought"]) < FEW and not r["changed"] for r in c["monsters"]],
            [r["changed"] for r in c["monsters"]],
        )
    )
    body.append("</div><h2>Cards: improvement when drawn</h2>")
    body.append(
        "<p class=note>A card's improvement when drawn is the win rate of the players who drew it less that of "
        "those who did not, in each version; the change is B − A of it. Your changed cards first, then the "
        "changes whose interval leaves out zero.</p><div class=scroll>"
    )
    body.append(_improvement_table("cards", c["cards"], "drawn", "improvement", "improvement A"))
    body.append("</div>")
    chars = c.get("characters") or []
    if chars:
        body.append("<h2>Races, Classes, Roles, Houses, Steeds and Sidekicks</h2>")
        body.append(
            "<p class=note>The win rate of the players who had the card in play less that of the others, in each "
            "version, and its change.</p>"
        )
        body.append(_improvement_table("characters", chars, "held", "against_not_held", "against the others A"))
    return _page("Munchkin balance comparison", body)


def _improvement_table(cls: str, rows: list[dict[str, Any]], count: str, figure: str, heading: str) -> str:
    """A compare table of cards by an improvement (`figure`: when drawn, or when held) in A and in B and its
    change, each row resting on `count` seat-games in each version; changed cards marked and highlighted."""
    return _table(
        cls,
        ["card", "kind", f"{count} A / B", heading, "B", "change", "games needed"],
        [
            [
                _e(r["name"]) + _changed_badge(r),
                _e(_kind(r["kind"])),
                f"{r[count][0]} / {r[count][1]}",
                _imp(r[figure][0]),
                _imp(r[figure][1]),
                _missing(r) if r["only_in"] else _chg(r["change"]),
                _e(_need(r["change"])),
            ]
            for r in rows
        ],
        [min(r[count]) < FEW and not r["changed"] for r in rows],
        [r["changed"] for r in rows],
    )


def _change_cols(ch: dict[str, Any] | None) -> list[Any]:
    if ch is None:
        return ["", "", "", "", "", ""]
    return [ch["diff"], ch["low"], ch["high"], ch["significant"], ch["paired"], ch.get("games_needed") or ""]


CHANGE_HEAD = ["diff", "low", "high", "significant", "paired", "games_needed"]


def _val(x: dict[str, Any] | None, key: str) -> Any:
    return "" if x is None else x[key]


def write_compare_tables(c: dict[str, Any], out: Path) -> None:
    """The comparison's CSV tables: A, B, the difference B − A with its interval, paired or not, games needed."""
    _csv(
        out / "compare_cards.csv",
        ["id", "name", "kind", "changed", "only_in", "drawn_a", "drawn_b", "improvement_a", "improvement_b"]
        + CHANGE_HEAD,
        [
            [r["id"], r["name"], r["kind"], r["changed"], r["only_in"] or "", *r["drawn"],
             _val(r["improvement"][0], "diff"), _val(r["improvement"][1], "diff"), *_change_cols(r["change"])]
            for r in c["cards"]
        ],
    )  # fmt: skip
    figs = ("kill", "death", "escape")
    _csv(
        out / "compare_monsters.csv",
        ["id", "name", "changed", "only_in", "level_a", "level_b", "fought_a", "fought_b"]
        + [f"{f}_{x}" for f in figs for x in ["a", "b", *CHANGE_HEAD]],
        [
            [r["id"], r["name"], r["changed"], r["only_in"] or "", *(x if x is not None else "" for x in r["level"]),
             *r["fought"]]
            + [v for f in figs for v in [r[f"{f}_rate"][0]["rate"], r[f"{f}_rate"][1]["rate"],
                                         *_change_cols(r[f"{f}_change"])]]
            for r in c["monsters"]
        ],
    )  # fmt: skip
    _csv(
        out / "compare_characters.csv",
        ["id", "name", "kind", "changed", "only_in", "held_a", "held_b", "against_others_a", "against_others_b"]
        + CHANGE_HEAD,
        [
            [r["id"], r["name"], r["kind"], r["changed"], r["only_in"] or "", *r["held"],
             _val(r["against_not_held"][0], "diff"), _val(r["against_not_held"][1], "diff"),
             *_change_cols(r["change"])]
            for r in c.get("characters") or []
        ],
    )  # fmt: skip
    mt, fp = c["mean_turns"], c["first_player"]
    _csv(
        out / "compare_headlines.csv",
        ["figure", "a", "b", *CHANGE_HEAD],
        [
            ["mean_turns", mt["a"], mt["b"], *_change_cols(mt if "diff" in mt else None)],
            ["first_player_edge", _val(fp["a"], "diff"), _val(fp["b"], "diff"), *_change_cols(fp["change"])],
            ["capped", c["capped"]["a"]["rate"], c["capped"]["b"]["rate"], *_change_cols(c["capped"])],
            ["far_behind", c["far_behind"]["a"]["rate"], c["far_behind"]["b"]["rate"], *_change_cols(c["far_behind"])],
        ]
        + [[f"seat_{r['seat'] + 1}_wins", r["a"]["rate"], r["b"]["rate"], *_change_cols(r if "diff" in r else None)]
           for r in c["seats"]],
    )  # fmt: skip


def write_compare(c: dict[str, Any], a: dict[str, Any], b: dict[str, Any], out: Path) -> Path:
    """Write a comparison folder: the comparison page and JSON, and each version's full report."""
    out.mkdir(parents=True, exist_ok=True)
    write_report(a, out / "a")
    write_report(b, out / "b")
    (out / "comparison.json").write_text(json.dumps(c, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    write_compare_tables(c, out)
    page = out / "index.html"
    page.write_text(html_compare(c, a, b), encoding="utf-8")
    return page
