"""What one seat may know, and the narration as that seat hears it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from munchkin.engine import characters, combat, rewards
from munchkin.engine import decisions as D
from munchkin.engine.events import Event, as_event

if TYPE_CHECKING:
    from munchkin.engine.game import Game


def card_public(g: Game, c: int) -> dict[str, Any]:
    d = g.cdef[c]
    out = {"id": c, "name": d.name, "kind": d.kind, "deck": d.deck, "word": d.word}
    if d.steed:
        out["steed"] = True
    return out


def player_public(g: Game, seat: int) -> dict[str, Any]:
    p = g.players[seat]
    cp = lambda c: card_public(g, c)  # noqa: E731
    return {
        "seat": seat,
        "name": p.name,
        "sex": p.sex,
        "level": p.level,
        "dead": p.dead,
        "races": [cp(c) for c in p.races],
        "classes": [cp(c) for c in p.classes],
        "half_breed": p.half_breed >= 0,
        "super_munchkin": p.super_munchkin >= 0,
        "house": g.houses[p.house].name if p.house else None,
        "roles": [cp(c) for c in p.roles],
        "dual_role": p.dual_role >= 0,
        "proficiencies": [{**cp(c), "rank": g.cdef[c].rank} for c in p.proficiencies],
        "equipped": [
            {**cp(c), "bonus": characters.item_bonus(g, p, c), "usable": characters.can_use(g, p, c)}
            for c in p.items
            if c in p.equipped
        ],
        "carried": [cp(c) for c in p.items if c not in p.equipped],
        "sidekicks": [
            {
                **cp(k),
                "word": g.cdef[k].word,
                "carrying": cp(p.carried[k]) if k in p.carried else None,
                "sex": characters.sidekick_sex(g, p, k) or None,
            }
            for k in p.sidekicks
        ],
        "item_enhancers": [{**cp(e), "on": cp(it)} for e, it in p.enhancers.items()],
        "cheats": [cp(it) for it in p.cheats],  # the Items and Sidekicks a Cheat! is on
        "curses": [cp(c) for c in p.curses],
        "hand_size": len(p.hand),
        "hand_limit": characters.hand_limit(g, p),
        "rank_total": characters.rank_total(g, p),
        "barred": sorted(p.barred),  # "help", "double_sale": not until the end of their next turn
        "sex_changed": p.sex_changed,
    }


def seat_view(g: Game, seat: int | None, moves: bool = True) -> dict[str, Any]:
    """Own hand; every table, Level and hand size; discard piles; deck sizes only; the seat's legal
    actions (`any_time`: those besides answering; all of them for a seat not waited on), as texts
    unless `moves` is False (a learner that has them as a mask: their texts cost a fifth of a view).
    A spectator (seat None) sees the same table with no hand and no actions."""
    hand = g.players[seat].hand if seat is not None else []
    moves = moves and seat is not None and not g.over
    return {
        "you": seat,
        "turn": g.turn,
        "active": g.active,
        "phase": g.phase,
        "over": g.over,
        "winners": list(g.winners),
        "hand": [card_public(g, c) for c in hand],
        "players": [player_public(g, s) for s in range(len(g.players))],
        "door_deck": len(g.door_deck),
        "treasure_deck": len(g.treasure_deck),
        "door_discard": [card_public(g, c) for c in g.door_discard],
        "treasure_discard": [card_public(g, c) for c in g.treasure_discard],
        "combat": combat.combat_breakdown(g),
        "to_act": list(g.to_act),
        "legal": [g.text(a) for a in g.legal_actions(seat)] if moves and seat is not None else [],
        "any_time": [g.text(a) for a in g.any_time(seat)] if moves and seat is not None else [],
        "prompt": g.prompt.kind,
        "races_in_game": g.has_races,
        "houses_in_game": bool(g.houses),
        "classes_in_game": g.has_classes,
        "allies_in_game": g.allies,
        "phase_words": dict(g.phase_words),
        "capped": g.capped,
        "event_count": len(g.events),
        "moment": moment(g, seat),
    }


class PlayerNumbers(NamedTuple):
    """One player's public table as `player_public` shows it, as card numbers and plain values."""

    equipped: tuple[int, ...]  # equipped Items
    carried: tuple[int, ...]  # Items in play, not equipped
    character: tuple[int, ...]  # Races, Classes, Roles, Proficiencies
    sidekicks: tuple[int, ...]
    curses: tuple[int, ...]
    item_enhancers: tuple[int, ...]
    level: int
    sex: str
    dead: bool
    half_breed: bool
    super_munchkin: bool
    dual_role: bool
    sex_changed: bool
    barred: tuple[str, ...]
    rank_total: int
    hand_size: int
    hand_limit: int
    equipped_bonus: int  # the equipped Items' bonuses that count (those the player may use)
    unusable: int  # equipped Items the player may not use
    cheats: int  # the Items and Sidekicks a Cheat! is on
    sidekick_loads: int  # Sidekicks carrying an Item
    house: str | None


