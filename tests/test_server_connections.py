"""The server's connection limits, against a real `munchkin serve` on loopback: idle, half-sent and
slow connections are closed, one address cannot hold more than its share of connections or
WebSockets, a table's spectators are capped, a client that never reads is cut off, and all the
while a client from another address is served. Loopback has many addresses (127.0.0.x): the
attacker and the innocent client each bind their own."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from munchkin.server.connections import address_key
from system import free_port

ATTACKER, INNOCENT, OTHERS = "127.0.0.1", "127.0.0.2", "127.0.0.{}"
PER_ADDRESS = 20  # connections one address may hold, as the server below is started
TIMEOUT = 1.0  # its header, body and write timeouts, in seconds
SOCKETS_PER_ADDRESS = 4
SPECTATORS = 3
REQUESTS_PER_SECOND = 100  # so that the tests' own bursts of connections stay within it
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
        deadline = time.monotonic() + 120  # a busy machine may take a while to import and start
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
        self.proc.wait()

    def get(self, path: str, source: str = INNOCENT) -> Any:
        """GET from a given loopback address, by hand (urllib cannot choose its source address)."""
        status, body = self.request(f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode(), source)
        assert status == 200, (status, body)
        return json.loads(body)

    def request(self, raw: bytes, source: str = INNOCENT) -> tuple[int, bytes]:
        with self.open(source) as s:
            s.sendall(raw)
            return read_response(s)

    def open(self, source: str) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(source, 0))
        return s

    def new_table(self, kinds: list[str], **extra: Any) -> Msg:
        seats = [{"name": f"P{i}", "kind": k} for i, k in enumerate(kinds)]
        body = json.dumps({"name": "t", "seats": seats, "bot_delay": 0, **extra}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/tables", data=body, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            out: Msg = json.loads(r.read())
            return out

    def ws(self, path: str, source: str) -> ClientConnection:
        sock = self.open(source)
        return connect(f"ws://127.0.0.1:{self.port}{path}", sock=sock, open_timeout=10, close_timeout=1)


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


def test_an_address_holds_a_bounded_number_of_connections_and_idle_ones_close(server: Server) -> None:
    held = [server.open(ATTACKER) for _ in range(PER_ADDRESS)]
    time.sleep(0.2)  # the server has accepted them all
    over = [server.open(ATTACKER) for _ in range(5)]
    for s in over:  # past the cap: a 503 that says which cap, and the connection closes
        s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
        status, body = read_response(s)
        assert status == 503 and "too many connections from your address" in json.loads(body)["detail"]
        s.close()
    assert server.get("/api/sets"), "another address is served meanwhile"
    start = time.monotonic()
    results = [closed_within(s, 10 * TIMEOUT) for s in held]
    assert all(closed for closed, _ in results), "an idle connection stayed open"
    assert time.monotonic() - start < 5 * TIMEOUT
    assert all(b" 408 " in first.split(b"\r\n")[0] for _, first in results), results[0]
    for s in held:
        s.close()
    time.sleep(0.2)
    again = [server.open(ATTACKER) for _ in range(PER_ADDRESS)]  # the closed ones no longer count
    for s in again[:3]:
        s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert read_response(s)[0] == 200
    for s in again:
        s.close()


def test_half_sent_headers_and_a_slow_body_are_answered_408_and_closed(server: Server) -> None:
    slow_head = server.open(OTHERS.format(3))
    slow_head.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\nX-Slow: ")
    slow_body = server.open(OTHERS.format(4))
    slow_body.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"
    )
    for s, words in ((slow_head, b"headers must arrive within"), (slow_body, b"body must arrive within")):
        closed, got = closed_within(s, 10 * TIMEOUT)
        assert closed and got.startswith(b"HTTP/1.1 408") and words in got, got
        s.close()
    assert server.get("/api/sets")


def test_one_trickle_of_bytes_does_not_keep_headers_open(server: Server) -> None:
    s = server.open(OTHERS.format(5))
    s.sendall(b"GET /api/sets HTTP/1.1\r\n")
    start = time.monotonic()
    for _ in range(int(6 * TIMEOUT / 0.2)):  # a byte every 0.2 s: never idle, never done
        try:
            s.sendall(b"X")
        except OSError:
            break
        time.sleep(0.2)
    closed, got = closed_within(s, 10 * TIMEOUT)
    assert closed and time.monotonic() - start < 8 * TIMEOUT and got.startswith(b"HTTP/1.1 408"), got
    s.close()


def test_websockets_are_capped_per_address_and_spectators_per_table(server: Server) -> None:
    with contextlib.ExitStack() as open_sockets:

        def ws(table: str, source: str) -> ClientConnection:
            return open_sockets.enter_context(server.ws(f"/ws/{table}", source))

        tid = server.new_table(["human", "bot", "bot"])["table"]["id"]
        mine = [ws(tid, OTHERS.format(10 + i)) for i in range(SPECTATORS)]
        for w in mine:
            assert json.loads(w.recv(timeout=10))["type"] == "hello"
        late = ws(tid, OTHERS.format(20))
        msg = json.loads(late.recv(timeout=10))
        assert msg["type"] == "error" and "as many spectators as it may (3)" in msg["error"]
        with pytest.raises(ConnectionClosed) as closed:
            late.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        for w in mine:
            w.close()
        tables = [server.new_table(["human", "bot", "bot"])["table"]["id"] for _ in range(SOCKETS_PER_ADDRESS + 1)]
        held = [ws(t, OTHERS.format(30)) for t in tables[:SOCKETS_PER_ADDRESS]]
        for w in held:
            assert json.loads(w.recv(timeout=10))["type"] == "hello"
        extra = ws(tables[-1], OTHERS.format(30))
        msg = json.loads(extra.recv(timeout=10))
        assert msg["type"] == "error" and f"at most {SOCKETS_PER_ADDRESS} at once" in msg["error"]
        other = ws(tables[-1], OTHERS.format(31))
        assert json.loads(other.recv(timeout=10))["type"] == "hello", "another address still connects"


def test_a_client_that_never_reads_is_cut_off(server: Server) -> None:
    """A spectator of a busy bot table that reads nothing: once the server's buffer for it is full and
    stays full for the write timeout, the connection is cut, and the server serves on."""
    # six bots taking their time: the game goes on, and its state keeps coming, for the whole test
    tid = server.new_table(["bot", "bot", "bot", "bot", "bot", "bot"], bot_delay=0.05)["table"]["id"]
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the server's writes back up
    sock.bind((OTHERS.format(40), 0))
    sock.connect(("127.0.0.1", server.port))
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    sock.sendall(
        f"GET /ws/{tid} HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    start = time.monotonic()
    deadline = start + 60
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


def test_a_flood_of_requests_from_one_address_is_answered_429_and_others_are_served(server: Server) -> None:
    """An address may send five seconds' worth of requests at once, then REQUESTS_PER_SECOND; past that
    each request is answered 429 before any of the app runs, and another address is served meanwhile."""
    burst = 5 * REQUESTS_PER_SECOND
    flood = OTHERS.format(50)
    statuses: dict[int, int] = {}
    started = time.monotonic()
    with server.open(flood) as s:
        for _ in range(2 * burst):  # one kept-alive connection, as fast as answers come
            s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
            status, body = read_response(s)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 429:
                assert "too many requests from your address" in json.loads(body)["detail"]
                break
    refilled = int((time.monotonic() - started) * REQUESTS_PER_SECOND) + 5  # earned while the flood ran
    assert statuses.get(429) == 1 and burst - 5 <= statuses.get(200, 0) <= burst + refilled, statuses
    assert server.get("/api/sets", source=OTHERS.format(51)), "another address is served"
    cut = 0
    for _ in range(20):  # the flood goes on with new connections: they are cut at once
        try:
            with server.open(flood) as s:
                s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
                status, _ = read_response(s)
                cut += status in (0, 429)
        except OSError:
            cut += 1
    assert cut >= 15, "new connections from a flooding address were served"
    assert "Traceback" not in server.log.read_text(), server.log.read_text()[-3000:]


def test_a_websocket_handshake_past_the_request_limit_is_refused_429(tmp_path: Path) -> None:
    """At one request a second (five at once): a connection and four requests take them all, and a
    WebSocket handshake next on the same connection is answered 429; nothing breaks in the server."""
    slow = Server(tmp_path, "--requests-per-second", "1")
    try:
        with slow.open(OTHERS.format(60)) as s:
            answers = []
            for _ in range(4):
                s.sendall(b"GET /api/sets HTTP/1.1\r\nHost: t\r\n\r\n")
                answers.append(read_response(s)[0])
            s.sendall(
                b"GET /ws/nothing HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            status, body = read_response(s)
        assert answers == [200] * 4 and status == 429, (answers, status)
        assert "too many requests from your address: at most 1 a second" in json.loads(body)["detail"]
        time.sleep(0.5)
        assert "Traceback" not in slow.log.read_text(), slow.log.read_text()[-3000:]
    finally:
        slow.stop()


def test_address_keys() -> None:
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2::ffff") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_key(None) == "unknown" and address_key("testclient") == "testclient"
