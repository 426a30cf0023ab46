"""Card data: the Deluxe deck as published, and clear errors for broken set files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from munchkin.cards import loader
from munchkin.cards.loader import CardError, load_set

DELUXE = loader.SETS_DIR / "deluxe"


def test_deluxe_counts_and_provenance() -> None:
    cs = load_set("deluxe")
    doors = sum(c.copies for c in cs.cards if c.deck == "door")
    treasures = sum(c.copies for c in cs.cards if c.deck == "treasure")
    assert (doors, treasures) == (95, 73)
    assert {c.provenance for c in cs.cards} <= {"rulebook", "published", "original"}
    named = {c.name for c in cs.cards if c.provenance == "rulebook"}
    assert {"Net Troll", "Enraged", "Chainsaw of Bloody Dismemberment", "Magic Missile"} <= named


def test_every_card_has_its_own_text() -> None:
    for c in load_set("deluxe").cards:
        assert len(c.text) >= 15, c.name


def _broken_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str, new: str) -> str:
    root = tmp_path / "sets"
    shutil.copytree(DELUXE, root / "deluxe", ignore=shutil.ignore_patterns("__pycache__"))
    doors = root / "deluxe" / "doors.yaml"
    text = doors.read_text()
    assert edit in text
    doors.write_text(text.replace(edit, new, 1))
    monkeypatch.setattr(loader, "SETS_DIR", root)
    load_set.cache_clear()
    try:
        with pytest.raises(CardError) as err:
            load_set("deluxe")
    finally:
        load_set.cache_clear()
    return str(err.value)


def test_unknown_key_names_file_and_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _broken_set(
        tmp_path, monkeypatch, "      level: 10\n      treasures: 3\n", "      levle: 10\n      treasures: 3\n"
    )
    assert "doors.yaml" in msg and "levle" in msg and "card" in msg


def test_wrong_deck_count_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _broken_set(tmp_path, monkeypatch, "copies: 3", "copies: 4")
    assert "96 Door" in msg and "95" in msg


def test_missing_hook_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _broken_set(tmp_path, monkeypatch, "hook: deluxe.net_troll_bad_stuff", "hook: deluxe.no_such_hook")
    assert "Net Troll" in msg and "deluxe.no_such_hook" in msg


def test_not_yaml_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _broken_set(tmp_path, monkeypatch, "cards:", "cards: [")
    assert "doors.yaml" in msg and "YAML" in msg


RULEBOOK_STAR = {
    "Diamondoid Teeth",
    "Bottle Bottle",
    "...From Another Dimension",
    "Bobaser",
    "Starfish",
    "Fanged Fuzzball",
    "Neuronic Whip",
    "Laser",
    "Dazer",
    "Maser",
    "Radioactive",
    "...And Its Clone",
    "Annihilate",
    "Antimatter",
    "Great Cthulhu",
    "Red Shirt",
    "Battle Armor",
    "Lose Your Armor",
    "Mutant",
    "Feline",
    "Cyborg",
    "Gadgeteer",
    "Psychic",
    "Trader",
    "Bounty Hunter",
}


def test_star_counts_and_provenance() -> None:
    cs = load_set("star")
    doors = sum(c.copies for c in cs.cards if c.deck == "door")
    treasures = sum(c.copies for c in cs.cards if c.deck == "treasure")
    assert (doors, treasures) == (94, 74)
    by_name = {c.name: c for c in cs.cards}
    for name in RULEBOOK_STAR:  # every card the rulebook names is in the box, and says so
        assert by_name[name].provenance == "rulebook", name
    for c in cs.cards:  # a real card whose facts are partly ours says which
        if c.provenance != "original":
            assert c.note, f"{c.name} ({c.provenance}) has no note on where its facts come from"
    assert cs.terms == {"curse": "Trap", "curses": "Traps"}
    lasers = [c for c in cs.cards if c.item and c.item.laser]
    assert {c.name for c in lasers} >= {"Laser", "Dazer", "Maser", "Bobaser"}
    assert sum(c.copies for c in cs.cards if c.kind == "sidekick") == 8


# The numbers of ../shared/cards/star-monsters-reference.csv (name, Level, Treasures, levels won), copied here
STAR_MONSTERS = Path(__file__).parent / "data" / "star_monsters.csv"
STAR_LEVELS_WON_FIXED = {"Carnivorous Plant": 1}  # the list's 2 levels for a Level 1 monster: a slip (see its note)


def test_star_monsters_are_the_published_ones() -> None:
    """Star's monsters are exactly the 37 of the published list, with its Levels, Treasures and levels won."""
    import csv

    rows = {r["name"]: r for r in csv.DictReader(STAR_MONSTERS.open(encoding="utf-8"))}
    monsters = {c.name: c for c in load_set("star").cards if c.monster}
    assert len(rows) == 37 and set(monsters) == set(rows)
    for name, r in rows.items():
        c, m = monsters[name], monsters[name].monster
        assert m is not None and c.copies == 1, name
        won = STAR_LEVELS_WON_FIXED.get(name, int(r["levels_won"]))
        assert (m.level, m.treasures, m.levels) == (int(r["level"]), int(r["treasures"]), won), name
        assert c.provenance in ("published", "rulebook") and "star-monsters-reference.csv" in (c.note or ""), name


