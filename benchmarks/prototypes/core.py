"""Route (a): the hot path written data-oriented in plain Python over `encode`'s tuples: the table part of
a Main list (`legal.table_actions(g, p, own_turn=True)`: equips, discards, sales, Hirelings' gifts, gifts,
trades, thefts) and a fight's weighing (`combat.standing`). The same file, unchanged, is what route (b)
compiles with mypyc. Each function mirrors the engine's rule of the same name; only Munchkin Deluxe's
kinds of card and abilities are read (what `encode` marks outside, the caller leaves out)."""

from __future__ import annotations

from typing import Any

from munchkin.engine.actions import Action

EQUIP, UNEQUIP, DISCARD, SELL, GIVE, TRADE, STEAL = "equip", "unequip", "discard", "sell", "give", "trade", "steal"
GOLD_PER_LEVEL, WINNING_LEVEL, MAX_SALES = 1000, 10, 64
F_ITEM, F_BIG, F_STEED, F_ONE_SHOT, F_NEEDS_STEED = 1, 2, 4, 8, 16
F_ONLY_ARMOR, F_FLOOR, F_IGNORE_LEVEL, F_LEVEL_ONLY, F_NO_SIDEKICKS = 128, 256, 512, 1024, 2048
A_CARRY_ANY_BIG, A_DOUBLE_SALE, A_THEFT, A_WINS_TIES = 1, 2, 4, 8
HUMAN = 1000
Ints = tuple[int, ...]  # typed locals below are plain Python; mypyc reads them as unboxed ints and tuples
# a player tuple's fields (encode.player)
SEAT, DEAD, LEVEL, SEX, HAND, ITEMS, EQUIPPED, RACES, CLASSES, SIDEKICKS, CURSES = range(11)
EXEMPT, CHEATS, HALF, SUPER, CHANGED, DOUBLE_USED, DOUBLE_BARRED, CARRYING = range(11, 19)


def _act(kind: str, seat: int, card: int, target: int, cards: tuple[int, ...], flag: str) -> Action:
    return tuple.__new__(Action, (kind, seat, card, target, -1, cards, 0, flag))


def unique(t: Any, cards: Ints | list[int]) -> list[int]:
    """One card per identity, the first of each (as `decisions.unique_cards`)."""
    idx: Ints = t.idx
    seen = 0
    out: list[int] = []
    c: int
    for c in cards:
        bit = 1 << idx[c]
        if not seen & bit:
            seen |= bit
            out.append(c)
    return out


def abilities(t: Any, p: Any) -> int:
    """The ability bits of a player's Classes, Races and Sidekicks (as `characters.has_ability`)."""
    abil: Ints = t.abil
    a = 0
    c: int
    for c in p[CLASSES]:
        a |= abil[c]
    for c in p[RACES]:
        a |= abil[c]
    for c in p[SIDEKICKS]:
        a |= abil[c]
    return a & t.granted


def matches(t: Any, p: Any, ci: int, monster_bonus: bool) -> bool:
    """Does the character meet condition number `ci` (as `characters._matches`)?"""
    if ci < 0:
        return True
    cond: Ints = t.conds[ci]
    race, not_race, klass, not_class, sex, at_most, at_least, no_race, no_class, changed = cond
    name_id: Ints = t.name_id
    races: Ints = p[RACES]
    level: int = p[LEVEL]
    half: bool = p[HALF] and len(races) == 1
    if race >= 0:
        if race == HUMAN:
            if races and not half:
                return False
        elif not any(name_id[r] == race for r in races):
            return False
        elif monster_bonus and half:
            return False
    if not_race >= 0 and any(name_id[r] == not_race for r in races):
        return False
    if klass >= 0:
        if not any(name_id[r] == klass for r in p[CLASSES]):
            return False
        if monster_bonus and p[SUPER] and len(p[CLASSES]) == 1:
            return False
    if not_class >= 0 and any(name_id[r] == not_class for r in p[CLASSES]):
        return False
    if sex >= 0 and p[SEX] != sex:
        return False
    if at_most >= 0 and level > at_most:
        return False
    if at_least >= 0 and level < at_least:
        return False
    if no_race >= 0 and (bool(races) and not half) == (no_race == 1):
        return False
    if no_class >= 0 and bool(p[CLASSES]) == (no_class == 1):
        return False
    if changed >= 0 and p[CHANGED] != (changed == 1):
        return False
    return True


