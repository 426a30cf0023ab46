"""Card faces: what the page's card popover and the terminal's `card NAME` show, from the card data.

Each face is checked against facts of its card's set file (../shared/rules/ for the rules behind them);
every card of every set must get one, and a game's catalog must match the cards in play.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from munchkin.cards.face import card_face, catalog, condition_phrase, face_text, glance, sets_catalog
from munchkin.cards.loader import available_sets, load_set
from munchkin.cards.schema import Condition
from munchkin.engine.cards import CardDef, build_def, build_houses
from munchkin.engine.game import Game, Setup
from munchkin.server.app import create_app
from munchkin.server.config import ServerSettings


def card(set_name: str, name: str) -> CardDef:
    cs = load_set(set_name)
    c = next(c for c in cs.cards if c.name == name)
    return build_def(0, set_name, c, cs.terms)


def lines(face: dict[str, Any]) -> dict[str, str]:
    return {ln["label"]: ln["text"] for ln in face["lines"]}


def test_a_monster_with_bad_stuff_and_will_not_pursue() -> None:
    f = card_face(card("deluxe", "Plutonium Dragon"))
    assert (f["kind_word"], f["deck_word"], f["edition"]) == ("Monster", "Door", "Munchkin Deluxe")
    assert (f["level"], f["treasures"], f["levels"]) == (20, 5, 2)
    assert f["will_not_pursue"] == "anyone of Level 5 or less"
    assert f["bad_stuff"].startswith("You are dead")
    assert lines(f)["Killing it wins"] == "5 Treasures and 2 levels"
    assert f["glance"] == ["Lv 20", "2 levels"] == glance(card("deluxe", "Plutonium Dragon"))
    assert f["icon"] == "monster" and f["text"] and f["provenance_word"]
    # King Tut: Undead, will not pursue, and something happens even to those who escape
    tut = card_face(card("deluxe", "King Tut"))
    assert tut["tags"] == ["Undead"]
    assert tut["will_not_pursue"] == "anyone of Level 3 or less"
    assert tut["even_if_escaped"] == "If you are a character of Level 4 or more: lose 2 levels."
    assert tut["bad_stuff"] == "Lose every Item you have, then discard your whole hand."
    # Squidzilla pursues an Elf whatever the Level; Amazon will not attack women and pays them instead
    assert (
        card_face(card("deluxe", "Squidzilla"))["will_not_pursue"]
        == "anyone of Level 4 or less, unless they are an Elf"
    )
    amazon = card_face(card("deluxe", "Amazon"))
    assert amazon["will_not_attack"] == "a female character (who draws 1 Treasure instead)"
    assert amazon["bad_stuff"] == "Lose every Class; otherwise lose 3 levels."
    # a monster whose Bad Stuff is too particular for the data (a hook) says it in its text's words
    troll = card_face(card("deluxe", "Net Troll"))
    assert troll["bad_stuff"] == "Each player of the highest Level takes one Item of their choice from you."
    assert lines(troll)["Bad Stuff"] == troll["bad_stuff"]
    # and a Curse or Trap of that kind shows its text once, not a "What it does" pointing at it
    for set_name, name, starts in (
        ("deluxe", "Lose Two Cards", "The player on your left"),
        ("star", "Docking Fee", "Discard"),
    ):
        curse = card_face(card(set_name, name))
        assert curse["effects"].startswith(starts) and "What it does" not in lines(curse)
    bigfoot = card_face(card("deluxe", "Bigfoot"))
    assert bigfoot["modifiers"] == ["+3 against a Dwarf", "+3 against a Halfling"]


def test_items_say_who_may_use_them() -> None:
    staff = card_face(card("deluxe", "Staff of Napalm"))
    assert staff["usable_by"] == "a Wizard" and "not_usable_by" not in staff
    assert lines(staff)["Usable only by"] == "a Wizard"
    assert lines(staff)["Value"].endswith(" gold")
    mithril = card_face(card("deluxe", "Mithril Armor"))
    assert mithril["not_usable_by"] == "a Wizard" and mithril["slot_word"] == "Armor" and mithril["big"] is True
    assert lines(mithril)["Size"] == "Big"
    assert card_face(card("deluxe", "Broad Sword"))["not_usable_by"] == "a female character"
    assert card_face(card("deluxe", "Swiss Army Polearm"))["usable_by"] == "a character with no Race"
    assert card_face(card("harry-potter", "Sword of Gryffindor"))["usable_by"] == "a Gryffindor"
    assert card_face(card("star", "Net Launcher"))["usable_by"] == "a Bounty Hunter"
    horny = card_face(card("deluxe", "Horny Helmet"))
    assert horny["conditional_bonus"] == ["+2 more for an Elf"]
    assert horny["glance"] == ["+1", "Head"]
    two = card("deluxe", "Swiss Army Polearm")
    assert glance(two) == [f"{two.bonus:+d}", "2 Hands"] and card_face(two)["slot_word"] == "2 Hands"


def test_a_one_shot_a_curse_and_a_trap() -> None:
    missile = card_face(card("deluxe", "Magic Missile"))
    assert missile["kind_word"] == "One-shot" and missile["glance"] == ["+5"]
    assert lines(missile)["Bonus"] == "+5" and lines(missile)["Value"] == "300 gold"
    assert missile["when"] == "in a combat"
    curse = card_face(card("deluxe", "Lose 1 Big Item"))
    assert curse["kind_word"] == "Curse" and curse["icon"] == "curse"
    assert curse["effects"] == "Lose a Big item (your choice)."
    assert curse["duration"] == "Strikes once, then is discarded"
    assert curse["glance"] == []
    traps = [c for c in load_set("star").cards if c.kind == "curse"]
    trap = card_face(build_def(0, "star", traps[0], load_set("star").terms))
    assert trap["kind_word"] == "Trap" and trap["edition"] == "Star Munchkin"


def test_a_steed_a_race_a_class_and_a_house() -> None:
    steed = card_face(card("good-bad", "Bucking Bronco"))
    assert steed["kind_word"] == "Steed" and steed["icon"] == "steed" and steed["steed"] is True
    assert steed["glance"] == ["+4", "Steed"]
    assert lines(steed)["Drawn face-up"].startswith("you may fight it as a Level 8 monster")
    assert lines(steed)["Run Away"] == "-2 to your Run Away rolls" and steed["gold"] == 600
    elf = card_face(card("deluxe", "Elf"))
    assert elf["kind_word"] == "Race" and elf["run_away"] == "+1 to your Run Away rolls"
    assert elf["abilities"] == ["goes up a level for each monster killed while helping"]
    warrior = card_face(card("deluxe", "Warrior"))
    assert warrior["kind_word"] == "Class" and "wins combats that end in a tie" in warrior["abilities"]
    house = card_face(build_houses(["harry-potter"])["gryffindor"])
    assert (house["kind_word"], house["deck_word"]) == ("House", "Chosen at setup")
    assert face_text(house)[0] == "Gryffindor (House, chosen at setup)"


def test_conditions_read_as_words() -> None:
    assert condition_phrase(Condition(race="elf", sex="female")) == "a female Elf"
    assert condition_phrase(Condition(level_at_most=3)) == "a character of Level 3 or less"
    assert condition_phrase(Condition(race="human")) == "a Human"
    assert condition_phrase(Condition.model_validate({"class": "warrior", "not_race": "elf"})) == (
        "a Warrior who is not an Elf"
    )
    assert condition_phrase(Condition(role="head boy/girl")) == "a Head Boy/Girl"


@pytest.mark.parametrize("set_name", available_sets())
def test_every_card_of_every_set_has_a_face(set_name: str) -> None:
    cs = load_set(set_name)
    for i, c in enumerate(cs.cards):
        d = build_def(i, set_name, c, cs.terms)
        f = card_face(d)
        assert f["name"] == c.name and f["text"] == c.text and f["edition"] == cs.title, c.name
        assert json.loads(json.dumps(f)) == f, c.name  # plain JSON
        assert all(ln["label"] and ln["text"] for ln in f["lines"]), c.name
        assert len(f["glance"]) <= 2 and all(len(g) <= 12 for g in f["glance"]), (c.name, f["glance"])
        if d.is_monster:
            assert f["glance"][0] == f"Lv {d.level}" and "bad_stuff" in f, c.name
        if d.is_item and d.bonus:
            assert f["glance"][0] == f"{d.bonus:+d}", c.name
        assert face_text(f)[0].startswith(c.name), c.name
    for h in cs.houses:
        assert card_face(build_houses([set_name])[h.name.lower()])["text"] == h.text


def test_the_catalog_of_a_mixed_game_is_the_game_s_own_cards() -> None:
    sets = ["star", "deluxe"]
    g = Game(Setup(sets=sets, players=["Ann", "Bob", "Cy"], seed=4))
    cat = catalog(g)
    assert cat == sets_catalog(sets)
    assert {g.cdef[c].name.lower() for c in range(g.ncards)} == set(cat)
    for c in range(g.ncards):
        assert cat[g.cdef[c].name.lower()]["name"] == g.name(c)
    # a card of both boxes is one card in play: the first set's face, which says where else it is
    cheat = cat["cheat!"]
    assert cheat["set"] == "star" and cheat["editions"] == ["Star Munchkin", "Munchkin Deluxe"]
    assert cat["elf"]["edition"] == "Munchkin Deluxe" and "editions" not in cat["elf"]
    assert cat["mutant"]["edition"] == "Star Munchkin"
    hp = catalog(Game(Setup(sets=["harry-potter"], players=["Ann", "Bob", "Cy"], seed=1)))
    assert hp["slytherin"]["kind"] == "house"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.db'}", ServerSettings())) as c:
        yield c


def test_the_server_sends_a_table_s_catalog_once(client: TestClient) -> None:
    seats = [{"name": "Ann", "kind": "human"}] + [{"name": f"Bot {i}", "kind": "bot"} for i in (2, 3)]
    r = client.post("/api/tables", json={"name": "Faces", "sets": ["good-bad"], "seats": seats, "bot_delay": 0})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    r = client.get(f"/api/tables/{tid}/cards", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip" and "max-age" in r.headers["cache-control"]
    body = r.json()
    assert body == sets_catalog(["good-bad"]) and body["bucking bronco"]["kind_word"] == "Steed"
    plain = client.get(f"/api/tables/{tid}/cards", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and json.loads(plain.content) == body
    again = client.get(f"/api/tables/{tid}/cards", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert client.get("/api/tables/nosuchtable/cards").status_code == 404


def test_a_designer_folders_card_says_where_it_comes_from(tmp_path: Path) -> None:
    """A card loaded from a --set-dir folder: changed or new, it is the folder's ("from the designer folder
    my-deluxe"); an unchanged copy keeps its provenance and says it was loaded from the folder. The terminal
    face, the page's catalog and `cards list --json` say the same; built-in cards say nothing of folders."""
    import shutil

    from typer.testing import CliRunner

    from munchkin.cards.loader import SETS_DIR, add_set_dir, clear_set_dirs
    from munchkin.cli import app

    folder = tmp_path / "my-deluxe"
    folder.mkdir()
    for f in (SETS_DIR / "deluxe").glob("*.yaml"):
        shutil.copyfile(f, folder / f.name)
    doors = folder / "doors.yaml"
    text = doors.read_text(encoding="utf-8")
    at = text.index("name: Net Troll")
    doors.write_text(text[:at] + text[at:].replace("level: 10", "level: 17", 1), encoding="utf-8")
    try:
        add_set_dir(folder)
        faces = sets_catalog(["deluxe"])
        troll, rat = faces["net troll"], faces["maul rat"]
        assert troll["folder"] == {"name": "my-deluxe", "card": "changed"}
        assert troll["provenance_word"] == "from the designer folder my-deluxe, changed from the built-in card"
        assert face_text(troll)[-1].endswith("from the designer folder my-deluxe, changed from the built-in card.")
        assert "rulebook" not in " ".join(face_text(troll))  # the designer's card, no longer the rulebook's
        assert rat["folder"]["card"] == "same"
        assert (
            rat["provenance_word"] == "a card of the published box, loaded unchanged from the designer folder my-deluxe"
        )
        listed = CliRunner().invoke(app, ["cards", "list", "--json", "--set-dir", str(folder)])
        assert listed.exit_code == 0, listed.output
        troll_record = next(c for c in json.loads(listed.stdout) if c["name"] == "Net Troll")
        assert troll_record["folder"] == {"name": "my-deluxe", "card": "changed"}
    finally:
        clear_set_dirs()
    stock = sets_catalog(["deluxe"])["net troll"]
    assert "folder" not in stock and stock["provenance_word"] == "named in the edition's rulebook"


def test_a_new_card_of_a_designer_folder_is_new(tmp_path: Path) -> None:
    from munchkin.cards.loader import add_set_dir, clear_set_dirs

    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "set.yaml").write_text(
        "set: my-set\ntitle: My Tiny Set\ndoor_cards: 16\ntreasure_cards: 1\ncards:\n"
        "  - {id: my_set.octahedron, name: Octahedron, deck: door, kind: monster, copies: 16, provenance: original,\n"
        "     text: 'Level 2.', monster: {level: 2, treasures: 1, bad_stuff: [{lose_levels: 1}]}}\n"
        "  - {id: my_set.stick, name: Stick, deck: treasure, kind: item, copies: 1, provenance: original,\n"
        "     text: '+2.', item: {bonus: 2, gold: 200, slot: hands, hands: 1}}\n",
        encoding="utf-8",
    )
    try:
        add_set_dir(folder)
        face = sets_catalog(["my-set"])["octahedron"]
        assert face["folder"] == {"name": "tiny", "card": "new"}
        assert face["provenance_word"] == "from the designer folder tiny, a new card"
    finally:
        clear_set_dirs()
