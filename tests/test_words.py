"""What the log and the moves panel say (issue 34, points 4 and 5): the log tells what happened
(a card discarded to Run Away again and the second roll, a sale at double price, "loots the room"
before its draw, a Door kept in hand, named only to those who saw it), and the moves say what
they are (a Bad Stuff's choice after the fight and from whom, a card in play apart from the hand
at Charity, "an Elf", names kept as written, one way of asking for help). The canonical texts the
notation reads back are unchanged: only the words a person reads."""

from __future__ import annotations

from typing import Any

from munchkin.engine import events as E
from munchkin.engine.determinize import masked_events
from munchkin.engine.game import Game, Setup
from munchkin.engine.notation import parse
from munchkin.engine.view import narrate
from munchkin.menu import ANY_TIME, Entry, Menu, build_menu
from munchkin.scenario import build_game


def table(players: list[dict[str, Any]], **over: Any) -> Game:
    """A small Deluxe table set as a scenario sets it."""
    spec: dict[str, Any] = {"sets": ["deluxe"], "seed": 1, "players": players}
    spec.update(over)
    return build_game(spec)


def kick(g: Game) -> None:
    """Kick Open The Door, unless the engine did it already (the only move a hand left)."""
    if "kick open the door" in {g.text(a) for a in g.legal_actions(0)}:
        g.play("kick open the door", 0)


def heard(g: Game, seat: int | None, start: int = 0) -> list[str]:
    return narrate(g, seat, start)


def after(lines: list[str], first: str) -> list[str]:
    """The lines from the first one that starts with `first`."""
    i = next(i for i, s in enumerate(lines) if s.startswith(first))
    return lines[i:]


def find(entries: list[Entry], test: Any) -> Entry:
    return next(e for e in walk(entries) if test(e))


def walk(entries: list[Entry]) -> list[Entry]:
    out: list[Entry] = []
    for e in entries:
        out.append(e)
        out += walk(e.entries)
    return out


def moves_by_text(menu: Menu) -> dict[str, Entry]:
    return {m.text: m for m in menu.moves()}


# ------------------------------------------------------------------ point 4: the log


def halfling_runs(rolls: list[int]) -> Game:
    """Halfling Ann loses to the Harpies and rolls to Run Away (the forced `rolls`)."""
    g = table(
        [
            {"name": "Ann", "level": 3, "races": ["Halfling"], "hand": ["Gazebo", "Instant Wall"]},
            {"name": "Ben"},
            {"name": "Cy"},
        ],
        door_deck=["Harpies"],
        rolls=rolls,
    )
    kick(g)
    while g.prompt.kind == "window":
        g.play("pass", g.to_act[0])
    g.play("run away", 0)
    g.play("run away from Harpies", 0)
    return g


def test_a_run_away_rolled_again_tells_the_discard_and_the_second_roll() -> None:
    g = halfling_runs([2, 5])
    start = len(g.events)
    g.play("run again discarding Gazebo", 0)
    for seat in (0, 1, None):  # the card is discarded face-up: everyone hears it
        lines = heard(g, seat, start)
        assert lines[:2] == [
            "Ann discards Gazebo to Run Away again.",
            "Ann rolls again to run away from Harpies: 5, enough to escape.",
        ], lines
    whole = heard(g, 1)
    first = after(whole, "Ann rolls a 2")
    assert first[0] == "Ann rolls a 2 to run away from Harpies: not enough to escape (5 or more needed)."
    assert first[1].startswith("Ann discards Gazebo") and first[2].startswith("Ann rolls again")
    assert sum(1 for s in whole if "to run away from Harpies" in s) == 2  # two rolls, told apart
    assert any(type(e) is E.RunAgain for e in g.events)


def test_a_roll_made_again_by_a_flask_of_glue_says_again() -> None:
    g = table(
        [
            {"name": "Ann", "level": 1, "hand": ["Instant Wall"]},
            {"name": "Ben", "hand": ["Flask of Glue"]},
            {"name": "Cy"},
        ],
        door_deck=["Harpies"],
        rolls=[6, 1],
    )
    kick(g)
    while g.prompt.kind == "window":
        g.play("pass", g.to_act[0])
    g.play("run away", 0)
    g.play("run away from Harpies", 0)
    start = len(g.events)
    g.play("play Flask of Glue for Ann", 1)
    lines = heard(g, 2, start)
    assert lines[0] == "Ben plays Flask of Glue."
    assert lines[1].startswith("Ann rolls again to run away from Harpies: 1"), lines