class CombatNumbers(NamedTuple):
    """The fight as `combat.combat_breakdown` shows it, without the words: cards as numbers, seats."""

    fighters: list[tuple[int, int]]  # (seat, combat strength): the fighter, then the helper
    monsters: list[tuple[int, bool, list[int], int]]  # (card, a Mate, cards played on it, Treasures)
    one_shots: list[int]  # cards played for the fighters' side
    doppleganger: bool  # the breakdown shows the side's one-shots doubled
    side_strength: int
    monster_strength: int
    fighters_winning: bool


class SeatNumbers(NamedTuple):
    """What `seat_view(g, seat, moves=False)` shows a seat, as numbers for a learner's encoder."""

    you: int
    names: list[str]  # the players' names, by seat
    turn: int
    active: int
    phase: str
    over: bool
    capped: bool
    winners: list[int]
    to_act: list[int]
    prompt: str
    hand: list[int]  # the seat's own hand
    players: list[PlayerNumbers]
    door_deck: int  # sizes only
    treasure_deck: int
    door_discard: list[int]
    treasure_discard: list[int]
    combat: CombatNumbers | None
    moment: dict[str, Any]  # as `moment_numbers(g, seat)`


def player_numbers(g: Game, seat: int) -> PlayerNumbers:
    """`player_public(g, seat)` as numbers: the same public fields, no dictionaries. Card zones are
    tuples (an empty one costs nothing to make), and the record is made without its keyword parsing:
    a learner's encoder asks for every player at every decision."""
    p = g.players[seat]
    bonus = unusable = 0
    if p.equipped:  # (each test below skips the work for the empty case, the most common)
        equipped = tuple([c for c in p.items if c in p.equipped])
        carried = tuple([c for c in p.items if c not in p.equipped])
        for c in equipped:
            if characters.can_use(g, p, c):
                bonus += characters.item_bonus(g, p, c)
            else:
                unusable += 1
    else:
        equipped, carried = (), tuple(p.items)
    return _new_tuple(
        PlayerNumbers,
        (
            equipped,
            carried,
            (*p.races, *p.classes, *p.roles, *p.proficiencies),
            tuple(p.sidekicks),
            tuple(p.curses),
            tuple(p.enhancers),
            p.level,
            p.sex,
            p.dead,
            p.half_breed >= 0,
            p.super_munchkin >= 0,
            p.dual_role >= 0,
            p.sex_changed,
            tuple(sorted(p.barred)) if p.barred else (),
            characters.rank_total(g, p) if p.proficiencies else 0,
            len(p.hand),
            characters.hand_limit(g, p),
            bonus,
            unusable,
            len(p.cheats),
            sum(k in p.carried for k in p.sidekicks) if p.carried else 0,
            g.houses[p.house].name if p.house else None,
        ),
    )


_new_tuple = tuple.__new__  # a NamedTuple made from its fields at once


def combat_numbers(g: Game) -> CombatNumbers | None:
    """`combat.combat_breakdown(g)` as numbers, None out of a fight: the strengths, the cards in it."""
    c = g.combat
    if c is None:
        return None
    fighters, side_strength, monster_strength, winning = combat.standing(g, c)
    monsters = []
    for m in c.monsters:
        played = list(m.enhancers)
        if m.oneshots:
            played += [k for k, _ in m.oneshots]
        monsters.append((m.base, bool(m.mate_of), played, rewards.monster_treasures(g, c, m)))
    side = [k for (k, _, _) in c.side]
    return CombatNumbers(
        fighters,
        monsters,
        side,
        c.doppleganger >= 0 and bool(side) and not combat.level_only(g, c),
        side_strength,
        monster_strength,
        winning,
    )


