"""What the JSON API accepts: a new table, its seats and options, checked before anything is stored."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator


class SeatIn(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    kind: Literal["human", "bot"]
    strength: Literal["random", "heuristic"] = "heuristic"
    sex: Literal["male", "female"] | None = None  # the character's sex as declared; None: at random
    house: str | None = Field(default=None, max_length=24)  # Harry Potter: the House chosen; None: at random

    @field_validator("name")
    @classmethod
    def _plain(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v or any(ch in v for ch in "<>\"'`"):
            raise ValueError("a seat name must be plain text (no < > quotes or backticks)")
        return v


class OptionsIn(BaseModel):
    listen_at_the_door: bool = False
    shared_victories: bool = False


class TableIn(BaseModel):
    """A new table, as the lobby's form sends it."""

    name: str = Field(default="Munchkin table", min_length=1, max_length=60)
    sets: list[str] = Field(default_factory=lambda: ["deluxe"], min_length=1, max_length=4)
    seats: list[SeatIn] = Field(min_length=3, max_length=6)
    options: OptionsIn = Field(default_factory=OptionsIn)
    window_seconds: float = Field(default=2.6, ge=0.5, le=30)
    bot_delay: float = Field(default=0.6, ge=0, le=5)
    seed: int | None = Field(default=None, ge=0, le=2**31)
