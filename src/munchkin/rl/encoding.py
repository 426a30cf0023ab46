"""The observation of one seat as a fixed-length vector (issue 36): its own hand and table by card
definition, every player's public table, Levels, the fight's numbers, deck and discard sizes, and the
seats relative to it. Read from `Game.view(seat)` alone, so it holds nothing the seat may not know.

CONTRACT (shared by the `rlobs` and `rlenv` helpers; keep these names and signatures):

    class Encoder:
        def __init__(self, sets: Sequence[str], players: int) -> None
            # `sets` as Setup.sets (one set or a mix), 3 <= players <= 6
        size: int                       # length of every vector this encoder makes
        definitions: list[str]          # the card definitions' ids, in feature order (identity: CardDef.idx)
        def encode(self, game: Game, seat: int) -> numpy.ndarray   # float32, shape (size,)
            # reads ONLY game.view(seat) plus the static card table (physical card -> definition), never
            # another seat's hand, the decks' order or the RNG
        def layout(self) -> list[tuple[str, int, int]]             # (block name, start, length), for docs/rl.md

The environment appends its own features (the decision kind, the sub-choice stage) after these.
"""
