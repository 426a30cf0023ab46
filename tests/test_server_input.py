"""Hostile input to the table server: every bad request gets a clear 4xx (or a WebSocket error) that
says what is wrong, never a 500 or a traceback; new tables are rate-limited.

The rate limits keep time by a `ManualClock` the test moves by hand (tests/test_server_clock.py), as do the
app's tables: a limit's refill or a request's turn comes when the test says, however slow the machine."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Message

from munchkin.server import skeleton as skeleton_module
from munchkin.server.app import create_app
from munchkin.server.clock import ManualClock
from munchkin.server.config import ServerSettings
from munchkin.server.guard import BodyGuard, CreationLimits, Pacer, json_too_deep, look_alike
from munchkin.server.skeleton import prototypes, skeleton
from waits import bounded, until

Msg = dict[str, Any]
BOTS = [{"name": n, "kind": "bot"} for n in ("Ann", "Bob", "Cy")]


def make_client(tmp_path: Path, settings: ServerSettings | None = None) -> TestClient:
    """The app, its tables and its limits on new tables on a `ManualClock` nobody moves: a bucket refills
    only when a test moves the clock."""
    app = create_app(f"sqlite:///{tmp_path / 'munchkin.db'}", settings, ManualClock())
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def post_raw(client: TestClient, raw: str | bytes) -> Any:
    return client.post("/api/tables", content=raw, headers={"content-type": "application/json"})


def stored(client: TestClient) -> list[Msg]:
    tables: list[Msg] = client.get("/api/tables").json()["tables"]
    return tables


def humans(names: str = "ABC") -> Msg:
    return {"seats": [{"name": n, "kind": "human"} for n in names], "seed": 1}


# ---------------------------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("field", ["window_seconds", "bot_delay", "away_seconds", "join_seconds", "turn_clock"])
@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity", "1e309"])
def test_a_number_that_is_not_finite_is_refused_by_name(client: TestClient, field: str, raw: str) -> None:
    r = post_raw(client, f'{{"seats": {json.dumps(BOTS)}, "{field}": {raw}}}')
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail == f"{field}: must be a finite number"
    assert stored(client) == []


def test_several_problems_are_joined_and_the_input_is_never_echoed(client: TestClient) -> None:
    seats = json.dumps([{"name": "Ann", "kind": "alien"}, *BOTS[1:]])
    r = post_raw(client, f'{{"seats": {seats}, "window_seconds": NaN, "seed": -Infinity}}')
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail.split("; ") == [
        "seats[0].kind: must be 'human' or 'bot'",
        "window_seconds: must be a finite number",
        "seed: must be a whole number",
    ]
    assert post_raw(client, json.dumps(BOTS[:2])).json() == {
        "detail": "must be a valid dictionary or object to extract fields from"
    }
    assert "alien" not in detail and "NaN" not in detail and "Infinity" not in detail
    assert post_raw(client, "").json() == {"detail": "a JSON body is required"}
    assert "not valid JSON" in post_raw(client, "{").json()["detail"]


def test_the_new_table_options_are_checked(client: TestClient) -> None:
    r = client.post("/api/tables", json={"seats": BOTS, "away_seconds": 5, "join_seconds": 9.5, "turn_clock": 4000})
    assert r.status_code == 422
    assert r.json()["detail"] == (
        "away_seconds: must be greater than or equal to 10; join_seconds: must be greater than or equal to 10; "
        "turn_clock: must be less than or equal to 3600"
    )
    r = client.post("/api/tables", json={"seats": BOTS, "join_seconds": 3601})
    assert r.json()["detail"] == "join_seconds: must be less than or equal to 3600"
    r = client.post("/api/tables", json={"seats": BOTS, "away_seconds": 60, "join_seconds": 10, "turn_clock": None})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["join_seconds"] == 10
    assert client.post("/api/tables", json={"seats": BOTS}).json()["table"]["join_seconds"] == 30, "the default"


# ---------------------------------------------------------------------------------------------- bodies


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    r = post_raw(client, b" " * 20_000_000)
    assert r.status_code == 413
    assert r.json() == {"detail": "request body too large: 20000000 bytes, the limit is 16384"}

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for _ in range(100):
            yield b" " * 1000

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {"detail": "request body too large: over the limit of 16384 bytes"}
    assert stored(client) == []


def run_guard(messages: list[Message], headers: list[tuple[bytes, bytes]], limit: int = 16_384) -> tuple[int, Msg]:
    """Drive BodyGuard as a bare ASGI app; returns (messages read, what the guard or the app answered)."""
    seen: Msg = {"read": 0, "app": None, "sent": []}

    async def receive() -> Message:
        seen["read"] += 1
        return messages.pop(0)

    async def send(message: Message) -> None:
        seen["sent"].append(message)

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen["app"] = await receive()

    scope = {"type": "http", "method": "POST", "path": "/api/tables", "headers": headers}
    asyncio.run(BodyGuard(inner, lambda: limit)(scope, receive, send))
    return seen["read"], seen


def test_the_guard_stops_reading_a_chunked_body_once_over_the_limit() -> None:
    chunks = [{"type": "http.request", "body": b"x" * 1000, "more_body": True} for _ in range(1000)]
    read, seen = run_guard(chunks, [(b"content-type", b"application/json")])
    assert read == 17, "16 chunks fit in 16,384 bytes; the 17th passes the limit and reading stops"
    assert seen["app"] is None
    start, body = seen["sent"]
    assert start["status"] == 413 and (b"connection", b"close") in start["headers"]
    assert "too large" in json.loads(body["body"])["detail"]


def test_the_guard_refuses_by_content_length_without_reading() -> None:
    read, seen = run_guard([], [(b"content-length", b"20000000")])
    assert read == 0 and seen["app"] is None and seen["sent"][0]["status"] == 413
    read, seen = run_guard([], [(b"content-length", b"lots")])
    assert read == 0 and seen["sent"][0]["status"] == 400


def test_the_guard_hands_a_body_within_the_limit_on_whole() -> None:
    parts = [b'{"a": ', b"[1, 2]", b"}"]
    msgs = [{"type": "http.request", "body": p, "more_body": i < 2} for i, p in enumerate(parts)]
    read, seen = run_guard(msgs, [])
    assert read == 3 and seen["sent"] == []
    assert seen["app"] == {"type": "http.request", "body": b'{"a": [1, 2]}', "more_body": False}


# ---------------------------------------------------------------------------------------------- nesting


def test_json_depth_is_measured_outside_strings() -> None:
    assert not json_too_deep('{"a": [[1], {"b": "[[[[[[["}]}', limit=3)
    assert json_too_deep("[[[[]]]]", limit=3)
    assert not json_too_deep('["\\"[[[[", 1]', limit=1)


def escaped_quotes(size: int) -> str:
    """An unterminated string of escaped quotes, `size` characters: the input that made the old
    check (one regular expression for whole strings) backtrack quadratically."""
    return '"' + '\\"' * ((size - 1) // 2)


def best_of(fn: Any, text: str, runs: int = 7) -> float:
    """The shortest of `runs` timings of fn(text), in seconds (the least disturbed by other work)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - start)
    return min(times)