def test_star_vocabulary_errors_say_what_is_wrong() -> None:
    from pydantic import ValidationError

    from munchkin.cards.schema import Card

    base = {"id": "star.x", "name": "X", "provenance": "original", "text": "A test card, nothing more."}
    with pytest.raises(ValidationError, match="2-Hand weapon"):
        Card.model_validate({**base, "deck": "treasure", "kind": "item", "item": {"laser": True, "slot": "none"}})
    with pytest.raises(ValidationError, match="carries"):
        Card.model_validate({**base, "deck": "door", "kind": "sidekick", "sidekick": {"carries": 2}})
    with pytest.raises(ValidationError, match="grants"):
        Card.model_validate({**base, "deck": "door", "kind": "sidekick", "sidekick": {"grants": ["fly"]}})
    ok = Card.model_validate({**base, "deck": "door", "kind": "sidekick", "sidekick": {"bonus": 2}})
    assert ok.sidekick is not None and ok.sidekick.bonus == 2


RULEBOOK_GOOD_BAD = {
    "Bowler Hat",
    "Bowie Knife",
    "Ghost Rider",
    "Gol-Darned",
    "Bullwhip",
    "Branding Iron",
    "Civil War Cannon",
    "Grizzly",
    "Mechanical Bull",
    "Killer Jalapeño",
    "Catamount",
    "Sheriff's Badge",
    "20-Gallon Hat",
    "Crusty Old Prospector",
    "Schoolmarm",
    "Cavalry",
    "Cowboy",
    "Indian",
    "Outlaw",
    "Dude",
    "Super Munchkin",
    "Cheat!",
    "Wandering Monster",
    "Lose Your Armor",
}


def test_good_bad_counts_and_provenance() -> None:
    cs = load_set("good-bad")
    doors = sum(c.copies for c in cs.cards if c.deck == "door")
    treasures = sum(c.copies for c in cs.cards if c.deck == "treasure")
    assert doors + treasures == 227 and (doors, treasures) == (cs.door_cards, cs.treasure_cards)
    by_name = {c.name: c for c in cs.cards}
    for name in RULEBOOK_GOOD_BAD:  # every card the rulebook names is in the box, and says so
        assert by_name[name].provenance == "rulebook", name
    for c in cs.cards:
        if c.provenance != "original":
            assert c.note, f"{c.name} ({c.provenance}) has no note on where its facts come from"
    assert not [c for c in cs.cards if c.kind == "race"], "this edition has no Races"
    assert "Half-Breed" not in by_name
    assert {c.name for c in cs.cards if c.kind == "class"} == {"Cavalry", "Cowboy", "Indian", "Outlaw", "Dude"}
    steeds = [c for c in cs.cards if c.item and c.item.steed]
    assert steeds and all(c.deck == "door" for c in steeds)
    sidekicks = [c for c in cs.cards if c.sidekick]
    assert sidekicks and all(c.deck == "door" and c.sidekick.sex for c in sidekicks if c.sidekick)
    assert by_name["Schoolmarm"].sidekick and by_name["Schoolmarm"].sidekick.sex == "female"
    assert [c for c in cs.cards if c.kind == "item_enhancer"]
    # the Example of Combat's numbers
    ghost = by_name["Ghost Rider"].monster
    assert ghost and (ghost.level, ghost.treasures) == (8, 2)
    assert [(m.value, m.if_.class_) for m in ghost.modifiers] == [(-3, "indian")]
    gol = by_name["Gol-Darned"].enhancer
    assert gol and (gol.strength, gol.treasures) == (5, 1)
    assert [by_name[n].item.bonus for n in ("Bowler Hat", "Bowie Knife", "Bullwhip")] == [2, 2, 3]  # type: ignore[union-attr]


