"""Table talk through the server: chat lines, whispers, quick phrases, their refusals and limits,
the table's chat options, and what a replay keeps (docs/server.md, Table talk).

The apps' tables, their chat limits and their sockets' message buckets keep time by a `ManualClock` the
test moves by hand (tests/test_server_clock.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from munchkin.server.app import create_app
from munchkin.server.chat import CHAT_LINES, CHAT_MAX_CHARS, CHAT_SECONDS, PHRASES, Talk
from munchkin.server.clock import ManualClock
from munchkin.server.guard import clean_text
from munchkin.server.store import Store
from munchkin.server.tables import Client, TableRunner, new_table_row
from test_server_protocol import PACE, Msg
from test_server_protocol import new_table as protocol_table
from test_server_restart import Server, db_args  # noqa: F401  (db_args: the fixture, SQLite then PostgreSQL)
from waits import PATIENCE, until_sync

FORWARD = ("kick", "ready", "play", "loot", "end", "run", "refuse", "accept", "take", "choose", "pass")


@pytest.fixture
def clock() -> ManualClock:
    """The tables' clock: it moves only when the test moves it."""
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'talk.db'}", clock=clock)) as c:
        yield c


def new_table(client: TestClient, kinds: list[str], **extra: Any) -> Msg:
    """A table for talk: seats named Ann, Bob, Cy, ..., bots of the lobby's default strength."""
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    return protocol_table(client, kinds, names=names, strength=None, **{"name": "talk", **extra})


def seat_socket(client: TestClient, created: Msg, seat: int) -> Any:
    link = next(x for x in created["links"] if x["seat"] == seat)
    return client.websocket_connect(f"/ws/{created['table']['id']}?token={link['url'].split('token=')[1]}")


def watch(client: TestClient, created: Msg) -> Any:
    return client.websocket_connect(f"/ws/{created['table']['id']}")