def linear_reference(text: str) -> int:
    """A plainly linear pass over every character, in Python: the yardstick for the depth check."""
    quotes = 0
    for ch in text:
        if ch == '"':
            quotes += 1
    return quotes


@pytest.mark.parametrize("size", [4096, 16384])
def test_the_depth_check_is_linear_on_escaped_quotes(size: int) -> None:
    text = escaped_quotes(size)
    assert len(text) in (size, size - 1) and not json_too_deep(text)
    check, reference = best_of(json_too_deep, text), best_of(linear_reference, text)
    # measured: 1.3 to 1.6 times the reference; the old check took 1,500 (4 KB) to 4,400 (16 KB) times as long
    assert check < 10 * reference, f"{size} bytes: {check * 1000:.2f} ms, a linear pass takes {reference * 1000:.2f}"


def test_the_depth_check_grows_linearly_with_its_input() -> None:
    small, large = escaped_quotes(4096), escaped_quotes(16384)
    ratio = best_of(json_too_deep, large) / best_of(json_too_deep, small)
    assert ratio < 8, f"4 times the input took {ratio:.1f} times as long (linear: about 4, quadratic: 16)"


def test_escaped_quotes_to_any_address_and_on_the_websocket_are_answered(client: TestClient) -> None:
    r = client.post("/no/such/path", content=escaped_quotes(16384), headers={"content-type": "application/json"})
    assert r.status_code == 404
    r = post_raw(client, escaped_quotes(16384))
    assert r.status_code == 422 and "not valid JSON" in r.json()["detail"]
    with connect_seat0(client) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_text(escaped_quotes(4096))
        assert next_of(ws, "error")["error"].startswith("malformed JSON: Unterminated string")


