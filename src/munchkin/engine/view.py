"""What one seat may know, and the narration as that seat hears it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from munchkin.engine.rules import ESCAPE_ROLL

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
            {**cp(c), "bonus": g.item_bonus(p, c), "usable": g.can_use(p, c)} for c in p.items if c in p.equipped
        ],
        "carried": [cp(c) for c in p.items if c not in p.equipped],
        "sidekicks": [
            {
                **cp(k),
                "word": g.cdef[k].word,
                "carrying": cp(p.carried[k]) if k in p.carried else None,
                "sex": g.sidekick_sex(p, k) or None,
            }
            for k in p.sidekicks
        ],
        "item_enhancers": [{**cp(e), "on": cp(it)} for e, it in p.enhancers.items()],
        "cheat": cp(p.cheat_item) if p.cheat >= 0 else None,
        "curses": [cp(c) for c in p.curses],
        "hand_size": len(p.hand),
        "hand_limit": g.hand_limit(p),
        "rank_total": g.rank_total(p),
    }


def seat_view(g: Game, seat: int | None) -> dict[str, Any]:
    """Own hand; every table, Level and hand size; discard piles; deck sizes only.
    A spectator (seat None) sees the same table with no hand and no actions."""
    hand = g.players[seat].hand if seat is not None else []
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
        "combat": g.combat_breakdown(),
        "to_act": list(g.to_act),
        "legal": [g.text(a) for a in g.legal_actions(seat)] if seat is not None and seat in g.to_act else [],
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


def moment(g: Game, seat: int | None) -> dict[str, Any]:
    """What the engine is asking now, as facts a seat may know: the public ones (the stage of a turn,
    a Curse about to strike, a Run Away roll, a body to loot) for everyone; those of a question put
    to this seat (a card drawn face-up, an offer or a call for help, a card's choice) for it alone."""
    from munchkin.engine import decisions as D

    pr = g.prompt
    out: dict[str, Any] = {}
    if isinstance(pr, D.Main):
        out["stage"] = pr.stage
    elif isinstance(pr, D.CurseWindow):
        out.update(card=card_public(g, pr.card), victim=pr.victim)
    elif isinstance(pr, D.Rolled):
        out.update(
            runner=pr.runner, monster=card_public(g, pr.monster), die=pr.die, total=pr.total, escapes=bool(pr.ok)
        )
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


def narrate(g: Game, seat: int | None, start: int = 0) -> list[str]:
    """Render events from index `start` as sentences for `seat` (None: a spectator)."""
    out = []
    for ev in g.events[start:]:
        s = event_text(g, ev, seat)
        if s:
            out.append(s)
    return out


def event_text(g: Game, ev: tuple[Any, ...], seat: int | None) -> str:
    n = g._name
    c = g.name
    k = ev[0]
    if k == "turn":
        return f"--- Turn {ev[2] + 1}: {n(ev[1])} ---"
    if k == "kick":
        found = c(ev[2]) + ("" if c(ev[2]).endswith("!") else "!")
        if "kick_open_the_door" in g.phase_words:
            return f"{n(ev[1])} {g.phase_words['kick_open_the_door'].lower().replace('unlock', 'unlocks')}: {found}"
        return f"{n(ev[1])} kicks open the door: {found}"
    if k == "brew":
        return f"{n(ev[1])} uses {c(ev[2])}: two cards from the hand for a Treasure."
    if k == "house_power":
        _, s, house, card, v = ev
        return f"{n(s)} uses the {house.title()} power, discarding {c(card)}: +{v}."
    if k == "draw":
        _, s, deck, cards, face_up = ev
        if face_up or s == seat:
            return f"{n(s)} draws {', '.join(c(x) for x in cards)}."
        return f"{n(s)} draws {len(cards)} {deck} card{'s' if len(cards) > 1 else ''} face-down."
    if k == "reveal":
        return f"Treasures drawn face-up: {', '.join(c(x) for x in ev[2])}."
    if k == "take":
        return f"{n(ev[1])} takes {c(ev[2])}."
    if k == "combat":
        return f"{n(ev[1])} fights {c(ev[2])}."
    if k == "trouble":
        if "look_for_trouble" in g.phase_words:
            return f"{n(ev[1])} gets {g.phase_words['look_for_trouble'].lower()} with {c(ev[2])}."
        return f"{n(ev[1])} looks for trouble with {c(ev[2])}."
    if k == "loot":
        return f"{n(ev[1])} loots the room."
    if k == "level":
        _, s, d, lv, why = ev
        verb = "goes up" if d > 0 else "loses"
        amount = f"{abs(d)} level{'s' if abs(d) > 1 else ''}"
        return f"{n(s)} {verb} {amount} ({why}) and is now Level {lv}."
    if k == "win":
        return f"{' and '.join(n(s) for s in ev[1])} win{'s' if len(ev[1]) == 1 else ''} the game!"
    if k == "oneshot":
        _, s, card, target, mon = ev
        to = c(mon) if mon >= 0 else (n(target) if target >= 0 else "the fighters")
        return f"{n(s)} plays {c(card)} on {to}."
    if k == "enhance":
        return f"{n(ev[1])} plays {c(ev[2])} on {c(ev[3])}."
    if k == "join":
        return f"{c(ev[2])} joins the fight ({ev[3]}), sent by {n(ev[1])}."
    if k == "curse":
        _, by, victim, card, face_up = ev
        if face_up:
            return f"{c(card)} strikes {n(victim)}."
        word = g.cdef[card].word
        if word == "Curse":
            return f"{n(by)} curses {n(victim)} with {c(card)}."
        return f"{n(by)} plays the {word} {c(card)} on {n(victim)}."
    if k == "cancel":
        return f"{c(ev[2])} is cancelled by {ev[3]}."
    if k == "ask":
        return f"{n(ev[1])} asks {n(ev[2])} for help."
    if k == "help":
        return f"{n(ev[1])} helps {n(ev[2])}."
    if k == "trade":
        return f"{n(ev[1])} trades {c(ev[3])} to {n(ev[2])} for {c(ev[4])}."
    if k == "offer":
        _, s, t, card, theirs = ev
        if theirs >= 0:
            return f"{n(s)} offers {n(t)} a trade: {c(card)} for {c(theirs)}."
        return f"{n(s)} offers {c(card)} to {n(t)} as a gift."
    if k == "refuse_trade":
        return f"{n(ev[1])} turns down {n(ev[2])}'s offer."
    if k == "compelled":
        return f"{n(ev[1])} cannot refuse to help {n(ev[2])} ({c(ev[3]) if len(ev) > 3 else 'Kneepads of Allure'})."
    if k == "enhance_item":
        return f"{n(ev[1])} puts {c(ev[2])} on {c(ev[3])}."
    if k == "sidekick_sex":
        return f"{n(ev[1])} changes the sex of {n(ev[2])}'s {c(ev[3])}: now {ev[4]}."
    if k == "sex_bonus":
        return f"{n(ev[1])} keeps {c(ev[2])}, so {c(ev[3])} gets its {ev[4]:+d} against that sex."
    if k == "back_out":
        return f"{n(ev[1])} backs out of {n(ev[2])}'s fight for the win."
    if k == "bribe":
        return f"{n(ev[1])} bribes {c(ev[2])} to go away."
    if k == "chase":
        return f"{n(ev[1])} chases {c(ev[2])} away (booga booga!)."
    if k == "dowse":
        return f"{n(ev[1])} takes {c(ev[2])} from the discards ({c(ev[3])})."
    if k == "resurrect":
        return f"{n(ev[1])} takes the top discard instead of drawing: {c(ev[2])}."
    if k == "slay":
        return f"{n(ev[1])} kills {c(ev[2])} outright with {c(ev[3])}."
    if k == "transfer":
        return f"{n(ev[1])}'s Transferral Potion puts {n(ev[3])} in {n(ev[2])}'s place in the fight."
    if k == "walk_past":
        return f"{n(ev[1])} waves and walks past {c(ev[2])}."
    if k == "wall":
        if len(ev) > 3 and ev[3] >= 0:
            return f"{n(ev[1])} plays {c(ev[2])}: {n(ev[3])} escapes."
        return f"{n(ev[1])} plays {c(ev[2])}: the fighters escape."
    if k == "charity_done":
        return ""
    if k == "divine":
        return f"{n(ev[1])} draws Divine Intervention: every Cleric goes up a level."
    if k == "volunteer":
        return f"{n(ev[1])} offers to help {n(ev[2])}."
    if k == "refuse_offer":
        return f"{n(ev[1])} refuses {n(ev[2])}'s help."
    if k == "refuse":
        return f"{n(ev[1])} refuses to help."
    if k == "kill":
        who = n(ev[1]) + (" and " + n(ev[2]) if ev[2] >= 0 else "")
        return f"{who} kill{'' if ev[2] >= 0 else 's'} {', '.join(c(x) for x in ev[3])}."
    if k == "lost":
        return f"{n(ev[1])} cannot win and must Run Away."
    if k == "roll":
        if len(ev) > 5:  # a Run Away roll: ("roll", seat, die, why, ((source, modifier), ...), total)
            mods = "".join(f" {v:+d} ({src})" for src, v in ev[4])
            sum_ = f"{mods} = {ev[5]}" if mods else ""
            verdict = (
                "enough to escape" if ev[5] >= ESCAPE_ROLL else f"not enough to escape ({ESCAPE_ROLL} or more needed)"
            )
            return f"{n(ev[1])} rolls a {ev[2]}{sum_} to {ev[3]}: {verdict}."
        return f"{n(ev[1])} rolls a {ev[2]}{' (' + ev[3] + ')' if ev[3] else ''}."
    if k == "escape":
        how = f" ({ev[3]})" if ev[3] else ""
        what = f" from {c(ev[2])}" if ev[2] >= 0 else ""
        return f"{n(ev[1])} escapes{what}{how}."
    if k == "caught":
        return f"{c(ev[2])} catches {n(ev[1])}!"
    if k == "bad_stuff":
        return f"Bad Stuff from {c(ev[2])} for {n(ev[1])}."
    if k == "death":
        return f"{n(ev[1])} dies ({ev[2]})."
    if k == "looted":
        return f"{n(ev[1])} loots {c(ev[3]) if seat == ev[1] else 'a card'} from {n(ev[2])}'s body."
    if k == "lose":
        return f"{n(ev[1])} loses {c(ev[2])}{' (' + ev[3] + ')' if ev[3] else ''}."
    if k == "play":
        return f"{n(ev[1])} plays {c(ev[2])}."
    if k == "sell":
        return f"{n(ev[1])} sells {', '.join(c(x) for x in ev[2])} for {ev[3]} gold."
    if k == "charity":
        shown = c(ev[3]) if seat in (ev[1], ev[2]) else "a card"
        return f"{n(ev[1])} gives {shown} to {n(ev[2])} (Charity)."
    if k == "discard":
        return f"{n(ev[1])} discards {c(ev[2])}."
    if k == "gift":
        return f"{n(ev[1])} gives {c(ev[3])} to {n(ev[2])}."
    if k == "berserk":
        return f"{n(ev[1])} berserks, discarding {', '.join(c(x) for x in ev[2])}."
    if k == "turning":
        what = {"undead": "the undead", "death_eater": "the Death Eaters", "dragon": "the Dragons"}[ev[3]]
        return f"{n(ev[1])} turns {what}, discarding {', '.join(c(x) for x in ev[2])}."
    if k == "backstab":
        return f"{n(ev[1])} backstabs {n(ev[2])}, discarding {c(ev[3])}."
    if k == "charm":
        return f"{n(ev[1])} discards the whole hand ({ev[3]} cards) to charm {c(ev[2])} away."
    if k == "steal":  # the card paid was narrated as lost
        ok = "steals" if ev[4] else "fails to steal"
        return f"{n(ev[1])} {ok} {c(ev[3])} from {n(ev[2])}."
    if k == "new_character":
        return f"{n(ev[1])}'s new character appears."
    if k == "capped":
        return f"The game stops at the turn cap ({ev[1]} turns)."
    if k == "no_attack":
        return f"{c(ev[2])} will not attack {n(ev[1])}."
    if k == "friendship":
        return f"{n(ev[1])} plays {c(ev[2])}: every monster leaves the fight."
    if k == "out_to_lunch":
        return f"{n(ev[1])} plays {c(ev[3])}: the monsters leave and {n(ev[2])} draws 2 Treasures."
    if k == "combat_over":
        return "The combat ends with no monster left."
    if k == "reshuffle":
        return f"The {ev[1]} discards are shuffled into a new deck."
    if k == "sex":
        return f"{n(ev[1])} is now {ev[2]}."
    if k == "take_item":
        return f"{n(ev[1])} takes {c(ev[3])} from {n(ev[2])}."
    if k == "takes_from_hand":
        return f"{n(ev[1])} takes a card from {n(ev[2])}'s hand."
    if k == "remove":
        return f"{n(ev[1])} removes {c(ev[2])} from the fight with {c(ev[3])}."
    if k == "mate":
        return f"{n(ev[1])} gives {c(ev[2])} a {ev[3]}."
    if k == "face":
        return f"{n(ev[1])} plays {c(ev[2])}: the die shows {ev[3]}."
    if k == "destroy":
        return f"{n(ev[1])} destroys {n(ev[2])}'s {c(ev[3])} with {c(ev[4])}."
    if k == "unequip":
        return f"{n(ev[1])} unequips {c(ev[2])}."
    if k == "illusion":
        return f"{n(ev[1])}'s {c(ev[4])} replaces {c(ev[2])} with {c(ev[3])}."
    return ""