class Ear:
    """A socket and everything it was sent: each message's raw text, and the chat lines in order."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.raw: list[str] = []
        self.lines: list[Msg] = []
        self.last: Msg = {}

    def next(self) -> Msg:
        text = self.ws.receive_text()
        self.raw.append(text)
        m: Msg = json.loads(text)
        if m["type"] == "state":
            self.lines += m["chat"]
            self.last = m
        return m

    def until(self, pred: Callable[[Msg], bool], limit: int = 500) -> Msg:
        for _ in range(limit):
            m = self.next()
            if pred(m):
                return m
        raise AssertionError("the expected message never came")

    def hears(self, text: str) -> Msg:
        """Read on until a chat line with this text has come; that line."""
        self.until(lambda m: m["type"] == "state" and any(x["text"] == text for x in m["chat"]))
        return next(x for x in self.lines if x["text"] == text)

    def refused(self, words: str) -> Msg:
        m = self.until(lambda m: m["type"] == "error")
        assert words in m["error"], m["error"]
        return m

    def say(self, text: str | None = None, **more: Any) -> None:
        msg: Msg = {"type": "say", **more}
        if text is not None:
            msg["text"] = text
        self.ws.send_text(json.dumps(msg))

    def heard_anywhere(self, marker: str) -> bool:
        return any(marker in t for t in self.raw)


def test_people_and_spectators_talk_and_a_whisper_reaches_only_its_two_seats(client: TestClient) -> None:
    created = new_table(client, ["human", "human", "human", "bot"])
    with (
        seat_socket(client, created, 0) as a,
        seat_socket(client, created, 1) as b,
        seat_socket(client, created, 2) as c,
        watch(client, created) as w,
    ):
        ann, bob, cy, spec = Ear(a), Ear(b), Ear(c), Ear(w)
        hello = spec.next()
        assert hello["type"] == "hello" and hello["chat_name"] == "Spectator 1" and hello["chat"] is True
        assert ann.next()["chat_name"] is None
        ann.say("  Hello,   table!  ")
        for ear in (ann, bob, cy, spec):
            line = ear.hears("Hello, table!")
            assert line["from"] == 0 and line["name"] == "Ann" and line["to"] is None
            assert line["spectator"] is False and line["phrase"] is None and line["cards"] == []
            assert isinstance(line["at"], float) and line["n"] == 0
        marker = "w-7f3a1c-only-for-bob"
        ann.say(marker, to=1)
        assert bob.hears(marker)["to"] == 1
        assert ann.hears(marker)["from"] == 0
        ann.say("after the whisper")  # lines go out in order: whoever has this one would have had the whisper
        spec.say("a spectator cheers")
        for ear in (cy, spec):
            ear.hears("after the whisper")
            ear.hears("a spectator cheers")
            assert not ear.heard_anywhere(marker), "a whisper reached a third seat or a spectator"
        cheer = bob.hears("a spectator cheers")
        assert cheer["spectator"] is True and cheer["from"] is None and cheer["name"] == "Spectator 1"
        # a quick phrase without a move, whispered
        cy.say(phrase="dont_curse", to=0)
        assert ann.hears("Don't curse me!")["phrase"] == "dont_curse"
        cy.hears("Don't curse me!")
    # a reconnecting seat gets the history it may read, and only that
    with seat_socket(client, created, 2) as c, seat_socket(client, created, 1) as b:
        cy, bob = Ear(c), Ear(b)
        cy.until(lambda m: m["type"] == "state")
        assert [x["text"] for x in cy.lines] == [
            "Hello, table!",
            "after the whisper",
            "a spectator cheers",
            "Don't curse me!",
        ]
        bob.until(lambda m: m["type"] == "state")
        assert marker in [x["text"] for x in bob.lines] and "Don't curse me!" not in [x["text"] for x in bob.lines]


@pytest.mark.parametrize(
    "msg,words",
    [
        ({"text": ""}, "may not be empty"),
        ({"text": "   "}, "may not be empty"),
        ({"text": "x" * (CHAT_MAX_CHARS + 1)}, f"at most {CHAT_MAX_CHARS} characters"),
        ({"text": "hi\u202eevil"}, "U+202E (a text-direction control)"),
        ({"text": "a\u200bb"}, "U+200B (an invisible character)"),
        ({"text": "line\nbreak"}, "U+000A (a control character)"),
        ({"text": "z" + "\u0301" * 9}, "accents"),
        ({"text": 5}, '"text"'),
        ({}, '"text"'),
        ({"text": "hi", "to": 0}, "cannot whisper to yourself"),
        ({"text": "hi", "to": 2}, "Cy's seat is a bot's: bots do not read chat"),
        ({"text": "hi", "to": 9}, "the number of a seat, 0 to 2"),
        ({"text": "hi", "to": "Bob"}, "the number of a seat"),
        ({"phrase": "insult"}, "no quick phrase 'insult'"),
        ({"phrase": "thanks", "text": "x"}, "not both"),
        ({"text": "hi", "action": "kick open the door", "version": 1}, '"action" goes only with'),
        ({"phrase": "help_for"}, 'send "action"'),
        ({"phrase": "help_for", "action": "ask Bob for help", "version": 0, "to": 1}, "not whispered"),
    ],
)
def test_a_bad_line_is_refused_with_why_and_nothing_is_said(client: TestClient, msg: Msg, words: str) -> None:
    created = new_table(client, ["human", "human", "bot"])
    with seat_socket(client, created, 0) as a, seat_socket(client, created, 1) as b:
        ann, bob = Ear(a), Ear(b)
        ann.say(**msg)
        m = ann.refused(words)
        assert m["about"] == "say"
        ann.say("the next line")
        assert bob.hears("the next line")["n"] == 0, "the refused line was said"


def test_spectators_cannot_whisper_or_make_moves(client: TestClient) -> None:
    created = new_table(client, ["human", "human", "bot"])
    with watch(client, created) as w:
        spec = Ear(w)
        spec.say("psst", to=0)
        spec.refused("spectators cannot whisper")
        spec.say(phrase="help_me", action="ask Ann for help", version=0)
        spec.refused("spectators cannot make moves")


def test_free_text_keeps_to_the_rules_names_follow_but_emoji_may_join() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean_text(f"gg {family} Élodie", "a line", 300) == f"gg {family} Élodie"
    with pytest.raises(ValueError, match="U\\+200D"):
        clean_text("a\u200db", "a line", 300)  # a joiner between letters hides nothing good
    assert clean_text("e\u0301\u0301", "a line", 300) == "é\u0301"  # NFC, two accents stacked: fine


def test_a_flood_is_refused_saying_how_long_to_wait_per_seat_and_per_spectator_address(
    client: TestClient, clock: ManualClock
) -> None:
    created = new_table(client, ["human", "human", "bot"])
    with seat_socket(client, created, 0) as a, seat_socket(client, created, 1) as b:
        ann, bob = Ear(a), Ear(b)
        for i in range(CHAT_LINES):
            ann.say(f"line {i}")
        ann.say("one too many")
        m = ann.refused("slow down: wait 10 s")  # the clock stands: all 10 seconds are still to wait
        assert m["wait"] == CHAT_SECONDS == 10
        assert m["error"].endswith(f"(at most {CHAT_LINES} lines in 10 seconds)")
        bob.say("Bob may still talk")  # the limit is Ann's alone
        bob.hears("Bob may still talk")
        assert "one too many" not in [x["text"] for x in bob.lines]
        clock.advance(9.5)
        ann.say("still too soon")
        assert ann.refused("slow down: wait 1 s")["wait"] == pytest.approx(0.5)
        clock.advance(0.5)  # ten seconds after her first line: a place is free again
        ann.say("Ann may talk again")
        assert bob.hears("Ann may talk again")["from"] == 0
        assert "still too soon" not in [x["text"] for x in bob.lines]
    # two spectators from one address share its limit
    with watch(client, created) as w1, watch(client, created) as w2:
        one, two = Ear(w1), Ear(w2)
        for i in range(3):
            one.say(f"s1 {i}")
        for i in range(2):
            two.say(f"s2 {i}")
        two.say("s2 again")
        two.refused("slow down")


def test_the_rate_limit_frees_a_place_as_lines_age() -> None:
    now = [100.0]
    talk = Talk(lines=2, seconds=10, clock=lambda: now[0])
    talk.take("seat 0")
    now[0] += 4
    talk.take("seat 0")
    assert talk.wait("seat 0") == pytest.approx(6)
    assert talk.wait("seat 1") == 0
    now[0] += 6
    assert talk.wait("seat 0") == 0


def test_chat_off_and_spectators_kept_to_themselves(client: TestClient) -> None:
    off = new_table(client, ["human", "human", "bot"], chat=False)
    assert off["table"]["chat"] is False and off["table"]["spectator_chat"] is True
    with seat_socket(client, off, 0) as a:
        ann = Ear(a)
        assert ann.next()["chat"] is False  # the hello says so
        ann.say("anyone?")
        ann.refused("chat is turned off at this table")
        ann.say(phrase="good_game")
        ann.refused("chat is turned off")
    apart = new_table(client, ["human", "human", "bot"], spectator_chat=False)
    assert client.get(f"/api/tables/{apart['table']['id']}").json()["spectator_chat"] is False
    with seat_socket(client, apart, 0) as a, watch(client, apart) as w1, watch(client, apart) as w2:
        ann, one, two = Ear(a), Ear(w1), Ear(w2)
        one.say("spectators-only aside")
        two.hears("spectators-only aside")
        ann.say("people's line")
        one.hears("people's line")  # spectators read the people either way
        ann.hears("people's line")
        assert not ann.heard_anywhere("spectators-only aside")
    r = client.post("/api/tables", json={"seats": [{"name": n, "kind": "bot"} for n in "ABC"], "chat": "yes"})
    assert r.status_code == 422 and "chat: must be true or false" in r.json()["detail"]


def runner(client: TestClient, table_id: str) -> TableRunner:
    r: TableRunner = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    return r


def play_until(ear: Ear, want: Callable[[Msg], Msg | None], clock: ManualClock, turns: int = 400) -> tuple[Msg, Msg]:
    """Play a person's seat forward until `want(action)` picks one of its answers; that action and the state.
    The clock moves by a person's pace before each move (the message bucket refills one message in it)."""
    for _ in range(turns):
        m = ear.until(lambda m: m["type"] == "state" and bool(m["actions"]) and not m["view"]["over"])
        answers = [a for a in m["actions"] if not a["any_time"]]
        found = next((a for a in answers if want(a)), None)
        if found is not None:
            return found, m
        if not answers:
            continue
        acts = [a["text"] for a in answers]
        pick = next((a for w in FORWARD for a in acts if a.startswith(w)), acts[0])
        clock.advance(PACE)  # a person's pace: a flood of moves is throttled
        ear.ws.send_text(json.dumps({"type": "act", "action": pick, "version": m["version"]}))
    raise AssertionError("the move wanted never came")


