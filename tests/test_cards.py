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
