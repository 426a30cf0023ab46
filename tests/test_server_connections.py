"""The server's connection limits, against a real `munchkin serve` on loopback: idle, half-sent and
slow connections are closed, one address cannot hold more than its share of connections or
WebSockets, a table's spectators are capped, a client that never reads is cut off, and all the
while a client from another address is served. Loopback has many addresses (127.0.0.x): the
attacker and the innocent client each bind their own.

The server runs in a subprocess on the real clock, with timeouts of a second: a test that needs
something to happen before a timeout or a token's refill (connections held open while the cap is
tried, bytes that keep coming, requests faster than the rate) sees whether it did, and when the
machine was too slow to tell it tries again; what a server does after a timeout is waited for up to
PATIENCE. A request sent whole at once and answered 408 was not slow: the server was held up for the
whole timeout (a stalled machine), and the helpers below send it again."""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from munchkin.server.connections import address_key
from system import free_port
from waits import PATIENCE, until_sync

ATTACKER, INNOCENT, OTHERS = "127.0.0.1", "127.0.0.2", "127.0.0.{}"
PER_ADDRESS = 20  # connections one address may hold, as the server below is started
TIMEOUT = 1.0  # its header, body and write timeouts, in seconds
SOCKETS_PER_ADDRESS = 4
SPECTATORS = 3
REQUESTS_PER_SECOND = 100  # so that the tests' own bursts of connections stay within it
PACED = 1  # requests a second of the server that tests the request rate (five at once): a second to make them in
Msg = dict[str, Any]


class Server:
    """`munchkin serve` with small limits, on a free port."""

    def __init__(self, tmp: Path, *flags: str) -> None:
        self.port = free_port()
        self.log = tmp / "server.log"
        cmd = [sys.executable, "-c", "from munchkin.cli import app; app()", "serve", "--port", str(self.port)]
        cmd += ["--data", str(tmp / "data"), "--tables-per-minute", "0", "--max-live-tables-per-address", "0"]
        cmd += [
            "--max-connections-per-address",
            str(PER_ADDRESS),
            "--max-websockets-per-address",
            str(SOCKETS_PER_ADDRESS),
        ]
        cmd += ["--max-spectators-per-table", str(SPECTATORS), "--requests-per-second", str(REQUESTS_PER_SECOND)]
        cmd += ["--header-timeout", str(TIMEOUT), "--body-timeout", str(TIMEOUT), "--write-timeout", str(TIMEOUT)]
        cmd += flags  # the last of a flag given twice counts
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + PATIENCE  # a busy machine may take a while to import and start
        while True:
            try:
                self.get("/api/sets")
                return
            except OSError:
                done = self.proc.poll() is not None or time.monotonic() > deadline
                assert not done, f"the server did not start: {self.log.read_text()[-2000:]}"
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=PATIENCE)

    def get(self, path: str, source: str = INNOCENT) -> Any:
        """GET from a given loopback address, by hand (urllib cannot choose its source address)."""
        status, body = self.request(f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode(), source)
        assert status == 200, (status, body)
        return json.loads(body)

    def request(self, raw: bytes, source: str = INNOCENT) -> tuple[int, bytes]:
        """One request, sent whole at once (sent again if the server was held up past its timeouts)."""
        give_up = time.monotonic() + PATIENCE
        while True:
            with self.open(source) as s:
                s.sendall(raw)
                status, body = read_response(s)
            if status != 408 or time.monotonic() > give_up:
                return status, body

    def open(self, source: str) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=PATIENCE, source_address=(source, 0))
        return s

    def new_table(self, kinds: list[str], **extra: Any) -> Msg:
        seats = [{"name": f"P{i}", "kind": k} for i, k in enumerate(kinds)]
        body = json.dumps({"name": "t", "seats": seats, "bot_delay": 0, **extra}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/tables", data=body, headers={"content-type": "application/json"}
        )
        give_up = time.monotonic() + PATIENCE
        while True:
            try:
                with urllib.request.urlopen(req, timeout=PATIENCE) as r:
                    out: Msg = json.loads(r.read())
                    return out
            except urllib.error.HTTPError as exc:  # 408: sent again, as in `request`
                if exc.code != 408 or time.monotonic() > give_up:
                    raise

    def ws(self, path: str, source: str) -> ClientConnection:
        give_up = time.monotonic() + PATIENCE
        while True:
            sock = self.open(source)
            try:
                return connect(f"ws://127.0.0.1:{self.port}{path}", sock=sock, open_timeout=PATIENCE, close_timeout=1)
            except InvalidStatus as exc:  # 408: the handshake is sent again, as in `request`
                sock.close()
                if exc.response.status_code != 408 or time.monotonic() > give_up:
                    raise