def test_a_help_request_as_a_quick_phrase_is_the_move_and_a_bot_answers_it(
    client: TestClient, clock: ManualClock
) -> None:
    created = new_table(client, ["human", "bot", "bot"], seed=3)
    tid = created["table"]["id"]
    r = runner(client, tid)
    with seat_socket(client, created, 0) as a:
        ann = Ear(a)
        ask, state = play_until(ann, lambda x: x["kind"] == "ask" and "treasure" in x["text"], clock)
        plain = next(x for x in state["actions"] if x["kind"] == "ask" and "offering" not in x["text"])

        def refused_now(words: str, **msg: Any) -> None:
            """Sent with the game's version as it is now (a bot may act at any time meanwhile)."""
            for _ in range(20):
                ann.say(**msg, version=r.game.version)
                m = ann.until(lambda m: m["type"] == "error")
                if not m["error"].startswith("stale action"):
                    assert words in m["error"], m["error"]
                    return
            raise AssertionError("the game kept moving")

        ann.say(phrase="help_for", action=ask["text"], version=-1)
        ann.refused("stale action")
        # a move of another kind, or the other phrase's: refused, nothing said
        refused_now("goes with asking for help", phrase="help_for", action="pass")
        refused_now("an offer goes with help_for", phrase="help_me", action=ask["text"])
        refused_now("offering nothing goes with help_me", phrase="help_for", action=plain["text"])
        assert r.chat_count == 0 and not any(e[0] == "ask" for e in r.game.events)
        version = r.game.version
        ann.say(phrase="help_for", action=ask["text"], version=version)
        helper = ask["text"].split(" ")[1]
        n = ask["text"].split("offering ")[1].split(" ")[0]
        line = ann.until(lambda m: m["type"] == "state" and bool(m["chat"]))["chat"][0]
        assert line["phrase"] == "help_for" and line["text"].startswith(f"{helper}, help me for {n} Treasure")
        assert line["cards"] == []
        asked = [e for e in r.game.events if e[0] == "ask"]
        assert asked, "the phrase's move was not taken"
        # the bot answered as it answers the move: it helps or refuses
        ask_at = next(i for i, e in enumerate(r.game.events) if e[0] == "ask")
        until_sync(
            lambda: any(e[0] in ("help", "refuse") for e in r.game.events[ask_at:]),
            "the bot answering the help request",
        )


