"""The story of a game, told from its public events: each player's Level turn by turn and a few
figures (monsters killed, help given and received, Curses suffered, deaths, Treasures won).

Only facts every seat heard are used: Levels, kills, calls for help, Curses and deaths are narrated
to all, and of a face-down draw only its deck and its number of cards (never which cards).
"""

from __future__ import annotations

from typing import Any

from munchkin.engine.game import WINNING_LEVEL, Game

# events that may follow a kill while its Treasures are handed out (what comes after a "kill" and
# before anything else happens): levels for it, the draws, the face-up Treasures taken
_REWARD_EVENTS = frozenset({"level", "win", "draw", "reveal", "take", "reshuffle", "resurrect", "gift"})


def _figures() -> dict[str, int]:
    """One player's figures, all at nought."""
    return {
        "kills": 0,  # monsters killed: in the player's own fights, and killed outright by their card
        "helped_kill": 0,  # monsters killed in others' fights the player helped in
        "helped": 0,  # times the player helped another's fight
        "was_helped": 0,  # times another player helped the player's fight
        "curses": 0,  # Curses (and Traps, Hexes, …) that struck the player, cancelled ones not counted
        "deaths": 0,
        "treasures": 0,  # Treasure cards won for kills
        "level_ups": 0,  # Levels gained, all told
        "level_losses": 0,  # Levels lost, all told
    }


def game_story(g: Game) -> dict[str, Any]:
    """Each player's Level after each turn (`levels[0]`: as the first turn began; `levels[k]`: after
    k turns; the last is the final Level) and their figures, read from `g.events` alone."""
    n = len(g.players)
    deltas = [0] * n
    for ev in g.events:
        if ev[0] == "level":
            deltas[ev[1]] += ev[2]
    cur = [g.players[s].level - deltas[s] for s in range(n)]  # the Levels the game began with
    series: list[list[int]] = [[] for _ in range(n)]
    figures = [_figures() for _ in range(n)]
    turn_seats: list[int] = []
    pending_curses: dict[int, int] = {}  # the Curse card just played -> its victim, unless cancelled next
    reward_for = -1  # after a kill: whose reward draws are being narrated (-1: none)
    for ev in g.events:
        kind = ev[0]
        if reward_for >= 0 and kind not in _REWARD_EVENTS:
            reward_for = -1
        if kind != "cancel":  # a Curse not cancelled at once (the next event) has struck
            _settle_curses(pending_curses, figures)
        if kind == "turn":
            series_snapshot(series, cur)
            turn_seats.append(ev[1])
        elif kind == "level":
            _, s, d, lv, _why = ev
            cur[s] = lv
            figures[s]["level_ups" if d > 0 else "level_losses"] += abs(d)
        elif kind == "kill":
            _, fighter, helper, monsters = ev
            figures[fighter]["kills"] += len(monsters)
            if helper >= 0:
                figures[helper]["helped_kill"] += len(monsters)
            reward_for = fighter
        elif kind == "slay":
            figures[ev[1]]["kills"] += 1
        elif kind == "help":
            figures[ev[1]]["helped"] += 1
            figures[ev[2]]["was_helped"] += 1
        elif kind == "curse":
            pending_curses[ev[3]] = ev[2]
        elif kind == "cancel":
            pending_curses.pop(ev[2], None)
        elif kind == "death":
            figures[ev[1]]["deaths"] += 1
        elif kind == "draw" and reward_for >= 0:
            if ev[2] == "treasure":
                figures[ev[1]]["treasures"] += len(ev[3])
        elif kind == "take" and reward_for >= 0:
            figures[ev[1]]["treasures"] += 1
    _settle_curses(pending_curses, figures)
    series_snapshot(series, cur)
    return {
        "winning_level": WINNING_LEVEL,
        "turns": len(turn_seats),
        "turn_seats": turn_seats,
        "winners": list(g.winners),
        "capped": bool(g.capped),
        "players": [
            {"seat": s, "name": g.players[s].name, "level": g.players[s].level, "levels": series[s], **figures[s]}
            for s in range(n)
        ],
    }


def series_snapshot(series: list[list[int]], cur: list[int]) -> None:
    """Append every player's current Level to their series."""
    for s, lv in enumerate(cur):
        series[s].append(lv)


def _settle_curses(pending: dict[int, int], figures: list[dict[str, int]]) -> None:
    """The Curses in flight that were not cancelled struck their victims."""
    for victim in pending.values():
        figures[victim]["curses"] += 1
    pending.clear()


def figures_text(p: dict[str, Any]) -> str:
    """One player's figures as a short sentence."""

    def times(k: int) -> str:
        return "once" if k == 1 else "twice" if k == 2 else f"{k} times"

    def count(k: int, word: str) -> str:
        return f"{k} {word}" + ("" if k == 1 else "s")

    parts = [f"{count(p['kills'], 'monster')} killed"]
    if p["helped_kill"]:
        parts[-1] += f" (and {p['helped_kill']} helping)"
    parts.append(f"helped others {times(p['helped'])}" if p["helped"] else "never helped others")
    parts.append(f"was helped {times(p['was_helped'])}" if p["was_helped"] else "never was helped")
    parts.append(f"{count(p['curses'], 'Curse')} suffered")
    parts.append(count(p["deaths"], "death"))
    parts.append(f"{count(p['treasures'], 'Treasure')} won")
    return ", ".join(parts)


def sparkline(levels: list[int], top: int, width: int = 40) -> str:
    """A player's Levels over the turns as one line of block characters, at most `width` long."""
    if not levels:
        return ""
    bars = "▁▂▃▄▅▆▇█"
    step = max(1, -(-len(levels) // width))
    sampled = [levels[min(i + step - 1, len(levels) - 1)] for i in range(0, len(levels), step)]
    span = max(1, top - 1)
    return "".join(bars[min(7, max(0, round((lv - 1) * 7 / span)))] for lv in sampled)
