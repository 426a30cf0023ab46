"""Messages of anyone's making: whatever a client sends, the server answers with an error that
says why, or applies a legal action; it never fails, and a refused message changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from munchkin.server.app import handle_message
from munchkin.server.store import Store
from munchkin.server.tables import Client, TableRunner, new_table_row


class Nowhere:
    async def send_text(self, data: str) -> None:  # the runner is not started: nothing is sent
        raise AssertionError("nothing should be sent")


def make_runner(tmp: Path) -> tuple[TableRunner, Client]:
    store = Store(f"sqlite:///{tmp / 'fuzz.db'}")
    seats = [{"name": n, "kind": "human"} for n in ("Ann", "Bob", "Cy")]
    row, _ = new_table_row("fuzz", ["deluxe"], seats, {}, 2.6, 0.0, 17)
    runner = TableRunner(row, store, fresh=True)
    store.create_table(row, runner.deal_chance())
    return runner, Client(Nowhere(), 0, burst=10**9, rate=1e9)


texts = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["", "{", "null", "[]", '"act"', "1e999", '{"type": null}', '{"type": ["act"]}']),
)
words = st.sampled_from(["kick open the door", "ready", "pass", "play Elf", "run away", "ask Bob for help", ""])
json_values: Any = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "more_time", "ping", "nope", ""])},
    optional={"action": words | json_values, "version": st.integers(-3, 3) | json_values, "extra": json_values},
)


# no deadline and no too_slow health check: how long an example or its generation takes says nothing of the server
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=texts | messages.map(json.dumps), seat=st.sampled_from([0, 1, None]))
def test_any_message_gets_an_answer_and_a_refusal_changes_nothing(tmp_path: Path, raw: str, seat: int | None) -> None:
    runner, client = make_runner(tmp_path)
    client.seat = seat
    g = runner.game
    before = (g.version, g.state_digest(), runner.stored)
    reply = handle_message(runner, client, raw)
    if reply is None:  # accepted: a legal action was taken and stored
        assert g.version > before[0] and runner.stored == g.decisions
    else:
        assert reply["type"] in ("error", "pong")
        if reply["type"] == "error":
            assert isinstance(reply["error"], str) and len(reply["error"]) > 5
        assert (g.version, g.state_digest(), runner.stored) == before
    runner.store.close()


def test_a_version_quoted_from_the_future_or_past_is_refused(tmp_path: Path) -> None:
    runner, client = make_runner(tmp_path)
    v = runner.game.version
    for bad in (v - 1, v + 1, 10**9):
        reply = handle_message(runner, client, json.dumps({"type": "act", "action": "ready", "version": bad}))
        assert reply is not None and "stale action" in reply["error"]
    assert handle_message(runner, client, json.dumps({"type": "act", "action": "ready", "version": v})) is None
    assert runner.game.version > v and runner.stored == 1
    runner.store.close()
