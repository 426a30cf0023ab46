"""The Munchkin rules engine: pure rules, no I/O."""

from munchkin.engine.actions import Action, IllegalAction, MunchkinError, ParseError
from munchkin.engine.game import Game, Options, Setup


def new_game(sets: list[str], players: list[str], seed: int, options: Options | None = None) -> Game:
    """Create a game from the sets in play, 3 to 6 player names, a seed and options."""
    return Game(Setup(list(sets), list(players), seed, options or Options()))


__all__ = ["Action", "Game", "IllegalAction", "MunchkinError", "Options", "ParseError", "Setup", "new_game"]