def test_deeply_nested_json_gets_a_clear_400(client: TestClient) -> None:
    r = post_raw(client, "[" * 5000 + "]" * 5000)
    assert r.status_code == 400
    assert r.json() == {"detail": "JSON nested too deeply: at most 32 levels of arrays and objects"}
    assert stored(client) == []


def connect_seat0(client: TestClient) -> Any:
    created = client.post("/api/tables", json={**humans("A"), "seats": humans("A")["seats"] + BOTS[1:]}).json()
    url = created["links"][0]["url"]
    token = url.split("token=")[1]
    return client.websocket_connect(f"/ws/{created['table']['id']}?token={token}")


def next_of(ws: Any, kind: str) -> Msg:
    for _ in range(500):
        m: Msg = ws.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message came")


def test_deep_json_and_binary_frames_on_the_websocket_get_an_error_and_the_socket_stays(client: TestClient) -> None:
    with connect_seat0(client) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_bytes(b"\x00\x01binary")
        assert next_of(ws, "error")["error"] == "binary frames are not accepted: send JSON text"
        ws.send_text("[" * 2000 + "]" * 2000)  # within 4096 bytes, far past the parser's recursion limit
        assert next_of(ws, "error")["error"] == "JSON nested too deeply: at most 32 levels of arrays and objects"
        ws.send_text(json.dumps({"type": "ping"}))
        assert next_of(ws, "pong") == {"type": "pong"}


# ---------------------------------------------------------------------------------------------- strict fields


@pytest.mark.parametrize(
    "field,raw,detail",
    [
        ("seed", "true", "seed: must be a whole number, not true or false"),
        ("seed", "false", "seed: must be a whole number, not true or false"),
        ("seed", '"5"', "seed: must be a whole number, not a string"),
        ("seed", "5.0", "seed: must be a whole number, not a decimal number"),
        ("allow_wait", "1", "allow_wait: must be true or false, not a number"),
        ("allow_wait", '"yes"', "allow_wait: must be true or false, not a string"),
    ],
)
def test_a_boolean_is_not_a_number_nor_a_number_a_boolean(
    client: TestClient, field: str, raw: str, detail: str
) -> None:
    r = post_raw(client, f'{{"seats": {json.dumps(BOTS)}, "{field}": {raw}}}')
    assert r.status_code == 422, r.text
    assert r.json() == {"detail": detail}
    assert stored(client) == []


def test_a_whole_seed_and_json_booleans_are_taken(client: TestClient) -> None:
    body = {"seats": BOTS, "seed": 2**31, "allow_wait": False, "options": {"listen_at_the_door": True}}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seed"] == 2**31 and r.json()["table"]["allow_wait"] is False


OPTIONS_KEYS = "options takes only listen_at_the_door, shared_victories"
TABLE_KEYS = (
    "a table takes only name, sets, seats, options, window_seconds, allow_wait, bot_delay, seed, away_seconds, "
    "join_seconds, turn_clock, pass_and_play, chat, spectator_chat"
)


