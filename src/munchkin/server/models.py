"""What the JSON API accepts: a new table, its seats and options, checked before anything is stored."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator, model_validator

from munchkin.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from munchkin.server.guard import clean_name, look_alike

WINDOW_SECONDS = 15.0  # the default response window when people are seated: time to read a card and decide
FAST_WINDOW_SECONDS = 2.6  # the rulebook's window, for bot tables and fast players

SetId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9-]*$")]


class SeatIn(BaseModel):
    """One seat of a new table: who plays it, and the character's declared sex and House."""

    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    name: str = Field(min_length=1, max_length=24)
    kind: Literal["human", "bot"]
    # a bot's tier (docs/bots.md): easy, medium, hard; random moves; "heuristic" is the Easy bot's old name
    strength: Literal["easy", "medium", "hard", "random", "heuristic"] = "easy"
    sex: Literal["male", "female"] | None = None  # the character's sex as declared; None: at random
    house: str | None = Field(default=None, max_length=24)  # Harry Potter: the House chosen; None: at random

    @field_validator("name")
    @classmethod
    def _plain(cls, v: str) -> str:
        v = clean_name(v, "a seat name")
        if any(ch in v for ch in "<>\"'`"):
            raise ValueError("a seat name must be plain text (no < > quotes or backticks)")
        return v

    @field_validator("house")
    @classmethod
    def _house(cls, v: str | None) -> str | None:
        if v is None or not v.strip():
            return None  # blank: drawn at random, like none at all
        return clean_name(v, "a House")


class OptionsIn(BaseModel):
    """The Faster Play rules a table plays with; an unknown option is refused, never ignored."""

    model_config = ConfigDict(extra="forbid")

    listen_at_the_door: StrictBool = False
    shared_victories: StrictBool = False


class TableIn(BaseModel):
    """A new table, as the lobby's form sends it. A key it does not know is refused (a misspelt one
    would otherwise leave a setting at its default without a word), and so is a number or string
    where a boolean or whole number belongs (`"seed": true` is not seed 1)."""

    # NaN and infinities are refused as "not a finite number"
    model_config = ConfigDict(allow_inf_nan=False, extra="forbid")

    name: str = Field(default="Munchkin table", min_length=1, max_length=60)
    sets: list[SetId] = Field(default_factory=lambda: ["deluxe"], min_length=1, max_length=4)
    seats: list[SeatIn] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    options: OptionsIn = Field(default_factory=OptionsIn)
    # the response window's countdown for people answering others' moments (docs/server.md: why 15 s;
    # the rulebook's 2.6 s suits fast players); a person's own decisions never run on it
    window_seconds: float = Field(default=WINDOW_SECONDS, ge=0.5, le=60)
    # may a person on a window's clock say Wait! and hold the window until they play or pass
    allow_wait: StrictBool = True
    bot_delay: float = Field(default=0.6, ge=0, le=5)
    seed: StrictInt | None = Field(default=None, ge=0, le=2**31)
    # how long a person may be disconnected before a bot plays their seat
    away_seconds: float = Field(default=120, ge=10, le=3600)
    # a person's seat nobody has opened yet: how long after the first person sat down a bot plays it
    join_seconds: float = Field(default=30, ge=10, le=3600)
    # None: off; else the seconds a connected person has for their own decisions before a bot makes the move
    turn_clock: float | None = Field(default=None, ge=10, le=3600)
    # one screen, several people: a device link plays every person seat, handed round (docs/server.md)
    pass_and_play: StrictBool = False
    # table talk (docs/server.md, Table talk): chat on or off; spectators' lines read by everyone, or off:
    # by spectators only (people's lines reach spectators either way)
    chat: StrictBool = True
    spectator_chat: StrictBool = True

    @model_validator(mode="after")
    def _pass_and_play(self) -> TableIn:
        people = sum(1 for s in self.seats if s.kind == "human")
        if self.pass_and_play and people < 2:
            raise ValueError(
                f"pass_and_play: a pass-and-play table needs at least two person seats to pass the device between "
                f"(this one has {people})"
            )
        return self

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v, "a table name")

    @field_validator("seats")
    @classmethod
    def _distinct(cls, seats: list[SeatIn]) -> list[SeatIn]:
        pair = look_alike([s.name for s in seats])
        if pair is None:
            return seats
        first, later = pair
        if first == later:
            raise ValueError(f"two seats are called '{first}': every seat needs a different name")
        raise ValueError(f"'{later}' looks like '{first}': every seat needs a name that looks different")


# What each object in a new table's body is, by where it sits (list indexes left out): to name its keys.
_BODY_MODELS: dict[tuple[str, ...], tuple[str, type[BaseModel]]] = {
    (): ("a table", TableIn),
    ("seats",): ("a seat", SeatIn),
    ("options",): ("options", OptionsIn),
}


def known_keys(path: tuple[str | int, ...]) -> tuple[str, list[str]] | None:
    """What the object at `path` in a new table's body is and the keys it takes, or None if unknown."""
    found = _BODY_MODELS.get(tuple(str(p) for p in path if not isinstance(p, int)))
    return None if found is None else (found[0], list(found[1].model_fields))