def test_a_sale_at_double_price_says_so() -> None:
    g = table(
        [
            {
                "name": "Ann",
                "races": ["Halfling"],
                "carried": ["Boots of Butt-Kicking", "Helm of Courage"],
                "hand": ["Wishing Ring"],
            },
            {"name": "Ben"},
            {"name": "Cy"},
        ]
    )
    start = len(g.events)
    g.play("sell Wishing Ring at double price", 0)
    assert heard(g, 1, start)[0] == "Ann sells Wishing Ring for 1000 gold (double price)."
    g2 = table(
        [
            {"name": "Ann", "races": ["Halfling"], "carried": ["Boots of Butt-Kicking", "Helm of Courage"]},
            {"name": "Ben"},
            {"name": "Cy"},
        ]
    )
    start = len(g2.events)
    g2.play("sell Boots of Butt-Kicking at double price, Helm of Courage", 0)
    assert heard(g2, None, start)[0] == (
        "Ann sells Boots of Butt-Kicking, Helm of Courage for 1000 gold (Boots of Butt-Kicking at double price)."
    )
    g3 = table(
        [
            {
                "name": "Ann",
                "level": 2,
                "carried": ["Boots of Butt-Kicking", "Helm of Courage"],
                "hand": ["Wishing Ring"],
            },
            {"name": "Ben"},
            {"name": "Cy"},
        ]
    )
    start = len(g3.events)
    g3.play("sell Wishing Ring, Boots of Butt-Kicking, Helm of Courage", 0)
    said = heard(g3, 0, start)[0]
    assert (
        said == "Ann sells Wishing Ring, Boots of Butt-Kicking, Helm of Courage for 1100 gold." and "double" not in said
    )


def test_looting_the_room_is_told_before_its_draw() -> None:
    g = table(
        [{"name": "Ann", "hand": ["Instant Wall", "Net Troll"]}, {"name": "Ben"}, {"name": "Cy"}],
        door_deck=["Doppleganger", "Gazebo"],
    )
    kick(g)  # the Potted Plant, kept
    start = len(g.events)
    g.play("loot the room", 0)
    assert heard(g, 0, start)[:2] == ["Ann loots the room.", "Ann draws Gazebo."]
    assert heard(g, 1, start)[:2] == ["Ann loots the room.", "Ann draws 1 door card face-down."]
    assert "Gazebo" not in " ".join(heard(g, None, start))


def test_a_door_kept_in_hand_is_told() -> None:
    """Kicked open face-up, everyone saw it: its keeping is told with its name. A Race may be played
    at once: kept instead, it is told too."""
    g = table(
        [{"name": "Ann", "hand": ["Instant Wall", "Net Troll"]}, {"name": "Ben"}, {"name": "Cy"}],
        door_deck=["Doppleganger", "Gazebo"],
    )
    kick(g)
    for seat in (0, 1, None):
        assert heard(g, seat)[-2:] == ["Ann kicks open the door: Doppleganger!", "Ann keeps Doppleganger in hand."]
    g = table([{"name": "Ann", "hand": ["Instant Wall"]}, {"name": "Ben"}, {"name": "Cy"}], door_deck=["Elf", "Gazebo"])
    kick(g)
    assert g.prompt.kind == "drawn" and heard(g, 1)[-1] == "Ann kicks open the door: Elf!"
    g.play("keep Elf", 0)
    assert heard(g, 2)[-1] == "Ann keeps Elf in hand."
    g = table([{"name": "Ann", "hand": ["Instant Wall"]}, {"name": "Ben"}, {"name": "Cy"}], door_deck=["Elf", "Gazebo"])
    kick(g)
    g.play("play Elf", 0)  # played, not kept: no such line
    assert not any("keeps" in s for s in heard(g, 1))


