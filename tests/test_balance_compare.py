"""The balance comparison tells the truth about a changed card (issue 35, point 3): paired seeds (the
same sums on 1 worker, 2 workers and Ray, intervals no wider than unpaired ones), the changed cards
pinned first with their differences in words, a card in one version only never compared against
nothing, games needed for a difference not yet clear, CSV tables, and the page read at 760 and 390 px
in Chromium (screenshots in test-artifacts/balance/)."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from munchkin.balance.command import changed_cards, version_differences
from munchkin.balance.paired import PairedTally
from munchkin.balance.runner import Plan, Runner, Version
from munchkin.balance.stats import Z80, Z95, games_needed, mover
from munchkin.balance.summary import compare
from munchkin.balance.tally import Tally
from munchkin.cards.loader import set_dir_files
from munchkin.cli import app
from test_balance import SET, _weaker_copy

GAMES = 30  # seeds played under both versions: enough for pairing to show, quick enough for a test
MONSTER = "Hanging Judge"  # a Level 12 monster of the set, made Level 1 in version B


def _width(c: dict[str, Any] | None) -> float:
    assert c is not None and c["low"] is not None, c
    return float(c["high"] - c["low"])


@pytest.fixture(scope="module")
def weaker(tmp_path_factory: pytest.TempPathFactory) -> tuple[Version, Version]:
    folder = _weaker_copy(tmp_path_factory.mktemp("cmp"), MONSTER)
    files = tuple(sorted(set_dir_files(folder).items()))
    return Version((SET,), 4, ("heuristic",)), Version((SET,), 4, ("heuristic",), set_files=(files,))


@pytest.fixture(scope="module")
def paired_run(weaker: tuple[Version, Version]) -> tuple[Tally, Tally, PairedTally]:
    va, vb = weaker
    return Runner(workers=1).run_pair(va, vb, Plan(1, GAMES))


def _json(ta: Tally, tb: Tally, p: PairedTally) -> str:
    return json.dumps([compare(ta, tb, p), p.to_json(), ta.to_json(), tb.to_json()], sort_keys=True)


def test_a_paired_comparison_is_the_same_on_one_worker_two_workers_and_ray(
    weaker: tuple[Version, Version], paired_run: tuple[Tally, Tally, PairedTally]
) -> None:
    import ray

    va, vb = weaker
    one = _json(*paired_run)
    assert _json(*Runner(workers=2).run_pair(va, vb, Plan(1, GAMES, batch=7))) == one
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = Runner(ray="auto").run_pair(va, vb, Plan(1, GAMES, batch=11))
    finally:
        ray.shutdown()
    assert _json(*on_ray) == one
    ta, tb, p = paired_run
    assert p.games == ta.games == tb.games == GAMES
    alone = Runner(workers=1).run(va, Plan(1, GAMES))  # A's games are A's games, paired or not
    assert json.dumps(alone.to_json(), sort_keys=True) == json.dumps(ta.to_json(), sort_keys=True)


def test_paired_intervals_are_no_wider_than_unpaired_ones(paired_run: tuple[Tally, Tally, PairedTally]) -> None:
    ta, tb, p = paired_run
    paired, unpaired = compare(ta, tb, p), compare(ta, tb)
    assert paired["mean_turns"]["paired"] and not unpaired["mean_turns"]["paired"]
    assert paired["mean_turns"]["diff"] == unpaired["mean_turns"]["diff"]  # the same games: the same difference
    assert _width(paired["mean_turns"]) <= _width(unpaired["mean_turns"])
    for sp, su in zip(paired["seats"], unpaired["seats"], strict=True):
        assert sp["paired"] and _width(sp) <= _width(su), (sp, su)
    assert _width(paired["first_player"]["change"]) <= _width(unpaired["first_player"]["change"])
    judge = next(r for r in paired["monsters"] if r["name"] == MONSTER)
    assert judge["kill_change"]["diff"] > 0  # made Level 1: killed more often
    mon_u = {r["id"]: r for r in unpaired["monsters"]}
    fights = [(r["kill_change"], mon_u[r["id"]]["kill_change"]) for r in paired["monsters"] if r["kill_change"]]
    fights = [(mp, mu) for mp, mu in fights if mp["paired"]]
    assert len(fights) >= 5 and all(_width(mp) <= _width(mu) for mp, mu in fights), fights
    by_id = {r["id"]: r for r in unpaired["cards"]}
    both = [(r["change"], by_id[r["id"]]["change"]) for r in paired["cards"] if r["change"] and r["change"]["paired"]]
    assert len(both) >= 20
    narrower = sum(_width(cp) <= _width(cu) for cp, cu in both)
    assert narrower >= 0.9 * len(both), (narrower, len(both))
    for cp, cu in both:  # pairing changes the interval, never the difference itself
        assert math.isclose(cp["diff"], cu["diff"], abs_tol=1e-5)


def test_a_version_compared_with_itself_on_paired_seeds_finds_nothing(weaker: tuple[Version, Version]) -> None:
    va, _ = weaker
    ta, tb, p = Runner(workers=1).run_pair(va, va, Plan(1, 8))
    c = compare(ta, tb, p)
    assert c["significant"]["cards"] == c["significant"]["monsters"] == c["significant"]["seats"] == 0
    assert c["mean_turns"]["diff"] == 0 and not c["mean_turns"]["significant"]
    assert all(r["change"] is None or (r["change"]["diff"] == 0 and r["change"]["low"] < 0) for r in c["cards"])


def test_games_needed_and_the_mover_interval() -> None:
    # a difference of 5 points with an interval of -5 to +15 on 100 games: se = 10 / 1.96 points
    se = 0.1 / Z95
    expected = math.ceil(100 * ((Z95 + Z80) * se / 0.05) ** 2 - 100)
    assert games_needed(0.05, -0.05, 0.15, 100) == expected and 700 < expected < 740
    assert games_needed(0.05, 0.01, 0.09, 100) is None  # already clear
    assert games_needed(0.0, -0.1, 0.1, 100) is None  # nothing to settle
    d, lo, hi = mover((0.3, 0.2, 0.4), (0.1, 0.05, 0.15))
    assert math.isclose(d, 0.2) and math.isclose(lo, 0.2 - math.hypot(0.1, 0.05))
    assert math.isclose(hi, 0.2 + math.hypot(0.1, 0.05))


def _designer_folder(tmp: Path) -> tuple[Path, str, str]:
    """The set's folder with the monster made Level 1 and given a harsher Bad Stuff, one card taken out
    and a new monster added: (folder, the card taken out, the new monster)."""
    folder = _weaker_copy(tmp, MONSTER)
    gone = new = ""
    for f in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        cards = data.get("cards") or []
        for card in cards:
            if card.get("name") == MONSTER:
                card["monster"]["bad_stuff"].insert(0, {"lose_levels": 2})
        monsters = [c for c in cards if c.get("kind") == "monster" and c.get("name") != MONSTER]
        if monsters and not new:
            gone = monsters[0]["name"]
            fresh = {**monsters[1], "id": monsters[1]["id"] + "_twin", "name": "Test Twin"}
            new = fresh["name"]
            data["cards"] = [c for c in cards if c is not monsters[0]] + [fresh]
        f.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    assert gone and new
    return folder, gone, new


@pytest.fixture(scope="module")
def compare_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    tmp = tmp_path_factory.mktemp("page")
    folder, gone, new = _designer_folder(tmp)
    out = tmp / "report"
    args = ["balance", "--set", SET, "--games", str(GAMES), "--workers", "1", "--compare", "--b-set-dir", str(folder)]
    args += ["--b-option", "listen_at_the_door=on", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out, gone, new


def test_the_changed_cards_open_the_page_in_words(compare_page: tuple[Path, str, str]) -> None:
    out, gone, new = compare_page
    c = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    changes = {ch["name"]: ch for ch in c["changed_cards"]}
    assert set(changes) == {MONSTER, gone, new}
    words = changes[MONSTER]["words"]
    assert "Level: 12 → 1" in words
    assert any(w.startswith("Bad Stuff: ") and "lose 2 levels" in w.lower() for w in words), words
    assert changes[gone]["change"] == "only in A" and changes[new]["change"] == "only in B"
    assert c["version_differences"][0] == "Listen at the door: off → on"
    for ch in c["changed_cards"]:  # plain words, never Python's dicts and lists
        assert all(not any(x in w for x in "{}[]'") for w in ch["words"]), ch["words"]
    # the changed cards lead their tables, and a card in one version only is never compared against 0/0
    pinned = set(c["pinned"])
    assert {r["id"] for r in c["cards"][: len(pinned)] if r["changed"]} <= pinned
    first = [r["changed"] for r in c["cards"]]
    assert first == sorted(first, reverse=True)
    for r in c["cards"] + c["monsters"]:
        if r["only_in"]:
            assert all(r.get(k) is None for k in ("change", "kill_change", "death_change", "escape_change")), r
    page = (out / "index.html").read_text(encoding="utf-8")
    head, _, rest = page.partition('id="changed"')
    assert rest and "Headlines" in rest and "Headlines" not in head  # "What you changed" comes first
    changed_part = rest.split("<h2>Headlines")[0]
    for name in (MONSTER, gone, new):
        assert name in changed_part
    assert "Level: 12 → 1" in changed_part and ("not in A" in changed_part and "not in B" in changed_part)
    assert changed_part.count("<svg") == 1  # the forest plot of the changed cards' differences
    assert page.count("<svg") >= 2  # and the monsters' kill rates, A against B


def test_the_comparison_tables_are_written_as_csv(compare_page: tuple[Path, str, str]) -> None:
    out, _, new = compare_page
    c = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    for name, key in (("cards", "cards"), ("monsters", "monsters"), ("characters", "characters")):
        with (out / f"compare_{name}.csv").open(encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == len(c[key]) > 0, name
        head = rows[0].keys()
        for col in ("changed", "only_in"):
            assert col in head
        assert any(h.endswith("low") for h in head) and any(h.endswith("paired") for h in head)
        assert any(h.endswith("games_needed") for h in head)
    with (out / "compare_monsters.csv").open(encoding="utf-8") as f:
        twin = next(r for r in csv.DictReader(f) if r["name"] == new) if new else None
    assert twin is not None and twin["only_in"] == "B" and twin["kill_diff"] == "" and twin["kill_low"] == ""
    with (out / "compare_headlines.csv").open(encoding="utf-8") as f:
        heads = {r["figure"]: r for r in csv.DictReader(f)}
    assert heads["mean_turns"]["paired"] == "True" and heads["seat_1_wins"]["paired"] == "True"


def test_changes_are_said_in_words_for_options_and_agents() -> None:
    a = Version((SET,), 4, ("heuristic",))
    b = Version((SET,), 4, ("random",), options=(("turn_cap", 800),))
    assert version_differences(a, b) == ["Turn cap: 5000 → 800", "Agents: heuristic → random"]
    assert changed_cards(a, b) == []


@pytest.mark.parametrize("width", [760, 390])
def test_the_compare_page_fits_a_narrow_screen(compare_page: tuple[Path, str, str], width: int) -> None:
    from playwright.sync_api import sync_playwright

    from system import CHROMIUM, CHROMIUM_ARGS, ensure_debian_packages
    from waits import PATIENCE

    ensure_debian_packages("chromium")
    out, _, _ = compare_page
    errors: list[str] = []
    with sync_playwright() as p:
        # Playwright's own bounds (30 s) are not for a busy machine: PATIENCE to start and load
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, timeout=PATIENCE * 1000
        )
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.set_default_timeout(PATIENCE * 1000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((out / "index.html").as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page never scrolls sideways
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('table')].map((t) => {
              let box = t.parentElement;  // the box that scrolls it sideways (its own, or a taller one's)
              while (box.parentElement && getComputedStyle(box).overflowX !== 'auto') box = box.parentElement;
              const r = box.getBoundingClientRect();
              return {cls: t.className, right: r.right, overflow: getComputedStyle(box).overflowX,
                      scrolls: box.scrollWidth > box.clientWidth, wider: t.scrollWidth > box.clientWidth};
            })"""
        )
        assert len(boxes) >= 5
        for b in boxes:  # each table sits inside the screen; one wider than its box scrolls in that box
            assert b["right"] <= width + 0.5, b
            assert not b["wider"] or (b["scrolls"] and b["overflow"] == "auto"), b
        if width == 760:
            assert any(b["scrolls"] for b in boxes)  # the wide tables do scroll here (they would be cut)
        for el in page.locator("svg").all():  # plots shrink to the screen
            box = el.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width + 0.5
        artifacts = Path("test-artifacts") / "balance"
        artifacts.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(artifacts / f"compare-{width}.png"), full_page=True)
        browser.close()
    assert errors == []