def can_use(t: Any, p: Any, item: int) -> bool:
    """May this character get the Item's benefit (as `characters.can_use`, today's rules)?"""
    if p[CHEATS] >> item & 1:
        return True
    flags: Ints = t.flags
    if flags[item] & F_NEEDS_STEED and not any(flags[c] & F_STEED for c in p[ITEMS]):
        return False
    u: int = t.usable[item]
    if u >= 0 and not matches(t, p, u, False):
        return False
    nu: int = t.not_usable[item]
    if nu >= 0 and matches(t, p, nu, False):
        race, _, klass, _, sex = t.conds[nu][:5]
        if klass >= 0 and p[SUPER] and len(p[CLASSES]) == 1 and race < 0 and sex < 0:
            return True
        if race >= 0 and p[HALF] and len(p[RACES]) == 1 and klass < 0 and sex < 0:
            return True
        return False
    return True


def big_count(t: Any, p: Any) -> int:
    flags: Ints = t.flags
    exempt: int = p[EXEMPT]
    n = 0
    c: int
    for c in p[ITEMS]:
        if flags[c] & F_BIG and not exempt >> c & 1:
            n += 1
    return n


def big_room(t: Any, p: Any) -> int:
    """How many more Big items this character may carry (as `legal._big_room`)."""
    return 99 if abilities(t, p) & A_CARRY_ANY_BIG else 1 - big_count(t, p)


def equip_problem(t: Any, p: Any, item: int) -> bool:
    """Whether this carried Item cannot be equipped now (as `characters.equip_problem`)."""
    if not can_use(t, p, item):
        return True
    exempt: int = p[EXEMPT]
    if exempt >> item & 1:
        return False
    tslot: Ints = t.slot
    slot: int = tslot[item]
    equipped: int = p[EQUIPPED]
    c: int
    if 1 <= slot <= 3:
        for c in p[ITEMS]:
            if equipped >> c & 1 and tslot[c] == slot and not exempt >> c & 1:
                return True
    elif slot == 4:
        used = 0
        hands: Ints = t.hands
        for c in p[ITEMS]:
            if equipped >> c & 1 and tslot[c] == 4 and not exempt >> c & 1:
                used += hands[c]
        limit = 2
        for k in p[SIDEKICKS]:
            limit += t.extra_hands[k]
        if used + hands[item] > limit:
            return True
    return False


def equip_actions(t: Any, p: Any) -> list[Action]:
    seat: int = p[SEAT]
    equipped: int = p[EQUIPPED]
    flags: Ints = t.flags
    items: Ints = p[ITEMS]
    out = [_act(UNEQUIP, seat, c, -1, (), "") for c in unique(t, [c for c in items if equipped >> c & 1])]
    free = [c for c in items if not equipped >> c & 1 and flags[c] & F_ITEM and not equip_problem(t, p, c)]
    out += [_act(EQUIP, seat, c, -1, (), "") for c in unique(t, free)]
    return out


