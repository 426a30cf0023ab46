"""Reference speed: RLCard's bare UNO engine, uniformly random legal actions.
One step is one ``game.step(action)`` call on ``env.game``, timed on one core."""

from __future__ import annotations

import json
import random
import time
from typing import Any


def _make_game(seed: int) -> Any:
    try:
        import rlcard  # type: ignore[import-untyped]
    except ImportError as exc:
        raise RuntimeError("rlcard is not installed; run `pip install rlcard` to use this benchmark") from exc
    env = rlcard.make("uno", config={"seed": seed})
    return env.game


def uno_steps_per_second(seconds: float = 3.0, seed: int = 0) -> dict[str, Any]:
    game = _make_game(seed)
    rng = random.Random(seed)
    steps = 0
    games = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    game.init_game()
    while True:
        if game.is_over():
            games += 1
            game.init_game()
        legal: list[str] = game.get_legal_actions()
        game.step(rng.choice(legal))
        steps += 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return {
        "steps": steps,
        "games": games,
        "seconds": elapsed,
        "steps_per_second": steps / elapsed,
    }


def main() -> None:
    print(json.dumps(uno_steps_per_second()))


if __name__ == "__main__":
    main()