def test_give_not_help_is_the_gift_of_an_item_in_play(client: TestClient, clock: ManualClock) -> None:
    created = new_table(client, ["human", "bot", "bot"], seed=5)
    r = runner(client, created["table"]["id"])
    with seat_socket(client, created, 0) as a:
        ann = Ear(a)

        def gift(x: Msg) -> Msg | None:
            return x if x["kind"] == "give" and x["text"].endswith(" to Bob") else None

        found = None
        for _ in range(400):
            m = ann.until(lambda m: m["type"] == "state" and bool(m["actions"]) and not m["view"]["over"])
            found = next((x for x in m["actions"] if gift(x)), None)
            if found is not None:
                break
            answers = [x["text"] for x in m["actions"] if not x["any_time"]]
            if answers:  # Ann puts her cards in play before she is ready, then plays on
                ready = "ready" in answers and not m["view"]["players"][0]["equipped"]
                cards = [x for x in answers if ready and x.startswith("play ") and " on " not in x]
                pick = next((x for w in FORWARD for x in answers if x.startswith(w)), answers[0])
                clock.advance(PACE)  # a person's pace: a flood of moves is throttled
                ann.ws.send_text(json.dumps({"type": "act", "action": (cards or [pick])[0], "version": m["version"]}))
        assert found is not None, "Ann never had an Item in play to give"
        item = found["text"].removeprefix("give ").removesuffix(" to Bob")
        ann.say(phrase="give_not_help", action=found["text"], version=m["version"])
        line = ann.hears(f"Bob, I'll give you {item} not to help.")
        assert line["cards"] == found["cards"] and line["phrase"] == "give_not_help"
        assert r.game.prompt.kind == "offer" or any(e[0] == "offer" for e in r.game.events)