def sale_actions(t: Any, p: Any) -> list[Action]:
    """Each sale where every Item counts (as `legal.sale_actions` and `legal._sales`, pruned)."""
    room: int = WINNING_LEVEL - 1 - p[LEVEL]
    if room <= 0:
        return []
    flags: Ints = t.flags
    goldof: Ints = t.gold
    sellable = list(p[ITEMS]) + [c for c in p[HAND] if flags[c] & (F_ITEM | F_ONE_SHOT)]
    items = [c for c in sellable if goldof[c] > 0]
    double = bool(abilities(t, p) & A_DOUBLE_SALE) and not p[DOUBLE_USED] and not p[DOUBLE_BARRED]
    total = 0
    best = 0
    for c in items:
        total += goldof[c]
        best = max(best, goldof[c])
    if total + (best if double else 0) < GOLD_PER_LEVEL:
        return []
    idx: Ints = t.idx
    items.sort(key=lambda c: (-goldof[c], idx[c]))
    n = len(items)
    gold = [goldof[c] for c in items]
    rest = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        rest[j] = rest[j + 1] + gold[j]
    out: list[Action] = []
    seen: set[tuple[tuple[int, ...], int]] = set()
    seat: int = p[SEAT]
    i: int
    chosen: Ints
    tot: int
    dbl: int
    # a depth-first search written as a stack of (next index, chosen positions, total, doubled position)
    stack: list[tuple[int, tuple[int, ...], int, int]] = [(0, (), 0, -1)]
    while stack:
        i, chosen, tot, dbl = stack.pop()
        if len(out) >= MAX_SALES:
            break
        lv = min(tot // GOLD_PER_LEVEL, room)
        if lv >= 1:
            ok = True
            for k in chosen:
                less = tot - (2 * gold[k] if k == dbl else gold[k])
                if min(less // GOLD_PER_LEVEL, room) >= lv:
                    ok = False
                    break
            if ok:
                key = (tuple(sorted(idx[items[k]] for k in chosen)), idx[items[dbl]] if dbl >= 0 else -1)
                if key not in seen:
                    seen.add(key)
                    cards = tuple(items[k] for k in chosen)
                    out.append(
                        _act(SELL, seat, items[dbl] if dbl >= 0 else -1, -1, cards, "double" if dbl >= 0 else "")
                    )
            continue
        if i < n and tot + rest[i] + (gold[i] if double and dbl < 0 else 0) < GOLD_PER_LEVEL:
            continue
        # pushed in reverse, so that they are popped in the order the recursion visits them
        for j in range(n - 1, i - 1, -1):
            more = (*chosen, j)
            if double and dbl < 0:
                stack.append((j + 1, more, tot + 2 * gold[j], j))
            stack.append((j + 1, more, tot + gold[j], dbl))
    return out


def table_actions(t: Any, pos: Any) -> list[Action]:
    """`legal.table_actions(g, p, own_turn=True)` for the acting seat of a Main position."""
    seat: int = pos[0]
    players: tuple[Any, ...] = pos[1]
    p = players[seat]
    flags: Ints = t.flags
    c: int
    out = equip_actions(t, p)
    for c in (*p[RACES], *p[CLASSES]):
        out.append(_act(DISCARD, seat, c, -1, (), ""))
    out += sale_actions(t, p)
    # Hirelings handed an Item to carry
    carriers = [k for k in p[SIDEKICKS] if t.carries[k] and not p[CARRYING] >> k & 1]
    exempt: int = p[EXEMPT]
    equipped: int = p[EQUIPPED]
    for k in carriers:
        named = (k,) if len(carriers) > 1 else ()
        fits = [c for c in p[ITEMS] if not exempt >> c & 1 and (not equipped >> c & 1 or flags[c] & F_BIG)]
        for c in unique(t, [c for c in fits if not flags[c] & F_STEED]):
            out.append(_act(GIVE, seat, c, -1, named, "hireling"))
    items: Ints = p[ITEMS]
    if items:
        mine = [c for c in unique(t, items) if flags[c] & F_ITEM]
        for q in players:
            if q is p or q[DEAD]:
                continue
            steed_room = not any(flags[c] & F_STEED and not q[CHEATS] >> c & 1 for c in q[ITEMS])
            may_big = -1  # worked out at the first Big item
            for c in mine:
                f = flags[c]
                if f & F_STEED and not steed_room:
                    continue
                if f & F_BIG and may_big < 0:
                    may_big = 1 if abilities(t, q) & A_CARRY_ANY_BIG or big_count(t, q) < 1 else 0
                if not f & F_BIG or may_big == 1:
                    out.append(_act(GIVE, seat, c, q[SEAT], (), ""))
        room_p = big_room(t, p)
        mine_big = [(c, 1 if flags[c] & F_BIG else 0) for c in mine]
        for q in players:
            if q is p or q[DEAD] or not q[ITEMS]:
                continue
            room_q = big_room(t, q)
            them: int = q[SEAT]
            for theirs in unique(t, [k for k in q[ITEMS] if flags[k] & F_ITEM]):
                tb = 1 if flags[theirs] & F_BIG else 0
                got = (theirs,)
                for c, cb in mine_big:
                    if tb and room_p + cb < 1 or cb and room_q + tb < 1:
                        continue
                    out.append(_act(TRADE, seat, c, them, got, ""))
    if abilities(t, p) & A_THEFT and (p[HAND] or items):
        if p[SIDEKICKS] or p[RACES] or p[CLASSES]:
            fuel = [*p[HAND], *items, *p[SIDEKICKS], *p[RACES], *p[CLASSES]]
        else:
            fuel = [*p[HAND], *items]
        pay = unique(t, fuel)[:3]
        for q in players:
            if q is p or q[DEAD]:
                continue
            for c in unique(t, [k for k in q[ITEMS] if not flags[k] & (F_BIG | F_STEED)]):
                for d in pay:
                    out.append(_act(STEAL, seat, c, q[SEAT], (d,), ""))
    return out


def item_bonus(t: Any, p: Any, item: int) -> int:
    b: int = t.bonus[item]
    for ci, v in t.cond_bonus[item]:
        if matches(t, p, ci, False):
            b += v
    return b


def char_strength(t: Any, f: Any, p: Any, ignore_level: bool, lvl_only: bool, muted: int) -> int:
    """One fighter's combat strength (as `combat.char_strength`)."""
    fighter, helper, _, _, bonus_by_seat, backstabbed, doppleganger, _ = f
    flags: Ints = t.flags
    slot: Ints = t.slot
    tags: Ints = t.tags
    seat: int = p[SEAT]
    s: int = 0 if ignore_level else p[LEVEL]
    c: int
    if not lvl_only:
        only_armor = any(flags[k] & F_ONLY_ARMOR for k in p[CURSES])
        equipped: int = p[EQUIPPED]
        for c in p[ITEMS]:
            if not equipped >> c & 1 or only_armor and slot[c] != 2:
                continue
            if can_use(t, p, c):
                b = item_bonus(t, p, c)
                if tags[c] & muted:  # its bonus is lost in this fight
                    b = 0
                s += b
        s += bonus_by_seat[seat]
        if not only_armor:
            if not f_no_sidekicks(t, f):
                for k in p[SIDEKICKS]:
                    s += t.sk_bonus[k]
            if seat == fighter and helper < 0:
                for k in (*p[RACES], *p[CLASSES]):
                    s += t.alone[k]
    for k in p[CURSES]:
        s += t.next_bonus[k]
    for v in backstabbed:
        if v == seat:
            s -= 2
    if doppleganger == seat and not lvl_only:
        s *= 2
    return s


def f_no_sidekicks(t: Any, f: Any) -> bool:
    return any(t.flags[base] & F_NO_SIDEKICKS for base, _, _ in f[2])


def standing(t: Any, f: Any) -> tuple[list[tuple[int, int]], int, int, bool]:
    """`combat.standing`: each fighter's strength, the fighters' side, all the monsters, who wins."""
    monsters, side_shots, doppleganger, fighters = f[2], f[3], f[6], f[7]
    flags: Ints = t.flags
    ignore_level = lvl_only = False
    muted = 0
    s: int
    for base, _, _ in monsters:
        fl = flags[base]
        if fl & F_IGNORE_LEVEL:
            ignore_level = True
        if fl & F_LEVEL_ONLY:
            lvl_only = True
        muted |= t.no_bonus_from[base]
    each_fighter = [(p[SEAT], char_strength(t, f, p, ignore_level, lvl_only, muted)) for p in fighters]
    side = 0
    for _, s in each_fighter:
        side += s
    if not lvl_only:
        shots = 0
        for k, b in side_shots:
            if not t.tags[k] & muted:
                shots += b
        side += shots * (2 if doppleganger >= 0 else 1)
    each = []
    beaten = []
    for base, enhancers, oneshots in monsters:
        s = t.level[base]
        floor = False
        for e in enhancers:
            s += t.strength[e]
            if flags[e] & F_FLOOR:
                floor = True
        if floor and s < 1:
            s = 1
        for ci, v in t.mods[base]:
            if any(matches(t, p, ci, v > 0) for p in fighters):
                s += v
        each.append(s + oneshots)
        d = t.defeated_by[base]
        beaten.append(d >= 0 and any(matches(t, p, d, False) for p in fighters))
    total = 0
    for s in each:
        total += s
    if all(beaten):
        return each_fighter, side, total, True
    mon = 0
    for s, b in zip(each, beaten):
        if not b:
            mon += s
    ties = any(abilities(t, p) & A_WINS_TIES for p in fighters)
    return each_fighter, side, total, side > mon or (side == mon and ties)
