"""Helpers for the tests of saved games."""

from __future__ import annotations

import pytest

from munchkin.engine.actions import MunchkinError
from munchkin.engine.game import Game


def refused(text: str) -> str:
    """The error a broken save is refused with (lower case); fails if it loads or says nothing."""
    with pytest.raises(MunchkinError) as info:
        Game.from_json(text)
    msg = str(info.value)
    assert msg.strip(), "the error says nothing"
    return msg.lower()