def test_good_bad_vocabulary_errors_say_what_is_wrong() -> None:
    from pydantic import ValidationError

    from munchkin.cards.schema import Card

    base = {"id": "good_bad.x", "name": "X", "provenance": "original", "text": "A test card, nothing more."}
    with pytest.raises(ValidationError, match="Steed takes no slot"):
        Card.model_validate({**base, "deck": "door", "kind": "item", "item": {"steed": True, "slot": "headgear"}})
    with pytest.raises(ValidationError, match="treasure deck"):
        Card.model_validate({**base, "deck": "door", "kind": "item", "item": {"bonus": 1}})
    with pytest.raises(ValidationError, match="treasure deck"):
        Card.model_validate({**base, "deck": "door", "kind": "item_enhancer", "item_enhancer": {"bonus": 1}})
    with pytest.raises(ValidationError, match="sex"):
        Card.model_validate({**base, "deck": "door", "kind": "sidekick", "sidekick": {"sex": "robot"}})
    steed = Card.model_validate({**base, "deck": "door", "kind": "item", "item": {"steed": True, "bonus": 3}})
    assert steed.item is not None and steed.item.steed


def test_bots_play_other_editions_cards_like_their_deluxe_twins() -> None:
    """The heuristic bot's aliases (SAME_AS) name a Deluxe card whose hook works the same way."""
    from munchkin.agents.heuristic import SAME_AS
    from munchkin.cards.hooks import CardHook
    from munchkin.cards.loader import HOOKS, _hooks_of

    for name in ("star", "good-bad", "harry-potter", "deluxe"):
        load_set(name)
    # a Deluxe card's hook, which may be a shared library hook its YAML names
    deluxe_hook = {c.id: next(_hooks_of(c)) for c in load_set("deluxe").cards if any(_hooks_of(c))}
    for prefix in ("star", "good_bad", "harry_potter"):
        for alias, twin in SAME_AS.items():
            mine = HOOKS.get(f"{prefix}.{alias}")
            if mine is None:
                continue
            theirs = HOOKS[deluxe_hook[f"deluxe.{twin}"]]
            if isinstance(theirs, CardHook):  # the same rule, perhaps in other words (a Mate's name)
                assert type(mine) is type(theirs), (prefix, alias, twin)
            else:  # a Curse's effect function: the very same
                assert mine is theirs, (prefix, alias, twin)


RULEBOOK_HARRY_POTTER = {
    "Dress Robes",
    "Deluminator",
    "Peter Pettigrew",
    "Felix Felicis",
    "Bombarda!",
    "Nimbus 2001",
    "Dolores Umbridge",
    "Crystal Ball",
    "Hermione Granger",
    "Quidditch Robes",
    "Sectumsempra!",
    "Dual Role",
    "Quidditch Captain",
    "Head Boy/Girl",
    "Prefect",
    "Inquisitorial Squad",
    "Cheat!",
    "Wandering Monster",
}


def test_harry_potter_counts_houses_and_provenance() -> None:
    cs = load_set("harry-potter")
    doors = sum(c.copies for c in cs.cards if c.deck == "door")
    treasures = sum(c.copies for c in cs.cards if c.deck == "treasure")
    assert (doors, treasures) == (92, 76) == (cs.door_cards, cs.treasure_cards)
    by_name = {c.name: c for c in cs.cards}
    for name in RULEBOOK_HARRY_POTTER:
        assert by_name[name].provenance == "rulebook", name
    for c in cs.cards:
        if c.provenance != "original":
            assert c.note, f"{c.name} ({c.provenance}) has no note on where its facts come from"
    assert not [c for c in cs.cards if c.kind in ("race", "class")], "Roles, not Races or Classes"
    roles = [c for c in cs.cards if c.kind == "role"]
    assert {c.name for c in roles} == {"Quidditch Captain", "Head Boy/Girl", "Prefect", "Inquisitorial Squad"}
    profs = [c for c in cs.cards if c.proficiency]
    assert len(profs) == 14 and all(c.copies == 1 and c.deck == "door" for c in profs)
    assert {c.proficiency.rank for c in profs if c.proficiency} == {1, 2, 3, 4}
    allies = [c for c in cs.cards if c.sidekick]
    assert allies and all(c.deck == "treasure" for c in allies) and cs.terms["sidekick"] == "Ally"
    tags = {t for c in cs.cards if c.monster for t in c.monster.tags}
    assert {"death_eater", "dragon"} <= tags
    # four Houses on six double-sided cards, each pair of Houses once
    assert sorted(h.name for h in cs.houses) == ["Gryffindor", "Hufflepuff", "Ravenclaw", "Slytherin"]
    pairs = {frozenset(hc.faces) for hc in cs.house_cards}
    assert len(cs.house_cards) == 6 and len(pairs) == 6
    slytherin = next(h for h in cs.houses if h.name == "Slytherin")
    assert slytherin.provenance == "rulebook" and slytherin.house.abilities == ["monster_discard_bonus"]
    # the Example of Combat's numbers
    pettigrew = by_name["Peter Pettigrew"].monster
    assert pettigrew and (pettigrew.level, pettigrew.treasures) == (10, 3)
    bombarda = by_name["Bombarda!"].enhancer
    assert bombarda and (bombarda.strength, bombarda.treasures) == (5, 1)
    felix = by_name["Felix Felicis"].one_shot
    assert felix and felix.bonus == 5
    assert [by_name[n].item.bonus for n in ("Dress Robes", "Deluminator", "Nimbus 2001")] == [2, 3, 2]  # type: ignore[union-attr]
    umbridge = by_name["Dolores Umbridge"].monster
    assert umbridge and [(m.value, m.if_.role) for m in umbridge.modifiers] == [(3, "quidditch captain")]


