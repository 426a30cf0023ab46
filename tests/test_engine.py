"""Engine behaviour outside any one scenario: setup, character creation, forced moves."""

from __future__ import annotations

from munchkin.engine import Game, Options, Setup
from munchkin.engine import actions as A


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
            assert g.prompt.data == "create" and acts[0].kind == A.READY
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
