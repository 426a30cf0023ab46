"""Engine behaviour outside any one scenario: setup, character creation, forced moves."""

from __future__ import annotations

import pytest

from munchkin.engine import Game, Options, Setup
from munchkin.engine import actions as A
from munchkin.engine.actions import MunchkinError


def _game(seed: int) -> Game:
    return Game(Setup(["deluxe"], ["Ann", "Bob", "Cid", "Dee"], seed, Options()))


def test_deal_four_of_each_then_character_creation_for_everyone() -> None:
    for seed in range(40):
        g = _game(seed)
        for p in g.players:  # four of each deck (a Divine Intervention acts and is gone)
            doors = sum(1 for c in p.hand if g.cdef[c].deck == "door")
            treasures = sum(1 for c in p.hand if g.cdef[c].deck == "treasure")
            assert treasures == 4 and doors <= 4
        seen = []
        while g.phase == "setup":
            seat = g.to_act[0]
            acts = g.legal_actions(seat)
            assert g.prompt.stage == "create" and acts[0].kind == A.READY
            plays = [a for a in acts if a.kind == A.PLAY]
            p = g.players[seat]
            for a in plays:  # only Races, Classes and usable Items may be played now
                d = g.cdef[a.card]
                assert (d.is_race and not p.races) or (d.is_class and not p.classes) or d.is_item
            if seat not in seen:
                seen.append(seat)
            race = next((a for a in plays if g.cdef[a.card].is_race), None)
            g.apply(race or acts[0])
            if race is not None:
                assert not any(g.cdef[a.card].is_race for a in g.legal_actions(seat) if a.kind == A.PLAY)
        assert seen == sorted(seen)  # in seat order from the first player
        assert g.phase == "start" and g.to_act == (0,)


def test_a_forced_move_is_logged_not_counted() -> None:
    g = _game(3)
    while g.phase == "setup":
        g.apply(g.legal_actions(g.to_act[0])[0])
    forced = [e for e in g.log if e[0] == "forced"]
    acts = [e for e in g.log if e[0] == "act"]
    assert g.decisions == len(acts)
    for _, a in forced:  # each forced move was the only legal action at its time
        assert a.kind in {A.READY, A.KICK, A.FLEE_FROM, A.PASS, A.TAKE, A.CHOOSE}


def test_a_failed_sequence_leaves_the_game_as_it_was_and_playable() -> None:
    """apply_sequence is all or nothing, and the game goes on exactly like a twin that never tried."""
    from munchkin.agents.base import decide
    from munchkin.agents.random_agent import RandomAgent
    from munchkin.engine.actions import Action, MunchkinError
    from munchkin.engine.game import Game, Setup

    g, twin = Game(Setup(["deluxe"], ["A", "B", "C", "D"], 99)), Game(Setup(["deluxe"], ["A", "B", "C", "D"], 99))
    bots = [RandomAgent(1), RandomAgent(1)]
    for _ in range(200):  # into the game a little
        for game, bot in zip((g, twin), bots, strict=True):
            s = game.to_act[0]
            game.apply(decide(bot, game, s, game.legal_actions(s)))
    before = g.state_digest()
    s = g.to_act[0]
    good = g.legal_actions(s)[0]
    with pytest.raises(MunchkinError):
        g.apply_sequence([good, Action("kick", (s + 1) % 4)])
    assert g.state_digest() == before and g.version == twin.version
    while not twin.over:
        for game, bot in zip((g, twin), bots, strict=True):
            if not game.over:
                s = game.to_act[0]
                game.apply(decide(bot, game, s, game.legal_actions(s)))
    assert g.over and g.state_digest() == twin.state_digest() and g.log == twin.log


# ---------------------------------------------------------------- Harry Potter: Houses and creation
def _hp(seed: int, houses: list[str | None] | None = None, sets: tuple[str, ...] = ("harry-potter",)) -> Game:
    return Game(Setup(list(sets), ["Ann", "Bob", "Cid", "Dee"], seed, Options(), houses=houses))


def test_every_player_gets_a_house_card_of_their_own() -> None:
    """Each player holds one of the six double-sided House cards, so at most three share a House,
    and never three Gryffindors with three Slytherins (the card showing both is only one)."""
    for seed in range(60):
        g = Game(Setup(["harry-potter"], ["A", "B", "C", "D", "E", "F"], seed, Options()))
        houses = [p.house for p in g.players]
        assert all(h in g.houses for h in houses)
        assert max(houses.count(h) for h in houses) <= 3
    g = _hp(1, ["Slytherin", "slytherin", None, "GRYFFINDOR"])
    assert [p.house for p in g.players][:2] == ["slytherin", "slytherin"] and g.players[3].house == "gryffindor"
    with pytest.raises(MunchkinError, match="cannot show 4 Slytherin"):
        _hp(1, ["Slytherin"] * 4)
    with pytest.raises(MunchkinError, match="cannot show 3 Gryffindor, 3 Slytherin"):
        Game(Setup(["harry-potter"], list("ABCDEF"), 1, Options(), houses=["Gryffindor"] * 3 + ["Slytherin"] * 3))
    with pytest.raises(MunchkinError, match="unknown House 'Beauxbatons'"):
        _hp(1, ["Beauxbatons"])
    with pytest.raises(MunchkinError, match="only in a game with Harry Potter"):
        Game(Setup(["deluxe"], ["Ann", "Bob", "Cid"], 1, Options(), houses=["Slytherin", None, None]))
    with pytest.raises(MunchkinError, match="listen_variant"):
        Game(Setup(["harry-potter"], ["Ann", "Bob", "Cid"], 1, Options(listen_variant="peek")))
    assert _hp(3).fingerprint() == _hp(3).fingerprint()  # Houses drawn from the seed: the same game


def test_harry_potter_character_creation_offers_a_role_a_rank_one_proficiency_and_allies() -> None:
    g = _hp(7)
    seat = g.to_act[0]
    p = g.players[seat]
    by = {g.cdef[c].name: c for c in range(g.ncards)}
    p.hand[:] = [by[n] for n in ("Prefect", "Quidditch Captain", "Astronomy", "Divination", "Dobby", "Dress Robes")]
    g.version += 1  # the hand was set by hand: list the actions afresh
    texts = {g.text(a) for a in g.legal_actions(seat)}
    assert {"play Prefect", "play Quidditch Captain", "play Astronomy", "play Dobby", "play Dress Robes"} <= texts
    assert "play Divination" not in texts  # Rank 2
    g.play("play Prefect", seat)
    g.play("play Astronomy", seat)
    texts = {g.text(a) for a in g.legal_actions(seat)}
    assert "play Quidditch Captain" not in texts and "play Divination" not in texts
    assert "play Dobby" in texts
    assert p.roles == [by["Prefect"]] and p.proficiencies == [by["Astronomy"]]