def test_a_door_kept_unseen_is_named_to_its_drawer_alone() -> None:
    g = Game(Setup(["deluxe"], ["Ann", "Ben", "Cy"], 1))
    card = next(c for c in range(g.ncards) if g.cdef[c].name == "Potted Plant")
    hidden = E.Keep(0, card, False)
    assert [hidden.text(g, s) for s in (0, 1, None)] == [
        "Ann keeps Potted Plant in hand.",
        "Ann keeps the card in hand.",
        "Ann keeps the card in hand.",
    ]
    assert E.Keep(0, card, True).text(g, 1) == "Ann keeps Potted Plant in hand."
    g.events.append(hidden)  # a seat's determinized events never name it either
    assert masked_events(g, 1)[-1] == ("keep", 0, -1, False) and masked_events(g, 0)[-1] == hidden


def test_a_mate_takes_its_article() -> None:
    g = Game(Setup(["deluxe"], ["Ann", "Ben", "Cy"], 1))
    assert E.Mate(0, 5, "Ally").text(g, 1).endswith(" an Ally.")
    assert E.Mate(0, 5, "Mate").text(g, 1).endswith(" a Mate.")
    assert [E.article(w) for w in ("Elf", "Halfling", "Orc", "Unicorn", "Ally")] == [
        "an Elf",
        "a Halfling",
        "an Orc",
        "a Unicorn",
        "an Ally",
    ]


# ------------------------------------------------------------------ point 5: the labels


def hippogriff_taker() -> tuple[Game, int]:
    """Ann (Level 5) runs from the Hippogriff and is caught: its Bad Stuff has the next player to her
    right choose where to take one of her Treasures from."""
    g = table(
        [
            {
                "name": "Ann",
                "level": 5,
                "carried": ["Boots of Butt-Kicking", "Flaming Armor"],
                "hand": ["Helm of Courage"],
            },
            {"name": "Ben", "level": 2},
            {"name": "Cy", "level": 2},
        ],
        door_deck=["Hippogriff"],
        rolls=[1],
    )
    kick(g)
    while g.prompt.kind == "window":
        g.play("pass", g.to_act[0])
    g.play("run away", 0)
    while g.prompt.kind != "before":
        g.play("pass", g.to_act[0])
    return g, g.to_act[0]


def test_the_hippogriffs_bad_stuff_is_titled_after_the_fight_and_says_from_whom() -> None:
    g, taker = hippogriff_taker()
    assert taker == 2  # Cy, to Ann's right
    menu = build_menu(g, taker)
    assert menu.title == "After the fight: the Hippogriff's Bad Stuff on Ann, choose"
    moves = moves_by_text(menu)
    assert moves["choose to take a Treasure in play"].label == "Take one of Ann's Treasures in play"
    assert moves["choose to take a Treasure unseen from the hand"].label == "Take a Treasure unseen from Ann's hand"
    assert moves["choose to take a Treasure in play"].meaning.startswith("the Hippogriff's Bad Stuff: take")
    for text in moves:  # the notation is as it was: each text plays its action
        assert len(parse(g, text, taker)) == 1
    g.play("choose to take a Treasure in play", taker)
    assert build_menu(g, taker).title == "Choose a card: take a Treasure from Ann"


def test_a_choice_before_a_fight_keeps_its_title_and_the_platycores_choice_reads_well() -> None:
    g = table(
        [{"name": "Ann", "level": 1, "hand": ["Instant Wall"]}, {"name": "Ben"}, {"name": "Cy"}],
        door_deck=["Stoned Golem"],
    )
    kick(g)
    assert build_menu(g, 0).title == "Before the fight: choose"
    g = table(
        [{"name": "Ann", "level": 3, "hand": ["Gazebo", "Instant Wall"]}, {"name": "Ben"}, {"name": "Cy"}],
        door_deck=["Platycore"],
        rolls=[1],
    )
    kick(g)
    while g.prompt.kind == "window":
        g.play("pass", g.to_act[0])
    g.play("run away", 0)
    g.play("run away from Platycore", 0)
    while g.prompt.kind != "before":
        g.play("pass", g.to_act[0])
    menu = build_menu(g, 0)
    assert menu.title == "After the fight: the Platycore's Bad Stuff, choose"
    assert {m.label for m in menu.moves()} == {"Discard your hand", "Lose 2 Levels"}


def charity_with_a_race_in_play() -> Game:
    """Ann, the lowest Level, Elf and Wizard in play, must discard down to her hand limit."""
    hand = ["Gazebo", "Net Troll", "Harpies", "Lame Goblin", "Potted Plant", "Pit Bull", "Large Angry Chicken"]
    g = table(
        [
            {"name": "Ann", "level": 1, "races": ["Elf"], "classes": ["Wizard"], "hand": hand},
            {"name": "Ben", "level": 3},
            {"name": "Cy", "level": 2},
        ],
        door_deck=["Doppleganger", "Platycore"],
    )
    kick(g)
    g.play("loot the room", 0)
    g.play("end the turn", 0)
    assert g.prompt.kind == "charity"
    return g