def read_response(s: socket.socket) -> tuple[int, bytes]:
    """Read one response to its end (the server closes or says its length); (0, b"") if closed at once."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return (0, data) if not data else (int(data.split()[1]), b"")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")), None
    )
    while length is not None and len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(head.split()[1]), body


def closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes this socket within `seconds`; and what it sent first."""
    s.settimeout(seconds)
    got = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return True, got
            got += chunk
    except TimeoutError:
        return False, got
    except ConnectionResetError:
        return True, got


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("connections"))
    yield s
    s.stop()


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that lets an address make PACED requests a second: a flood outruns it even on a busy machine.
    Its other timeouts are long: no request of these tests is slow, and none is sent twice (each takes a token)."""
    long = str(PATIENCE)
    flags = ["--header-timeout", long, "--body-timeout", long, "--write-timeout", long]
    s = Server(tmp_path_factory.mktemp("paced"), "--requests-per-second", str(PACED), *flags)
    yield s
    s.stop()


def test_an_address_holds_a_bounded_number_of_connections_and_idle_ones_close(server: Server) -> None:
    give_up = time.monotonic() + PATIENCE
    for attempt in itertools.count():
        source = ATTACKER if attempt == 0 else OTHERS.format(100 + attempt)  # a new address: none of its own open
        began = time.monotonic()
        held = [server.open(source) for _ in range(PER_ADDRESS)]  # accepted, and counted, in the order opened
        answers = []
        for s in [server.open(source) for _ in range(5)]:
            s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
            answers.append(read_response(s))
            s.close()
        if time.monotonic() - began < TIMEOUT:  # no held connection has been open for the header timeout yet
            break
        for s in held:  # too slow to tell (an idle one may have been closed before the others came): again
            s.close()
        assert time.monotonic() < give_up, f"never opened {PER_ADDRESS + 5} connections within {TIMEOUT} s"
    for status, body in answers:  # past the cap: a 503 that says which cap, and the connection closes
        assert status == 503 and "too many connections from your address" in json.loads(body)["detail"]
    assert server.get("/api/sets"), "another address is served meanwhile"
    start = time.monotonic()
    results = [closed_within(s, PATIENCE) for s in held]
    assert all(closed for closed, _ in results), "an idle connection stayed open"
    assert time.monotonic() - start < PATIENCE
    assert all(b" 408 " in first.split(b"\r\n")[0] for _, first in results), results[0]
    assert all(b"headers must arrive within" in first for _, first in results), results[0]
    for s in held:
        s.close()

    def served_again() -> bool:
        """The closed ones no longer count: as many connections again, and the first and the last are served."""
        again = [server.open(source) for _ in range(PER_ADDRESS)]
        try:
            for s in (*again[:3], again[-1]):
                s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            return all(read_response(s)[0] == 200 for s in (*again[:3], again[-1]))
        finally:
            for s in again:
                s.close()

    # (a second between tries, for the address's request rate to refill)
    until_sync(served_again, "connections from an address whose idle ones were closed served again", step=1.0)


def test_half_sent_headers_and_a_slow_body_are_answered_408_and_closed(server: Server) -> None:
    def slow_body() -> socket.socket:
        s = server.open(OTHERS.format(4))
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"
        )
        return s

    slow_head = server.open(OTHERS.format(3))
    slow_head.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\nX-Slow: ")
    give_up = time.monotonic() + PATIENCE
    for s, words in ((slow_head, b"headers must arrive within"), (slow_body(), b"body must arrive within")):
        closed, got = closed_within(s, PATIENCE)
        while words == b"body must arrive within" and b"headers must arrive" in got and time.monotonic() < give_up:
            # headers sent whole were not read within the header timeout: the server was held up, again
            s.close()
            s = slow_body()
            closed, got = closed_within(s, PATIENCE)
        assert closed and got.startswith(b"HTTP/1.1 408") and words in got, got
        s.close()
    assert server.get("/api/sets")


def test_one_trickle_of_bytes_does_not_keep_headers_open(server: Server) -> None:
    """Headers that come a byte at a time, never idle for the header timeout, are cut off all the same:
    the server closes the connection while the bytes still come."""
    give_up = time.monotonic() + PATIENCE
    while True:
        s = server.open(OTHERS.format(5))
        s.sendall(b"GET /api/sets HTTP/1.1\r\n")
        start = last = time.monotonic()
        longest = 0.0  # the longest the connection went without a byte, or without one before it was cut
        cut = False
        while not cut and time.monotonic() < give_up:  # a byte every 0.2 s: never idle, never done
            time.sleep(0.2)
            cut = _reset(s)
            if not cut:
                try:
                    s.sendall(b"X")
                except OSError:
                    cut = True
            now = time.monotonic()
            longest, last = max(longest, now - last), now
        if longest < TIMEOUT:  # never idle for the timeout: only the headers' own time can have cut it
            break
        s.close()  # the machine paused the trickle for as long as the timeout: that tells nothing, again
        assert time.monotonic() < give_up, f"never sent a byte every {TIMEOUT} s for {PATIENCE:.0f} s"
    assert cut, f"a trickle of bytes kept a request's headers open for {time.monotonic() - start:.0f} s"
    closed, got = closed_within(s, PATIENCE)
    assert closed and got.startswith(b"HTTP/1.1 408"), got
    s.close()


def test_websockets_are_capped_per_address_and_spectators_per_table(server: Server) -> None:
    with contextlib.ExitStack() as open_sockets:

        def ws(table: str, source: str) -> ClientConnection:
            return open_sockets.enter_context(server.ws(f"/ws/{table}", source))

        tid = server.new_table(["human", "bot", "bot"])["table"]["id"]
        mine = [ws(tid, OTHERS.format(10 + i)) for i in range(SPECTATORS)]
        for w in mine:
            assert json.loads(w.recv(timeout=PATIENCE))["type"] == "hello"
        late = ws(tid, OTHERS.format(20))
        msg = json.loads(late.recv(timeout=PATIENCE))
        assert msg["type"] == "error" and "as many spectators as it may (3)" in msg["error"]
        with pytest.raises(ConnectionClosed) as closed:
            late.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        for w in mine:
            w.close()
        tables = [server.new_table(["human", "bot", "bot"])["table"]["id"] for _ in range(SOCKETS_PER_ADDRESS + 1)]
        held = [ws(t, OTHERS.format(30)) for t in tables[:SOCKETS_PER_ADDRESS]]
        for w in held:
            assert json.loads(w.recv(timeout=PATIENCE))["type"] == "hello"
        extra = ws(tables[-1], OTHERS.format(30))
        msg = json.loads(extra.recv(timeout=PATIENCE))
        assert msg["type"] == "error" and f"at most {SOCKETS_PER_ADDRESS} at once" in msg["error"]
        other = ws(tables[-1], OTHERS.format(31))
        assert json.loads(other.recv(timeout=PATIENCE))["type"] == "hello", "another address still connects"


def test_a_client_that_never_reads_is_cut_off(server: Server) -> None:
    """A spectator of a busy bot table that reads nothing: once the server's buffer for it is full and
    stays full for the write timeout, the connection is cut, and the server serves on."""
    # six bots taking their time: the game goes on, and its state keeps coming, for the whole test
    tid = server.new_table(["bot", "bot", "bot", "bot", "bot", "bot"], bot_delay=0.05)["table"]["id"]
    give_up = time.monotonic() + PATIENCE
    while True:
        sock = socket.socket()
        sock.settimeout(PATIENCE)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the server's writes back up
        sock.bind((OTHERS.format(40), 0))
        sock.connect(("127.0.0.1", server.port))
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        sock.sendall(
            f"GET /ws/{tid} HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""  # the handshake's answer, a byte at a time: nothing of what follows it is read
        while not head.endswith(b"\r\n\r\n") and (byte := sock.recv(1)):
            head += byte
        if not head.startswith(b"HTTP/1.1 408") or time.monotonic() > give_up:
            break
        sock.close()  # a handshake sent whole, timed out: the server was held up (a stalled machine), again
    assert head.startswith(b"HTTP/1.1 101"), head
    deadline = time.monotonic() + PATIENCE
    cut = False
    while time.monotonic() < deadline:  # never read; only look whether the server has cut us off
        try:
            sock.send(b"")  # nothing; an error once the server has reset the connection
            time.sleep(0.5)
            if _reset(sock):
                cut = True
                break
        except OSError:
            cut = True
            break
    sock.close()
    assert cut, "a client that never reads was never cut off"
    assert server.get("/api/sets")


def _reset(sock: socket.socket) -> bool:
    """Has the peer reset or closed this connection? (Looks without reading what waits in the buffer.)"""
    import select

    info = sock.getsockopt(socket.SOL_TCP, socket.TCP_INFO, 1)
    state = info[0] if info else 1
    if state != 1:  # TCP_ESTABLISHED
        return True
    readable, _, errored = select.select([sock], [], [sock], 0)
    return bool(errored)


def test_a_flood_of_requests_from_one_address_is_answered_429_and_others_are_served(paced: Server) -> None:
    """An address may send five seconds' worth of requests at once, then PACED a second; past that each
    request is answered 429 before any of the app runs, and another address is served meanwhile. (At
    PACED a second, a flood outruns the refill as long as a request takes less than a second.)"""
    burst = 5 * PACED
    flood = OTHERS.format(50)
    statuses: dict[int, int] = {}
    started = time.monotonic()
    with paced.open(flood) as s:
        while 429 not in statuses:  # one kept-alive connection, as fast as answers come
            assert time.monotonic() - started < PATIENCE, f"no request refused in {PATIENCE:.0f} s: {statuses}"
            s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
            status, body = read_response(s)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 429:
                assert "too many requests from your address" in json.loads(body)["detail"]
    flooded = time.monotonic()
    refilled = int((flooded - started) * PACED) + 5  # earned while the flood ran
    # the connection took one of the burst, the requests the rest and whatever came back meanwhile
    assert statuses.get(429) == 1 and burst - 1 <= statuses.get(200, 0) <= burst + refilled, statuses
    assert paced.get("/api/sets", source=OTHERS.format(51)), "another address is served"
    cut = 0
    for _ in range(20):  # the flood goes on with new connections: they are cut at once
        try:
            with paced.open(flood) as s:
                s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
                status, _ = read_response(s)
                cut += status in (0, 429)
        except OSError:
            cut += 1
    earned = int((time.monotonic() - flooded) * PACED) + 1  # the tokens that came back meanwhile, at most
    assert cut >= 20 - earned, f"new connections from a flooding address were served: {20 - cut}, {earned} earned"
    assert "Traceback" not in paced.log.read_text(), paced.log.read_text()[-3000:]


def test_a_websocket_handshake_past_the_request_limit_is_refused_429(paced: Server) -> None:
    """At one request a second (five at once): a connection and four requests take them all, and a
    WebSocket handshake next on the same connection is answered 429; nothing breaks in the server."""
    assert PACED == 1
    give_up = time.monotonic() + PATIENCE
    for attempt in itertools.count():
        began = time.monotonic()
        with paced.open(OTHERS.format(60 + attempt)) as s:  # a new address: its bucket full
            answers = []
            for _ in range(4):
                s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
                answers.append(read_response(s)[0])
            s.sendall(
                b"GET /ws/nothing HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            status, body = read_response(s)
        if time.monotonic() - began < 1 / PACED:  # no token can have come back meanwhile: the answer tells
            break
        assert answers == [200] * 4, answers  # too slow to tell (a token came back before the handshake): again
        assert time.monotonic() < give_up, f"never made five requests within {1 / PACED:g} s"
    assert answers == [200] * 4 and status == 429, (answers, status)
    assert "too many requests from your address: at most 1 a second" in json.loads(body)["detail"]
    # a request after it is served (the server went on past the refused handshake), and nothing broke
    assert paced.get("/api/sets", source=OTHERS.format(59)), "the server serves on"
    assert "Traceback" not in paced.log.read_text(), paced.log.read_text()[-3000:]


def test_address_keys() -> None:
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2::ffff") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_key(None) == "unknown" and address_key("testclient") == "testclient"
