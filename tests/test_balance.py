"""Balance analysis: intervals on known counts, statistics on hand-made game records, the same
summary from 1 worker, 2 workers and Ray, --compare, and the report page in Chromium."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from munchkin.balance import parse_options
from munchkin.balance.record import CardInfo, GameRecord, MonsterRecord, record_game
from munchkin.balance.report import html_report
from munchkin.balance.runner import Plan, Runner, Version
from munchkin.balance.stats import mean_diff, newcombe, quantile, wilson
from munchkin.balance.summary import FEW, compare, summarize
from munchkin.balance.tally import FAR_BEHIND, Tally
from munchkin.cli import app
from munchkin.simulate import run_game

SET = "good-bad"  # the quickest edition for the bots: the runs below stay short
GAMES = 200  # a few hundred games: enough for the weakened monster to show
RAY_GAMES = 60  # the seeds played again on Ray, in batches of 13 (the last one short)
SETS_DIR = Path(__file__).resolve().parent.parent / "src" / "munchkin" / "sets"


# ------------------------------------------------------------------ intervals


def test_wilson_on_known_counts() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-5)  # z²/(n+z²)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(1 - 0.27753, abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_newcombe_matches_the_papers_example() -> None:
    # Newcombe (1998), method 10: 56/70 against 48/80 gives 0.0524 to 0.3339
    d, lo, hi = newcombe(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)
    d, lo, hi = newcombe(5, 10, 5, 10)
    assert d == 0 and lo < 0 < hi


def test_mean_difference_and_quantiles() -> None:
    # two samples: [1, 2, 3] and [4, 5, 6]: means 2 and 5, variances 1 and 1
    d, lo, hi = mean_diff(15, 77, 3, 6, 14, 3)
    assert d == 3 and lo == pytest.approx(3 - 1.959964 * (2 / 3) ** 0.5, abs=1e-5) and hi > d
    assert quantile({1: 1, 2: 1, 3: 1, 10: 1}, 0.5) == 2.0
    assert quantile({5: 10}, 0.95) == 5.0 and quantile({}, 0.5) == 0.0


# ------------------------------------------------------------------ hand-made records


def _record(winner: int, drew: dict[int, list[str]], turns: int = 20, players: int = 4) -> GameRecord:
    r = GameRecord.empty(players, turns, [winner])
    r.decisions = 10 * turns
    for seat, cards in drew.items():
        r.drawn[seat] |= set(cards)
    r.cards = {
        "t.sword": CardInfo("Sword", "t", "treasure", "item", "original"),
        "t.dud": CardInfo("Dud", "t", "treasure", "item", "original"),
        "t.ogre": CardInfo("Ogre", "t", "door", "monster", "original", 12),
        "t.elf": CardInfo("Elf", "t", "door", "race", "original"),
    }
    return r


def _hand_made(games: int = 120) -> Tally:
    """The winner always drew the Sword; the Dud goes to a loser; the Ogre is fought and never
    killed; the winner is seat 0 in half the games; Elves are held by the winners only."""
    t = Tally(4)
    for i in range(games):
        w = 0 if i % 2 == 0 else 1 + i % 3
        loser = (w + 1) % 4
        r = _record(w, {w: ["t.sword"], loser: ["t.dud"]}, turns=20 + i % 5)
        r.played[w]["t.sword"] += 2
        r.held[w].add("t.elf")
        r.monsters["t.ogre"] = MonsterRecord(fought=2, escaped=1, caught=1, deaths=1)
        r.levels = [[1, 1, 1, 1], [3, 1, 2, 2], [9, 2, 3, 3]] if i % 4 == 0 else [[1, 1, 1, 1], [2, 2, 2, 2]]
        r.final_levels = [10, 3, 4, 4] if i % 4 == 0 else [10, 8, 8, 9]
        r.help = Counter(asked=3, given=1, refused=2, promised_treasures=6)
        r.curses = Counter(played=2, on_leader=1, on_self=0, on_lower=1, face_up=1)
        t.add_game(r)
    return t


def test_statistics_on_hand_made_records() -> None:
    s = summarize(_hand_made())
    assert s["games"] == 120 and s["finished"] == 120 and s["capped"] == 0
    assert [r["k"] for r in s["seats"]] == [60, 20, 20, 20]
    fp = s["first_player"]
    assert fp["rate"] == 0.5 and fp["advantage"] == 0.25
    assert fp["against_the_others"]["significant"] and fp["against_the_others"]["diff"] > 0.3
    cards = {r["id"]: r for r in s["cards"]}
    sword, dud = cards["t.sword"], cards["t.dud"]
    assert sword["win_when_drawn"]["rate"] == 1.0 and sword["win_when_not_drawn"]["rate"] == 0.0
    assert sword["improvement_when_drawn"]["diff"] == 1.0 and sword["improvement_when_drawn"]["significant"]
    assert dud["win_when_drawn"]["rate"] == 0.0 and dud["improvement_when_drawn"]["diff"] < 0
    assert s["cards"][0]["id"] == "t.sword" and s["cards"][-1]["id"] == "t.dud"  # strongest first
    assert sword["played"] == 240 and sword["played_games"] == 120 and sword["win_when_played"]["rate"] == 1.0
    assert sword["drawn_per_game"] == 1.0
    ogre = {r["id"]: r for r in s["monsters"]}["t.ogre"]
    assert ogre["fought"] == 240 and ogre["kill_rate"]["k"] == 0 and ogre["kill_rate"]["high"] < 0.02
    assert ogre["deaths"] == 120 and ogre["death_rate"]["rate"] == 0.5 and ogre["escaped"] == 120
    elf = {r["id"]: r for r in s["characters"]}["t.elf"]
    assert elf["win_when_held"]["rate"] == 1.0 and elf["against_not_held"]["diff"] == 1.0
    # a player FAR_BEHIND Levels below the leader in every fourth game, at a round's start and at the end
    assert FAR_BEHIND == 5
    assert s["far_behind"]["games"]["k"] == 30 and s["far_behind"]["seats_at_the_end"]["k"] == 90
    rounds = s["levels"][0]["rounds"]
    assert [r["games"] for r in rounds] == [120, 120, 30] and rounds[2]["median"] == 9.0
    assert s["length"]["turns"]["mean"] == 22.0 and s["length"]["turns"]["median"] == 22.0
    assert s["help"]["given"]["rate"] == pytest.approx(1 / 3, abs=1e-6)
    assert s["help"]["treasures_promised_per_ask"] == 2.0
    assert s["curses"]["on_the_leader"]["rate"] == 0.5 and s["curses"]["played_per_game"] == 2.0


def test_help_asked_and_help_offered_are_counted_apart() -> None:
    """Issue 35: "asked 4552 times" beside "given .../4555" — an offer made unasked is not an ask. Each
    ask ends accepted, refused or compelled, and each offer taken or turned down, on their own counts."""
    r = _record(0, {})
    r.help = Counter(asked=10, given=7, refused=4, compelled=1, volunteered=3, offer_taken=2, offer_refused=1)
    t = Tally(4)
    t.add_game(r)
    h = summarize(t)["help"]
    assert (h["given"]["k"], h["given"]["n"]) == (5, 10) and (h["refused"]["k"], h["refused"]["n"]) == (4, 10)
    assert h["given"]["k"] + h["refused"]["k"] + h["compelled"] == h["asked"]
    assert (h["offers_taken"]["k"], h["offers_taken"]["n"]) == (2, 3) and h["offers_refused"] == 1
    assert h["fights_helped"] == 8
    page = html_report(summarize(t))
    assert "Help asked 10 times" in page and "accepted 50.0%" in page and "Help offered unasked 3 times" in page


def test_few_games_are_flagged_not_hidden() -> None:
    s = summarize(_hand_made(games=FEW // 2))
    assert all(r["few"] for r in s["cards"]) and {r["id"] for r in s["cards"]} == {"t.sword", "t.dud", "t.elf"}
    assert all(r["few"] for r in s["characters"]) and all(r["few"] for r in s["monsters"] if r["fought"] < FEW)
    s = summarize(_hand_made(games=2 * FEW))
    few = {r["id"]: r["few"] for r in s["cards"]}
    assert few == {"t.sword": False, "t.dud": False, "t.elf": True}  # the Elf is held, never drawn


def test_a_tally_merged_from_parts_equals_one_tally() -> None:
    whole = _hand_made(100)
    parts = [Tally(4), Tally(4), Tally(4)]
    one = _hand_made(100)
    assert summarize(whole) == summarize(one)
    records = []
    t = Tally(4)
    for i in range(30):
        r = _record(i % 4, {i % 4: ["t.sword"]}, turns=10 + i)
        records.append(r)
        t.add_game(r)
        parts[i % 3].add_game(r)
    merged = Tally(4)
    for p in reversed(parts):
        merged.merge(p)
    assert json.dumps(summarize(merged), sort_keys=True) == json.dumps(summarize(t), sort_keys=True)
    with pytest.raises(ValueError):
        Tally(3).add_game(records[0])


def test_a_real_games_record_agrees_with_its_events() -> None:
    for seed in (1, 2, 3):
        g = run_game([SET], 4, seed, ["heuristic"])
        r = record_game(g)
        assert r.winners == list(g.winners) and r.turns == g.turn and r.decisions == g.decisions
        assert r.final_levels == [p.level for p in g.players]
        assert len(r.levels) == -(-g.turn // 4) or len(r.levels) == g.turn // 4 + 1
        fights = sum(1 for e in g.events if e[0] == "combat")
        fought = {e[2] for e in g.events if e[0] == "combat"} | {e[2] for e in g.events if e[0] == "join"}
        kills = sum(g.cdef[c].is_monster or c in fought for e in g.events if e[0] == "kill" for c in e[3])
        assert sum(m.fought for m in r.monsters.values()) >= fights > 0
        assert sum(m.killed_alone + m.killed_helped for m in r.monsters.values()) == kills
        dealt = {g.cdef[c].id for e in g.events if e[0] == "draw" and e[1] == 0 for c in e[3]}
        assert dealt <= r.drawn[0]
        assert r.help["asked"] == sum(1 for e in g.events if e[0] == "ask")
        kinds = [e[0] for e in g.events]  # help after an offer is an offer taken, not an ask answered
        taken = sum(1 for a, b in zip(kinds, kinds[1:], strict=False) if a == "volunteer" and b == "help")
        assert r.help["offer_taken"] == taken and r.help["given"] == kinds.count("help")
        for e in g.events:  # a card played on a monster or a player was played by that seat
            if e[0] in ("oneshot", "enhance"):
                assert r.played[e[1]][g.cdef[e[2]].id] >= 1, e
        played = sum(sum(c.values()) for c in r.played)
        assert played >= sum(1 for e in g.events if e[0] in ("oneshot", "enhance", "play", "curse") and e[1] >= 0)
        assert all(r.cards[k].kind in ("monster", "steed") for k in r.monsters)


# ------------------------------------------------------------------ runs


@pytest.fixture(scope="module")
def runs() -> dict[str, Tally]:
    v = Version((SET,), 4, ("heuristic",))
    out = {"one": Runner(workers=1).run(v, Plan(1, GAMES))}
    out["two"] = Runner(workers=2).run(v, Plan(1, GAMES, batch=7))
    return out


def test_the_summary_is_the_same_on_one_worker_two_workers_and_ray(runs: dict[str, Tally]) -> None:
    import ray  # in the [test] extra, as in [scale]

    v = Version((SET,), 4, ("heuristic",))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:  # fewer games on Ray: its batches are what is checked, and a loaded machine runs them slowly
        on_ray = Runner(ray="auto").run(v, Plan(1, RAY_GAMES, batch=13))
    finally:
        ray.shutdown()
    one = json.dumps(summarize(runs["one"]), sort_keys=True)
    assert json.dumps(summarize(runs["two"]), sort_keys=True) == one
    alone = json.dumps(summarize(Runner(workers=1).run(v, Plan(1, RAY_GAMES))), sort_keys=True)
    assert json.dumps(summarize(on_ray), sort_keys=True) == alone
    s = summarize(runs["one"])
    assert s["games"] == GAMES and sum(r["k"] for r in s["seats"]) == s["finished"] > 0.9 * GAMES


def test_comparing_a_version_with_itself_finds_nothing(runs: dict[str, Tally]) -> None:
    c = compare(runs["one"], runs["two"])
    assert c["significant"] == {
        "cards": 0,
        "cards_of": c["significant"]["cards_of"],
        "monsters": 0,
        "monsters_of": c["significant"]["monsters_of"],
        "seats": 0,
    }
    assert c["mean_turns"]["diff"] == 0 and not c["mean_turns"]["significant"]
    assert all(r["change"] is None or r["change"]["diff"] == 0 for r in c["cards"])


def _weaker_copy(tmp: Path, monster: str, level: object = 1) -> Path:
    """A copy of the set's folder with one monster made Level 1 (or given another `level`)."""
    folder = tmp / "my-set"
    shutil.copytree(SETS_DIR / SET.replace("-", "_"), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for f in folder.glob("*.yaml"):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        for card in data.get("cards") or []:
            if card.get("name") == monster:
                card["monster"]["level"] = level
                f.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
                return folder
    raise AssertionError(f"no monster {monster!r}")


def test_compare_finds_a_monster_made_far_weaker(runs: dict[str, Tally], tmp_path: Path) -> None:
    from munchkin.cards.loader import set_dir_files

    s = summarize(runs["one"])
    monster = max(s["monsters"], key=lambda r: r["fought"] * (r["level"] >= 12) * (1 - r["kill_rate"]["rate"]))
    folder = _weaker_copy(tmp_path, monster["name"])
    files = tuple(sorted(set_dir_files(folder).items()))
    b = Runner(workers=2).run(Version((SET,), 4, ("heuristic",), set_files=(files,)), Plan(1, GAMES))
    c = compare(runs["one"], b)
    row = {r["id"]: r for r in c["monsters"]}[monster["id"]]
    assert row["kill_change"]["significant"] and row["kill_change"]["diff"] > 0.3, row
    assert row["kill_rate"][1]["rate"] > 0.75  # a Level 1 monster still has Wandering Monsters and enhancers
    card = {r["id"]: r for r in c["cards"]}[monster["id"]]
    assert card["change"]["diff"] > 0, card  # its drawers gain more from it
    assert not card["change"]["paired"]  # two separate runs: the unpaired interval (MOVER)
    assert row["death_change"]["diff"] <= 0
    assert c["monsters"][0]["id"] == monster["id"]  # the largest significant change comes first
    from munchkin.balance.command import changed_cards

    stock = Version((SET,), 4, ("heuristic",))
    assert changed_cards(stock, Version((SET,), 4, ("heuristic",), set_files=(files,))) == [
        {
            "id": monster["id"],
            "name": monster["name"],
            "change": "changed",
            "fields": [{"field": "monster.level", "a": monster["level"], "b": 1}],
            "words": [f"Level: {monster['level']} → 1"],
        }
    ]
    assert changed_cards(stock, stock) == []


def test_compare_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    args = ["balance", "--set", SET, "--games", "12", "--workers", "1", "--compare", "--out", str(out), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    c = json.loads(result.output)
    assert c["significant"]["cards"] == c["significant"]["monsters"] == c["significant"]["seats"] == 0
    assert c["changed_cards"] == [] and c["games"] == [12, 12]
    for f in ("index.html", "comparison.json", "a/index.html", "a/summary.json", "b/summary.json", "b/run.json"):
        assert (out / f).exists(), f
    a = json.loads((out / "a" / "summary.json").read_text(encoding="utf-8"))
    b = json.loads((out / "b" / "summary.json").read_text(encoding="utf-8"))
    assert a["cards"] == b["cards"] and a["seats"] == b["seats"] and a["monsters"] == b["monsters"]


# ------------------------------------------------------------------ the command and the page


def test_options_are_read_and_bad_ones_named() -> None:
    assert parse_options(["listen_at_the_door=on", "turn-cap=900"]) == (
        ("listen_at_the_door", True),
        ("turn_cap", 900),
    )
    for bad, why in [
        ("fast=on", "unknown option 'fast'"),
        ("listen_at_the_door", "KEY=VALUE"),
        ("listen_at_the_door=maybe", "on or off"),
        ("turn_cap=x", "whole number"),
    ]:
        with pytest.raises(ValueError, match=re.escape(why)):
            parse_options([bad])


@pytest.mark.parametrize(
    "args, says",
    [
        (["--option", "fast=on"], "unknown option 'fast'"),
        (["--b-option", "listen_at_the_door=on"], "add --compare"),
        (["--ray", "somewhere"], "give auto, local, or an address"),
        (["--set", "nosuch"], "unknown set 'nosuch'"),
        (["--agents", "genius"], "unknown agent 'genius'"),
        (["--games", "0"], "--games"),
    ],
)
def test_bad_flags_get_a_clear_error(args: list[str], says: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["balance", "--out", str(tmp_path / "r"), *args])
    assert result.exit_code == 2
    assert says in " ".join(result.output.replace("│", " ").split())  # the error's box may wrap it
    assert "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


def test_a_designer_folder_with_a_mistake_is_named(tmp_path: Path) -> None:
    folder = _weaker_copy(tmp_path, "Tumbleweed", level="one")
    f = next(p for p in folder.glob("*.yaml") if "Tumbleweed" in p.read_text(encoding="utf-8"))
    result = CliRunner().invoke(app, ["balance", "--set-dir", str(folder), "--out", str(tmp_path / "r")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.search(rf"{f.name}:\d+: card 'Tumbleweed': monster.level: should be a whole number", result.output)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("balance") / "report"
    result = CliRunner().invoke(
        app, ["balance", "--set", SET, "--games", "40", "--workers", "1", "--out", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary == json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return out


def test_the_report_folder_holds_the_page_the_summary_and_the_tables(report: Path) -> None:
    for name in ("index.html", "summary.json", "run.json", "tally.json", "cards.csv", "monsters.csv", "characters.csv"):
        assert (report / name).stat().st_size > 0, name
    s = json.loads((report / "summary.json").read_text(encoding="utf-8"))
    assert "seconds" not in json.dumps(s)  # the time of the run is in run.json, never in the summary
    cards = (report / "cards.csv").read_text(encoding="utf-8").splitlines()
    assert len(cards) == 1 + len(s["cards"]) and cards[0].startswith("id,name,set")
    page = (report / "index.html").read_text(encoding="utf-8")
    assert "http://" not in page.replace("http://www.w3.org/", "") and "<script src" not in page  # offline
    assert page.count("<svg") >= 6


def test_a_tally_reads_back_from_its_json_unchanged() -> None:
    t = _hand_made()
    back = Tally.from_json(json.loads(json.dumps(t.to_json())))
    assert back == t and summarize(back) == summarize(t)
    with pytest.raises(ValueError, match="format"):
        Tally.from_json({**t.to_json(), "format": 99})
    with pytest.raises(ValueError, match="'turns'"):
        Tally.from_json({k: v for k, v in t.to_json().items() if k != "turns"})


def _part(tmp: Path, seed: int, games: int, *extra: str) -> Path:
    out = tmp / f"part-{seed}-{games}{'-'.join(extra)}"
    args = ["balance", "--set", SET, "--seed", str(seed), "--games", str(games), "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, *extra])
    assert result.exit_code == 0, result.output
    return out


def test_runs_on_consecutive_seeds_merge_into_the_report_of_one_run(report: Path, tmp_path: Path) -> None:
    # the fixture's run played seeds 1 to 40 at once; here they are played in two parts, later part first
    later, earlier = _part(tmp_path, 16, 25), _part(tmp_path, 1, 15)
    out = tmp_path / "merged"
    result = CliRunner().invoke(app, ["balance-merge", str(later), str(earlier), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "40 games from 2 runs" in result.output
    merged = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert merged == json.loads((report / "summary.json").read_text(encoding="utf-8"))
    assert "seeds 1 to 40;" in (out / "index.html").read_text(encoding="utf-8")
    again = tmp_path / "again"  # a merged report merges further, like any run
    result = CliRunner().invoke(app, ["balance-merge", str(out), str(_part(tmp_path, 60, 5)), "--out", str(again)])
    assert result.exit_code == 0, result.output
    s = json.loads((again / "summary.json").read_text(encoding="utf-8"))
    assert s["games"] == 45 and s["about"]["seed_ranges"] == [[1, 40], [60, 64]]
    assert "seeds 1 to 40, 60 to 64;" in (again / "index.html").read_text(encoding="utf-8")


def test_merging_runs_that_do_not_fit_together_says_why(report: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "tally.json").write_text("{", encoding="utf-8")
    old = tmp_path / "old"
    shutil.copytree(report, old)
    data = json.loads((old / "tally.json").read_text(encoding="utf-8"))
    data["tally"]["format"] = 0
    (old / "tally.json").write_text(json.dumps(data), encoding="utf-8")
    cases = [
        ([report, report], "overlap"),
        ([report, _part(tmp_path, 41, 5, "--option", "turn_cap=800")], "differ in options"),
        ([report, tmp_path], "no such file"),
        ([report, bad], "cannot read it"),
        ([report, old], "tally format 0"),
    ]
    for folders, says in cases:
        out = tmp_path / "merged"
        result = CliRunner().invoke(app, ["balance-merge", *map(str, folders), "--out", str(out)])
        assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output, result.output
        assert not out.exists()


def test_the_report_opens_in_chromium_with_its_plots(report: Path) -> None:
    from playwright.sync_api import sync_playwright

    from system import CHROMIUM, CHROMIUM_ARGS, ensure_debian_packages
    from waits import PATIENCE

    ensure_debian_packages("chromium")
    errors: list[str] = []
    with sync_playwright() as p:
        # Playwright's own bounds (30 s) are not for a busy machine: PATIENCE to start, load and click
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, timeout=PATIENCE * 1000
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(PATIENCE * 1000)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((report / "index.html").as_uri())
        plots = page.locator(".fig svg")
        assert plots.count() >= 6
        for i in range(plots.count()):
            box = plots.nth(i).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 100
        rows = page.locator("table.cards tbody tr")
        assert rows.count() > 50
        page.locator("table.cards th", has_text="improvement").click()  # sort: the weakest first
        cells = page.locator("table.cards tbody tr td:nth-child(7)").all_inner_texts()
        points = [float(re.match(r"[+-]?[0-9.]+", c.strip()).group()) for c in cells]  # type: ignore[union-attr]
        assert points == sorted(points) and points[0] < points[-1]
        artifacts = Path("test-artifacts") / "balance"
        artifacts.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(artifacts / "report.png"), full_page=True)
        browser.close()
    assert errors == []


def test_without_matplotlib_the_command_says_what_to_install_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    result = CliRunner().invoke(app, ["balance", "--games", "100000", "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "munchkin[balance]" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


def test_a_report_records_where_its_cards_came_from_and_shows_it(report: Path, tmp_path: Path) -> None:
    """summary.json's about names the rules, the engine's version, the card versions and each designer
    folder (its name and the full hash of its cards, never a machine's path); the page shows the short hash,
    and balance-merge refuses parts dealt from folders whose cards differ."""
    from munchkin.cards.loader import SHORT_HASH, cards_sha256, set_dir_files
    from munchkin.engine.rules import RULES

    stock = json.loads((report / "summary.json").read_text(encoding="utf-8"))["about"]["origin"]
    assert stock["rules"] == RULES and stock["set_dirs"] == [] and set(stock["card_versions"]) == {SET}
    assert re.fullmatch(r"[\w.+-]+", stock["engine"]), stock
    folder = _weaker_copy(tmp_path, "Tumbleweed", 2)
    part = _part(tmp_path, 41, 3, "--set-dir", str(folder))
    about = json.loads((part / "summary.json").read_text(encoding="utf-8"))["about"]
    sha = cards_sha256(set_dir_files(folder))
    assert about["origin"]["set_dirs"] == [{"set": SET, "folder": "my-set", "sha256": sha}] and len(sha) == 64
    assert str(tmp_path) not in (part / "summary.json").read_text(encoding="utf-8")  # no machine's path
    page = (part / "index.html").read_text(encoding="utf-8")
    assert f"from the designer folder my-set (cards sha256 {sha[:SHORT_HASH]})" in page and sha not in page
    assert f"rules {RULES}, engine {stock['engine']}" in page

    # the same folder's runs merge, and keep its origin; a changed folder's run does not
    same = _part(tmp_path, 44, 2, "--set-dir", str(folder))
    result = CliRunner().invoke(app, ["balance-merge", str(part), str(same), "--out", str(tmp_path / "merged")])
    assert result.exit_code == 0, result.output
    merged = json.loads((tmp_path / "merged" / "summary.json").read_text(encoding="utf-8"))["about"]
    assert merged["origin"] == about["origin"]
    shutil.rmtree(folder)
    other = _weaker_copy(tmp_path, "Tumbleweed", 3)
    changed = _part(tmp_path, 50, 2, "--set-dir", str(other))
    result = CliRunner().invoke(app, ["balance-merge", str(part), str(changed), "--out", str(tmp_path / "no")])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "different cards" in result.output and sha[:SHORT_HASH] in result.output, result.output
    assert not (tmp_path / "no").exists()
    # a report from before origins were recorded still merges with one that has its origin (none kept)
    old = tmp_path / "old"
    shutil.copytree(report, old)
    data = json.loads((old / "tally.json").read_text(encoding="utf-8"))
    del data["about"]["origin"]
    (old / "tally.json").write_text(json.dumps(data), encoding="utf-8")
    later = _part(tmp_path, 41, 2)
    result = CliRunner().invoke(app, ["balance-merge", str(old), str(later), "--out", str(tmp_path / "both")])
    assert result.exit_code == 0, result.output
    assert "origin" not in json.loads((tmp_path / "both" / "summary.json").read_text(encoding="utf-8"))["about"]


def test_a_compare_records_each_versions_origin(tmp_path: Path) -> None:
    folder = _weaker_copy(tmp_path, "Tumbleweed", 2)
    out = tmp_path / "c"
    args = ["balance", "--set", SET, "--games", "2", "--workers", "1", "--compare", "--b-set-dir", str(folder)]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    c = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    assert c["about"]["a"]["origin"]["set_dirs"] == []
    assert [d["folder"] for d in c["about"]["b"]["origin"]["set_dirs"]] == ["my-set"]
    b = json.loads((out / "b" / "summary.json").read_text(encoding="utf-8"))
    assert b["about"]["origin"] == c["about"]["b"]["origin"]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Version B&#x27;s cards:" in page and "designer folder my-set" in page