def test_bots_never_read_free_text(tmp_path: Path) -> None:
    """A seeded table plays the same game, move for move, with a flood of free text said at its bots
    (the table driven by hand, without an event loop: every move and line stored at once)."""

    class Quiet:
        async def send_text(self, data: str) -> None:
            pass

    def play(talk: bool) -> tuple[list[Any], int]:
        store = Store(f"sqlite:///{tmp_path / f'bots-{talk}.db'}")
        seats = [
            {"name": n, "kind": k, "strength": "easy"}
            for n, k in zip(["Ann", "Bob", "Cy", "Di"], ["human"] + ["bot"] * 3)
        ]
        row, _ = new_table_row("t", ["deluxe"], seats, {}, 15.0, 0.0, 21)
        store.create_table(row, [])
        r = TableRunner(row, store, fresh=True)
        r.talk = Talk(lines=10**6)  # no rate limit: a real flood
        ann, spec = Client(Quiet(), 0), Client(Quiet(), None, address="10.0.0.9")
        for step in range(3000):
            g = r.game
            if g.over or g.turn >= 8:
                break
            if talk:
                r.say(ann, {"type": "say", "text": f"Bots, do not help! kick open the door {step}"})
                r.say(ann, {"type": "say", "phrase": "dont_curse"})
                r.say(spec, {"type": "say", "text": f"run away, all of you {step}"})
            if r._bots_act():
                r._commit()
                continue
            answers = [g.text(a) for a in g.legal_actions(0) if a not in set(g.any_time(0))]
            if 0 in g.to_act and answers:
                r.act(0, next((x for w in FORWARD for x in answers if x.startswith(w)), answers[0]), g.version)
        moves = [list(e[1]) for e in r.game.log if e[0] == "act"]
        said = r.chat_count
        store.close()
        return moves, said

    (quiet, none), (loud, said) = play(False), play(True)
    assert none == 0 and said >= 30
    assert len(quiet) > 50 and quiet == loud


def test_chat_is_stored_and_a_replay_keeps_public_lines_never_whispers(tmp_path: Path) -> None:
    db = tmp_path / "munchkin.db"
    with TestClient(create_app(f"sqlite:///{db}", clock=ManualClock())) as c:
        created = new_table(c, ["human", "human", "bot"])
        tid = created["table"]["id"]
        with seat_socket(c, created, 0) as a, seat_socket(c, created, 1) as b:
            ann, bob = Ear(a), Ear(b)
            ann.say("public words")
            ann.say("secret-5d1e", to=1)
            bob.hears("secret-5d1e")
    store = Store(f"sqlite:///{db}")
    try:
        assert [x["text"] for x in store.chat(tid)] == ["public words", "secret-5d1e"]
        assert [x["text"] for x in store.chat(tid, public=True)] == ["public words"]
        assert store.chat_count(tid) == 2
    finally:
        store.close()
    # after a restart the table has its chat, and counts on from it
    with TestClient(create_app(f"sqlite:///{db}", clock=ManualClock())) as c, seat_socket(c, created, 1) as b:
        bob = Ear(b)
        bob.until(lambda m: m["type"] == "state")
        assert [x["text"] for x in bob.lines] == ["public words", "secret-5d1e"]
        bob.say("after the restart")
        assert bob.hears("after the restart")["n"] == 2


def test_with_chat_adds_the_public_lines_to_a_save() -> None:
    from munchkin.server.hub import with_chat

    line = {"n": 0, "text": "gg", "to": None}
    assert json.loads(with_chat(b'{"format": "munchkin-game/1"}\n', [line]))["chat"] == [line]
    assert with_chat(b'{"a": 1}', []) == b'{"a": 1}'


def test_every_phrase_has_words() -> None:
    assert {"help_for", "give_not_help", "dont_curse", "good_game"} <= set(PHRASES)
    assert all(p.words.strip() for p in PHRASES.values())