def seat_numbers(g: Game, seat: int) -> SeatNumbers:
    """What `seat_view(g, seat, moves=False)` shows `seat`, as card numbers and plain values: its own
    hand, every public table, the discards, deck sizes, the fight and the moment. For a learner's
    encoder that would otherwise spend most of its time building and reading the view's dictionaries;
    it reads the same public fields as `seat_view`, and no other hand, deck order or chance."""
    return SeatNumbers(
        seat,
        [p.name for p in g.players],
        g.turn,
        g.active,
        g.phase,
        g.over,
        g.capped,
        list(g.winners),
        list(g.to_act),
        g.prompt.kind,
        list(g.players[seat].hand),
        [player_numbers(g, s) for s in range(len(g.players))],
        len(g.door_deck),
        len(g.treasure_deck),
        list(g.door_discard),
        list(g.treasure_discard),
        combat_numbers(g),
        moment_numbers(g, seat),
    )


def moment_numbers(g: Game, seat: int) -> dict[str, Any]:
    """`moment(g, seat)` as numbers: the same keys and values, but a card is its number (not its
    face), and an offer or a call for help put to this seat is its action (`deal`, the move whose
    words `moment` gives as `text`: its cards, Treasures and seats) in place of the words."""
    pr = g.prompt
    if isinstance(pr, D.Main):
        return {"stage": pr.stage}
    mine = seat in pr.seats
    if mine and isinstance(pr, D.Help | D.Offer):
        d = pr.ask if isinstance(pr, D.Help) else pr.offer
        return {"seat": d.seat, "action": d.kind, "deal": d}
    out = moment(g, seat)
    for key in ("card", "monster"):
        if key in out:
            out[key] = out[key]["id"]
    return out


def moment(g: Game, seat: int | None) -> dict[str, Any]:
    """What the engine is asking now, as facts a seat may know: the public ones (the stage of a turn,
    a Curse about to strike, a Run Away roll, a body to loot) for everyone; those of a question put
    to this seat (a card drawn face-up, an offer or a call for help, a card's choice) for it alone."""
    pr = g.prompt
    if type(pr) in _NO_MOMENT:  # (the commonest: a window everyone may answer)
        return {}
    out: dict[str, Any] = {}
    if isinstance(pr, D.Main):
        out["stage"] = pr.stage
    elif isinstance(pr, D.CurseWindow):
        out.update(card=card_public(g, pr.card), victim=pr.victim)
    elif isinstance(pr, D.Rolled):
        out.update(
            runner=pr.runner, monster=card_public(g, pr.monster), die=pr.die, total=pr.total, escapes=bool(pr.ok)
        )
    elif isinstance(pr, D.Caught):
        out.update(runner=pr.runner, monster=card_public(g, pr.monster))
    elif isinstance(pr, D.LootBody):
        out["dead"] = pr.dead
    if seat is None or seat not in pr.seats:
        return out
    if isinstance(pr, D.Drawn) and pr.card >= 0:
        out["card"] = card_public(g, pr.card)
    elif isinstance(pr, D.Help | D.Offer):
        d = pr.ask if isinstance(pr, D.Help) else pr.offer
        text = g.text(d)
        out.update(seat=d.seat, action=d.kind, text=text)
        if isinstance(pr, D.Help) and d.kind != "volunteer":
            out["offer"] = text.split(" offering ", 1)[1] if " offering " in text else None
    elif isinstance(pr, D.Choose):
        out["why"] = pr.why
    elif isinstance(pr, D.Before) and pr.source >= 0:
        out["card"] = card_public(g, pr.source)
    return out


# the decisions whose moment (`moment`) holds nothing, for anyone
_NO_MOMENT = frozenset((D.Over, D.Window, D.Losing, D.Run, D.Pick, D.Charity, D.EndWindow))


def narrate(g: Game, seat: int | None, start: int = 0) -> list[str]:
    """Render events from index `start` as sentences for `seat` (None: a spectator)."""
    out = []
    for ev in g.events[start:]:
        s = event_text(g, ev, seat)
        if s:
            out.append(s)
    return out


def event_text(g: Game, ev: tuple[Any, ...], seat: int | None) -> str:
    """The sentence `seat` hears of one event (None: a spectator), told by its record
    (`engine.events`); a plain tuple of a known kind is told as its record, an unknown one not at all."""
    rec = ev if isinstance(ev, Event) else as_event(ev)
    return rec.text(g, seat) if rec is not None else ""