def test_charity_keeps_the_cards_in_play_apart_from_the_hand() -> None:
    g = charity_with_a_race_in_play()
    menu = build_menu(g, 0)
    any_time = next(e for e in menu.entries if e.id == ANY_TIME)
    answers = [e for e in menu.entries if e is not any_time]  # the hand's cards, each its own move
    assert all(e.type == "move" and e.label == e.text and e.cards[0] in g.players[0].hand for e in answers)
    assert {e.text for e in answers} == {f"discard {g.name(c)}" for c in g.players[0].hand}
    # giving up a Race or Class in play helps no hand limit: it waits apart, among the less likely moves
    in_play = find(any_time.entries, lambda e: e.label == "Less likely moves")
    assert {m.label for m in in_play.moves()} == {"Discard your Elf (in play)", "Discard your Wizard (in play)"}
    assert {m.text for m in in_play.moves()} == {"discard Elf", "discard Wizard"}  # the notation as it was
    assert any_time.meaning.endswith("besides answering: less likely moves")
    elf = moves_by_text(menu)["discard Elf"]
    assert elf.meaning == "give up your Elf: it leaves play and no longer counts"
    assert elf.to_json()["alone"] == "Discard your Elf (in play)"


def test_a_race_is_become_with_its_article() -> None:
    g = table([{"name": "Ann", "hand": ["Elf", "Dwarf", "Instant Wall"]}, {"name": "Ben"}, {"name": "Cy"}])
    meanings = {m.text: m.meaning for m in build_menu(g, 0).moves()}
    assert meanings["play Elf"] == "become an Elf" and meanings["play Dwarf"] == "become a Dwarf"


def test_any_time_words_keep_the_names_as_written() -> None:
    """Ben watches Ann's fight, a Monster Enhancer in hand (his answer) and Boots carried (which he may
    equip or give away at any time): the any-time group's summary keeps the Boots' capitals."""
    g = table(
        [
            {"name": "Ann", "level": 1, "hand": ["Instant Wall"]},
            {"name": "Ben", "level": 3, "hand": ["Enraged"], "carried": ["Boots of Butt-Kicking"]},
            {"name": "Cy", "level": 2},
        ],
        door_deck=["Net Troll"],
    )
    kick(g)
    assert g.prompt.kind == "window" and 1 in g.to_act
    menu = build_menu(g, 1)
    any_time = next(e for e in menu.entries if e.id == ANY_TIME)
    summary = any_time.meaning.split("besides answering: ", 1)[1]
    assert summary == "equip Boots of Butt-Kicking, give Boots of Butt-Kicking to Cy", summary
    assert "boots of butt-kicking" not in summary


def test_help_requests_read_alike() -> None:
    g = table(
        [
            {"name": "Aric", "sex": "male", "level": 1, "carried": ["Boots of Butt-Kicking"], "hand": ["Instant Wall"]},
            {"name": "Lady Pointy", "sex": "female", "level": 2},
            {"name": "Ben", "sex": "male"},
        ],
        door_deck=["Net Troll"],
    )
    kick(g)
    moves = moves_by_text(build_menu(g, 0))
    want = {
        "ask Lady Pointy for help": "Ask Lady Pointy for help, offering nothing",
        "ask Lady Pointy for help offering Boots of Butt-Kicking": (
            "Ask Lady Pointy for help, offering Boots of Butt-Kicking"
        ),
        "ask Lady Pointy for help offering all the treasures": "Ask Lady Pointy for help, offering all your Treasures",
        "ask Lady Pointy for help offering 2 treasures, you pick first": (
            "Ask Lady Pointy for help, offering 2 of the Treasures (they pick first)"
        ),
        "ask Ben for help offering 1 treasure, I pick first": "Ask Ben for help, offering 1 Treasure (you pick first)",
    }
    for text, label in want.items():
        assert moves[text].label == label and moves[text].alone == label, (text, moves[text].label)
        assert len(parse(g, text, 0)) == 1  # typing the canonical text still plays it