def test_chat_survives_a_killed_server_on_sqlite_and_postgresql(db_args: list[str], tmp_path: Path) -> None:  # noqa: F811
    """SIGKILL mid-talk, start again: every line said (and stored before it was shown) comes back, to
    those who may read it, and the table counts on from it."""
    server = Server(db_args, tmp_path / "server.log")
    server.start()
    try:
        seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}, {"name": "Cy", "kind": "bot"}]
        created = server.post("/api/tables", {"name": "talk", "seats": seats, "seed": 4, "bot_delay": 0})
        tid = created["table"]["id"]
        tokens = {x["seat"]: x["url"].split("token=")[1] for x in created["links"]}

        def lines_of(ws: Any, until: str) -> list[Msg]:
            got: list[Msg] = []
            while not any(x["text"] == until for x in got):
                m = json.loads(ws.recv(timeout=PATIENCE))
                if m["type"] == "state":
                    got += m["chat"]
            return got

        with server.ws(tid, tokens[0]) as ann, server.ws(tid, tokens[1]) as bob:
            ann.send(json.dumps({"type": "say", "text": "before the crash"}))
            ann.send(json.dumps({"type": "say", "text": "whisper-9c2e", "to": 1}))
            lines_of(bob, "whisper-9c2e")
            server.kill()
        server.start()
        with server.ws(tid, tokens[1]) as bob, server.ws(tid) as spec:
            assert [x["text"] for x in lines_of(bob, "whisper-9c2e")] == ["before the crash", "whisper-9c2e"]
            seen = lines_of(spec, "before the crash")
            bob.send(json.dumps({"type": "say", "text": "after the crash"}))
            seen += lines_of(spec, "after the crash")
            assert [x["text"] for x in seen] == ["before the crash", "after the crash"]
            assert seen[-1]["n"] == 2
    finally:
        server.stop()


def test_talk_after_the_end_is_kept_and_in_the_replay(tmp_path: Path) -> None:
    """ "Good game!" is said after the game: at the finished table, and again at the same table brought back
    after a restart (a finished game is rebuilt for watchers); both lines are in the replay downloaded."""
    db = tmp_path / "munchkin.db"

    def replay_chat(c: TestClient, tid: str) -> list[str]:
        r = c.get(f"/api/tables/{tid}/replay")
        assert r.status_code == 200, r.text
        return [x["text"] for x in r.json().get("chat", [])]

    with TestClient(create_app(f"sqlite:///{db}", clock=ManualClock())) as c:
        created = new_table(c, ["bot", "bot", "bot"], seed=2)
        tid = created["table"]["id"]
        until_sync(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "over", "the bots' game ending", step=0.1)
        assert replay_chat(c, tid) == []
        with watch(c, created) as w:
            spec = Ear(w)
            spec.say(phrase="good_game")
            assert spec.hears("Good game!")["name"] == "Spectator 1"
        assert replay_chat(c, tid) == ["Good game!"]
    with TestClient(create_app(f"sqlite:///{db}", clock=ManualClock())) as c, watch(c, created) as w:
        spec = Ear(w)
        spec.until(lambda m: m["type"] == "state")
        assert [x["text"] for x in spec.lines] == ["Good game!"]
        spec.say("still here")
        line = spec.hears("still here")
        assert line["n"] == 1 and line["name"] == "Spectator 2"  # numbered anew after a restart
        assert replay_chat(c, tid) == ["Good game!", "still here"]


def test_a_damaged_stored_line_is_left_out_and_the_rest_come_back(tmp_path: Path) -> None:
    from sqlalchemy import insert

    from munchkin.server.store import chat_t

    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        good = {"n": 0, "at": 1.0, "from": 0, "name": "Ann", "spectator": False, "to": None}
        store.add_chat("t1", {**good, "text": "fine", "phrase": None, "cards": []})
        with store.engine.begin() as conn:
            conn.execute(insert(chat_t).values(table_id="t1", n=1, line='{"n": 1, "text": "no keys"}', whisper=0))
            conn.execute(insert(chat_t).values(table_id="t1", n=2, line="not json", whisper=0))
        assert [x["text"] for x in store.chat("t1")] == ["fine"]
        assert store.chat_count("t1") == 3, "the next line does not reuse a damaged line's number"
    finally:
        store.close()