def test_harry_potter_vocabulary_errors_say_what_is_wrong() -> None:
    from pydantic import ValidationError

    from munchkin.cards.schema import Card, SetFile

    base = {"id": "harry_potter.x", "name": "X", "provenance": "original", "text": "A test card, nothing more."}
    with pytest.raises(ValidationError, match="door deck"):
        Card.model_validate({**base, "deck": "treasure", "kind": "role", "role": {"abilities": ["berserk"]}})
    with pytest.raises(ValidationError, match="rank"):
        Card.model_validate({**base, "deck": "door", "kind": "proficiency", "proficiency": {"rank": 5}})
    with pytest.raises(ValidationError, match="rank"):
        Card.model_validate({**base, "deck": "door", "kind": "proficiency", "proficiency": {}})
    with pytest.raises(ValidationError, match="tags"):
        Card.model_validate(
            {
                **base,
                "deck": "door",
                "kind": "monster",
                "monster": {"level": 1, "treasures": 1, "tags": ["wizard"], "bad_stuff": []},
            }
        )
    header = {"set": "x", "title": "X", "door_cards": 0, "treasure_cards": 0, "cards": []}
    house = {"id": "x.red", "name": "Red", "provenance": "original", "text": "t", "house": {}}
    with pytest.raises(ValidationError, match="not among the set's houses"):
        SetFile.model_validate(
            {**header, "houses": [house], "house_cards": [{"id": "x.c", "faces": ["x.red", "x.blue"]}]}
        )
    with pytest.raises(ValidationError, match="house_cards"):
        SetFile.model_validate({**header, "houses": [house]})


def test_harry_potter_cards_list_counts_decks_and_lists_house_cards_apart() -> None:
    import json

    from typer.testing import CliRunner

    from munchkin.cli import app

    r = CliRunner().invoke(app, ["cards", "list", "--set", "harry-potter", "--json"])
    assert r.exit_code == 0, r.output
    records = json.loads(r.output)
    by_deck: dict[str, int] = {}
    for rec in records:
        by_deck[rec["deck"]] = by_deck.get(rec["deck"], 0) + 1
    assert by_deck == {"door": 92, "treasure": 76, "house": 6}
    faces = [f["name"] for rec in records if rec["deck"] == "house" for f in rec["faces"]]
    assert sorted(set(faces)) == ["Gryffindor", "Hufflepuff", "Ravenclaw", "Slytherin"] and len(faces) == 12
    profs = [rec for rec in records if rec["kind"] == "proficiency"]
    assert len(profs) == 14 and all(1 <= rec["rank"] <= 4 for rec in profs)


def test_divine_intervention_tells_a_clerics_win_once() -> None:
    """Divine Intervention raising a Level 9 Cleric to 10 ends the game with one win, told once
    (the Level gained did not declare it a first time before the card declared it again)."""
    from munchkin.scenario import build_game, load_scenario

    path = (
        Path(__file__).parent / "scenarios" / "deluxe" / "divine_intervention_with_a_level_9_cleric_ends_the_game.yaml"
    )
    g = build_game(load_scenario(path))
    g.play("kick open the door", g.seat_of("Ann"))
    assert g.over and g.winners == [g.seat_of("Ben")]
    assert [ev for ev in g.events if ev[0] == "win"] == [("win", (g.seat_of("Ben"),))]