@pytest.mark.parametrize(
    "body,detail",
    [
        ({"seats": BOTS, "options": {"shared_victory": True}}, "options.shared_victory: unknown key: " + OPTIONS_KEYS),
        ({"seats": BOTS, "bot_dealy": 0}, "bot_dealy: unknown key: " + TABLE_KEYS),
        (
            {"seats": [{**BOTS[0], "level": 10}, *BOTS[1:]]},
            "seats[0].level: unknown key: a seat takes only name, kind, strength, sex, house",
        ),
        ({"seats": BOTS, "x" * 100: 1}, f"['{'x' * 40}\\u2026']: unknown key: " + TABLE_KEYS),
    ],
    ids=["options", "table", "seat", "long-key"],
)
def test_an_unknown_key_is_refused_by_name(client: TestClient, body: Msg, detail: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json() == {"detail": detail}
    assert stored(client) == []


def test_what_the_lobby_sends_is_taken(client: TestClient) -> None:
    """Every key the lobby's form sends (static/lobby.js, readForm), so that forbidding unknown keys
    never refuses the lobby itself."""
    seat = {"name": "Ann", "kind": "human", "strength": "heuristic", "sex": None, "house": None}
    body = {
        "name": "Friday",
        "sets": ["deluxe"],
        "seats": [seat, {**seat, "name": "Bob", "kind": "bot", "sex": "male"}, {**seat, "name": "Cy", "kind": "bot"}],
        "options": {"listen_at_the_door": False, "shared_victories": True},
        "window_seconds": 15,
        "allow_wait": True,
        "bot_delay": 0.6,
        "seed": None,
        "away_seconds": 120,
        "join_seconds": 30,
        "turn_clock": None,
    }
    lobby = (Path(__file__).parent.parent / "src/munchkin/server/static/lobby.js").read_text()
    form = lobby[lobby.index("function readForm") : lobby.index("async function onSubmit")]
    for key in [*body, *seat, *body["options"]]:
        assert re.search(rf"\b{key}\b[:,]", form), f"the lobby no longer sends {key}: keep this body as it is"
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text


# ---------------------------------------------------------------------------------------------- names


def seats_named(*names: str) -> Msg:
    return {"seats": [{"name": n, "kind": "bot"} for n in names]}


NOT_IN_SEAT = "seats[1].name: a seat name may not contain "
LOOKS = ": every seat needs a name that looks different"
NOT_A_STRING = "must be a valid string, unable to parse raw data as a unicode string"


@pytest.mark.parametrize(
    "body,detail",
    [
        (seats_named("Bob", "Bob\u200b", "Cy"), NOT_IN_SEAT + "U+200B (an invisible character)"),
        (seats_named("Bob", "B\u043eb", "Cy"), "seats: 'B\u043eb' looks like 'Bob'" + LOOKS),
        (seats_named("Bob", "\u202eboB", "Cy"), NOT_IN_SEAT + "U+202E (a text-direction control)"),
        (seats_named("Bob", "Ann\u2066", "Cy"), NOT_IN_SEAT + "U+2066 (a text-direction control)"),
        (seats_named("Bob", "A\x00", "Cy"), NOT_IN_SEAT + "U+0000 (a control character)"),
        (seats_named("Bob", "A\tB", "Cy"), NOT_IN_SEAT + "U+0009 (a control character)"),
        (seats_named("Bob", "A\u2028B", "Cy"), NOT_IN_SEAT + "U+2028 (a line break)"),
        (seats_named("Bob", "A\ue000", "Cy"), NOT_IN_SEAT + "U+E000 (a private-use character)"),
        (seats_named("Bob", "A\u0378", "Cy"), NOT_IN_SEAT + "U+0378 (an unassigned code point)"),
        (seats_named("Bob", "\u3164", "Cy"), NOT_IN_SEAT + "U+3164 (an invisible character)"),
        (seats_named("Bob", "   ", "Cy"), "seats[1].name: a seat name may not be empty or only spaces"),
        (
            seats_named("Bob", "\u0301\u0301", "Cy"),
            "seats[1].name: a seat name needs at least one visible letter, digit or sign",
        ),
        (seats_named("Bob", "\uff22\uff4f\uff42", "Cy"), "seats: '\uff22\uff4f\uff42' looks like 'Bob'" + LOOKS),
        (seats_named("Al", "AI", "Cy"), "seats: 'AI' looks like 'Al'" + LOOKS),
        (seats_named("Bob", "b0b", "Cy"), "seats: 'b0b' looks like 'Bob'" + LOOKS),
        (seats_named("Bob", "Bob", "Cy"), "seats: two seats are called 'Bob': every seat needs a different name"),
        (seats_named("Bob", "<b>", "Cy"), "seats[1].name: a seat name must be plain text (no < > quotes or backticks)"),
        ({**seats_named("A", "B", "C"), "name": " \u3000 "}, "name: a table name may not be empty or only spaces"),
        (
            {**seats_named("A", "B", "C"), "name": "x\u200dy"},
            "name: a table name may not contain U+200D (an invisible character)",
        ),
        (
            {"seats": [{"name": "A", "kind": "bot", "house": "Gryff\x07"}, *BOTS[1:]]},
            "seats[0].house: a House may not contain U+0007 (a control character)",
        ),
        (seats_named("Bob", "\ud800", "Cy"), "seats[1].name: " + NOT_A_STRING),
        ({**seats_named("A", "B", "C"), "sets": ["\ud800"]}, "sets[0]: " + NOT_A_STRING),
        ({**seats_named("A", "B", "C"), "sets": ["Deluxe!"]}, "sets[0]: must match pattern '^[a-z0-9][a-z0-9-]*$'"),
    ],
)
def test_a_bad_name_is_refused_with_the_reason(client: TestClient, body: Msg, detail: str) -> None:
    r = post_raw(client, json.dumps(body))  # json.dumps writes lone surrogates as \ud800 escapes
    assert r.status_code == 422, r.text
    assert r.json() == {"detail": detail}
    assert stored(client) == []


def test_names_are_normalised(client: TestClient) -> None:
    body = {
        "name": "  My \u2003\u00a0 table ",
        "seats": [{"name": " Ann\u00a0  Lee ", "kind": "bot"}, *seats_named("Zoe\u0301", "Cy")["seats"]],
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["name"] == "My table"
    assert [s["name"] for s in table["seats"]] == ["Ann Lee", "Zo\u00e9", "Cy"]


# Each pair issue 30 names (accepted before Unicode's confusables were used), then the look-alikes
# refused before it: Cyrillic and Greek letters, 0/o, 1/I/l, rn/m, accents, case, full width.
LOOK_ALIKE = [
    ("Cid", "\u03f9id"),  # Ϲ GREEK CAPITAL LUNATE SIGMA SYMBOL (NFKC alone makes it a Σ)
    ("Ron", "\u13a1on"),  # Ꭱ CHEROKEE LETTER E
    ("Ann", "\u13aann"),  # Ꭺ CHEROKEE LETTER GO
    ("Gus", "\u0262us"),  # ɢ LATIN LETTER SMALL CAPITAL G
    ("cid", "\u1d04id"),  # ᴄ LATIN LETTER SMALL CAPITAL C
    ("Cid", "\u1d04id"),
    ("bob", "\u0185ob"),  # ƅ LATIN SMALL LETTER TONE SIX
    ("Bob", "B\u043eb"),  # Cyrillic о
    ("Bob", "\u0412\u03bfb"),  # Cyrillic В, Greek ο
    ("Cy", "\u0421\u0443"),  # Cyrillic С and у
    ("ANN", "\u0391\u039d\u039d"),  # Greek Α Ν Ν
    ("Bob", "b0b"),
    ("Al", "AI"),
    ("Al", "A1"),
    ("Bill", "Bi1I"),
    ("Arnie", "Amie"),
    ("Zoe", "Zo\u00e9"),
    ("Anna", "ANNA"),
    ("Bob", "\uff22\uff4f\uff42"),  # full-width
]


@pytest.mark.parametrize("first,later", LOOK_ALIKE)
def test_names_that_look_alike_are_refused(client: TestClient, first: str, later: str) -> None:
    assert look_alike([first, later]) == (first, later)
    r = post_raw(client, json.dumps(seats_named(first, later, "Zed")))
    assert r.status_code == 422, r.text
    assert r.json() == {"detail": f"seats: '{later}' looks like '{first}'" + LOOKS}


@pytest.mark.parametrize(
    "names",
    [
        ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"),
        (
            "\u0418\u0432\u0430\u043d",
            "\u041e\u043b\u0435\u0433",
            "\u041c\u0430\u0440\u0438\u044f",
            "\u041f\u0451\u0442\u0440",
        ),
        (
            "\u039d\u03af\u03ba\u03bf\u03c2",
            "\u0395\u03bb\u03ad\u03bd\u03b7",
            "\u0393\u03b9\u03ce\u03c1\u03b3\u03bf\u03c2",
        ),
        ("\u674e\u660e", "\u738b\u82b3", "\u5f20\u4f1f", "\u5218\u6d0b"),
        ("Ian", "Lan", "Ivy", "Liv"),
        ("Player 1", "Player 2", "Player 3", "Player 4"),
    ],
    ids=["latin", "cyrillic", "greek", "chinese", "i-and-l", "numbered"],
)
def test_names_that_differ_are_accepted(client: TestClient, names: tuple[str, ...]) -> None:
    assert look_alike(list(names)) is None
    r = post_raw(client, json.dumps(seats_named(*names)))
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["table"]["seats"]] == list(names)


def test_the_supplement_holds_only_pairs_unicode_does_not_link() -> None:
    """The confusables data links Ϲ/C, Ꭱ/R, Ꭺ/A and ᴄ/c itself; the supplement adds just ɢ/G and ƅ/b,
    which it does not, and each of those does look alike once added."""
    data = skeleton_module._data()
    for a, b in [("\u03f9", "C"), ("\u13a1", "R"), ("\u13aa", "A"), ("\u1d04", "c")]:
        assert b in [e["c"] for e in data[a]], (a, b)
    assert skeleton_module.SUPPLEMENT == {"\u0262": "G", "\u0185": "b"}
    for a, b in skeleton_module.SUPPLEMENT.items():
        assert b not in [e["c"] for e in data.get(a, [])], f"{a}/{b} is in the data now: drop it from the supplement"
        assert skeleton(a) == skeleton(b)


def test_a_skeleton_spells_m_as_rn_and_never_drops_a_character() -> None:
    assert skeleton("m") == skeleton("rn") == "rn"
    assert all(v for v in prototypes().values()), "a character mapped to nothing would vanish from a name"
    assert skeleton("Zo\u00e9") == "Zoe" and skeleton("\u03f9") == "C"


def test_look_alike_pairs() -> None:
    assert look_alike(["Bob", "Ann", "\u0392\u03bf\u0432"]) is None  # Greek capital beta, omicron, Cyrillic в: not b
    assert look_alike(["Bob", "Ann", "\u0412\u03bfb"]) == ("Bob", "\u0412\u03bfb")  # Cyrillic В, Greek ο
    assert look_alike(["Anna", "ANNA"]) == ("Anna", "ANNA")
    assert look_alike(["Ian", "Lan", "lan"]) == ("Lan", "lan")
    assert look_alike(["Ian", "lan"]) == ("Ian", "lan")  # a capital I is a small l in sans-serif fonts
    assert look_alike(["Arnie", "Amie"]) == ("Arnie", "Amie")


# ---------------------------------------------------------------------------------------------- rate limits


def test_tables_are_limited_per_client_address(tmp_path: Path) -> None:
    with make_client(tmp_path, ServerSettings(tables_per_minute=2, tables_per_minute_total=0)) as c:
        assert [post_raw(c, json.dumps(humans())).status_code for _ in range(2)] == [201, 201]
        r = post_raw(c, json.dumps(humans()))
        assert r.status_code == 429
        wait = int(r.headers["Retry-After"])
        assert wait == 30  # 2 a minute, and the clock stands: a whole 30 s to the next
        assert r.json() == {"detail": f"too many new tables: try again in {wait} seconds"}
        other = TestClient(c.app, client=("10.0.0.2", 50000))
        assert post_raw(other, json.dumps(humans())).status_code == 201
        assert len(stored(c)) == 3


def test_tables_are_limited_for_the_whole_server(tmp_path: Path) -> None:
    with make_client(tmp_path, ServerSettings(tables_per_minute=0, tables_per_minute_total=2)) as c:
        hosts = [TestClient(c.app, client=(f"10.0.0.{i}", 50000)) for i in range(3)]
        assert [post_raw(h, json.dumps(humans())).status_code for h in hosts] == [201, 201, 429]


def test_a_full_server_answers_503_and_keeps_the_last_places_for_newcomers(tmp_path: Path) -> None:
    """Of 20 places, the last 2 are kept for addresses that hold no unfinished table yet, so a few busy
    addresses cannot lock a newcomer out; past 20, everyone gets 503."""
    settings = ServerSettings(max_live_tables=20, max_live_tables_per_address=0, tables_per_minute=0)
    with make_client(tmp_path, settings) as c:
        busy = [TestClient(c.app, client=(f"10.0.0.{i}", 50000)) for i in (1, 2)]
        codes = [post_raw(busy[i % 2], json.dumps(humans())).status_code for i in range(19)]
        assert codes == [201] * 18 + [503], "the busy addresses stop at 18 of 20"
        r = post_raw(busy[0], json.dumps(humans()))
        assert r.status_code == 503 and r.headers["Retry-After"] == "60"
        assert "the server is full" in r.json()["detail"]
        newcomers = [TestClient(c.app, client=(f"10.0.1.{i}", 50000)) for i in range(3)]
        assert [post_raw(n, json.dumps(humans())).status_code for n in newcomers] == [201, 201, 503]


def test_one_address_holds_a_bounded_number_of_unfinished_tables(tmp_path: Path) -> None:
    settings = ServerSettings(max_live_tables_per_address=3, tables_per_minute=0)
    with make_client(tmp_path, settings) as c:
        one = TestClient(c.app, client=("10.0.0.1", 50000))
        same_64 = TestClient(c.app, client=("2001:db8:1:2::1", 50000))
        also_same_64 = TestClient(c.app, client=("2001:db8:1:2:ffff::9", 50000))
        assert [post_raw(one, json.dumps(humans())).status_code for _ in range(3)] == [201] * 3
        r = post_raw(one, json.dumps(humans()))
        assert r.status_code == 429 and "3 unfinished tables" in r.json()["detail"]
        codes = [post_raw(x, json.dumps(humans())).status_code for x in (same_64, also_same_64, same_64, also_same_64)]
        assert codes == [201, 201, 201, 429], "an IPv6 /64 counts as one address"
        assert post_raw(TestClient(c.app, client=("10.0.0.2", 50000)), json.dumps(humans())).status_code == 201


def test_busy_addresses_leave_a_quarter_of_the_servers_bucket_for_newcomers() -> None:
    now = [0.0]
    settings = ServerSettings(tables_per_minute=10, tables_per_minute_total=60)
    limits = CreationLimits(lambda: settings, clock=lambda: now[0])
    taken = [sum(limits.take(f"10.0.0.{i}") == 0 for _ in range(10)) for i in range(6)]
    # four addresses take 40 and stop at the reserve of 15; a fifth takes 1 as a newcomer, then 4 more
    # down to the reserve; the sixth takes 1, as a newcomer, and no more
    assert taken == [10, 10, 10, 10, 5, 1]
    assert [limits.take(f"10.0.1.{i}") for i in range(14)] == [0.0] * 14, "newcomers use the rest"
    assert limits.take("10.0.1.99") > 0


def test_token_buckets_refill_at_their_rate() -> None:
    now = [0.0]
    settings = ServerSettings(tables_per_minute=2, tables_per_minute_total=3)
    limits = CreationLimits(lambda: settings, clock=lambda: now[0])
    assert [limits.take("a"), limits.take("a")] == [0, 0]
    assert limits.take("a") == pytest.approx(30)  # 2 a minute: one every 30 seconds
    assert limits.take("b") == 0
    assert limits.take("c") == pytest.approx(20)  # the server's 3 a minute are spent: one every 20 seconds
    now[0] = 20
    assert limits.take("a") == pytest.approx(10)  # refused, and it costs the server's bucket nothing
    assert limits.take("c") == 0
    now[0] = 1000
    free = CreationLimits(lambda: ServerSettings(tables_per_minute=0, tables_per_minute_total=0))
    assert all(free.take("a") == 0 for _ in range(100))


def test_replay_downloads_are_spaced_out_and_a_crowd_is_refused() -> None:
    """Clients downloading replays in a loop take turns at a set rate, so the tables in play keep the
    event loop; past the queue's length a request is told when to come back. The pacer keeps time by a
    `ManualClock` here, moved by hand."""
    clock = ManualClock()

    async def run() -> tuple[list[float], list[float]]:
        start = clock.now
        pacer = Pacer(lambda: 10.0, max_waiting=4, clock=clock)
        turns = [asyncio.ensure_future(pacer.turn()) for _ in range(5)]
        await until(lambda: clock.waiting() == 4, "four requests waiting their turn")  # 1 at once, 4 wait their turn
        # five requests at 10 a second take 0.4 s: at 0.05 s, 0.15 s, ... 0.45 s, one more has had its turn
        for k in range(5):
            clock.advance(start + 0.1 * k + 0.05 - clock.now)
            await until(lambda k=k: sum(t.done() for t in turns) == k + 1, f"request {k}'s turn")
            assert [t.done() for t in turns] == [i <= k for i in range(5)], k  # the others are not due yet
        waits = [t.result() for t in turns]
        crowd = Pacer(lambda: 10.0, max_waiting=4, clock=clock)
        answers = [asyncio.ensure_future(crowd.turn()) for _ in range(7)]
        await until(lambda: sum(t.done() for t in answers) == 3, "the crowd's first and its two refused")
        clock.advance(0.5)
        return waits, await bounded(asyncio.gather(*answers), "the crowd's answers")

    waits, crowd = asyncio.run(run())
    assert waits == [0.0] * 5
    refused = [w for w in crowd if w > 0]
    assert crowd[:5] == [0.0] * 5 and len(refused) == 2 and all(w >= 0.4 for w in refused), crowd
    assert refused == pytest.approx([0.9, 0.9]), "come back once the queue of 4 ahead has gone, at 10 a second"
    assert asyncio.run(Pacer(lambda: 0.0).turn()) == 0.0, "0 means no limit"
