"""The server's limits and clocks, set by `munchkin serve`'s flags; the defaults suit a public server."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSettings:
    """Every limit the server enforces and every clock it keeps, in one place."""

    # table creation: a token bucket per client address and one for the whole server (0 = no limit)
    tables_per_minute: float = 10.0
    tables_per_minute_total: float = 60.0
    max_live_tables: int = 500  # unfinished tables held at once; more are refused until some end or expire
    max_live_tables_per_address: int = 10  # unfinished tables created from one IPv4 address or IPv6 /64 (0 = any)
    max_body_bytes: int = 16_384  # an HTTP request body longer than this is refused before it is read
    # expiry of unfinished tables nobody is at: never joined by a person, or idle with people who left
    expire_unjoined_minutes: float = 30.0
    expire_idle_hours: float = 24.0
    keep_finished_days: float = 30.0  # a finished game (its row, moves and replay) is deleted this long after it ended
    expiry_sweep_seconds: float = 60.0  # how often the server looks for expired tables
    replays_per_second: float = 20.0  # replay downloads served a second, server-wide (0 = no limit)
    page_size: int = 20  # tables in one page of GET /api/tables (a client may ask for up to MAX_PAGE)
    # connections (munchkin.server.connections): counted from accept to close, a WebSocket included
    max_connections: int = 4096  # in all (lowered to fit the process's open-files limit)
    max_connections_per_address: int = 64  # from one IPv4 address or IPv6 /64 (0 = no limit)
    requests_per_second: float = 20.0  # HTTP requests and new connections from one address (5 s worth at once)
    header_timeout: float = 10.0  # seconds to send a request's line and headers, from connecting or its first byte
    body_timeout: float = 30.0  # seconds to send a request's body once its headers are in
    write_timeout: float = 30.0  # seconds a client may leave the server's writes unread before it is cut off
    trusted_proxies: tuple[str, ...] = ()  # reverse proxies whose X-Forwarded-For names the client
    # WebSockets (the app's own counts, by the client address after any trusted proxy)
    max_websockets_per_address: int = 16  # 0 = no limit
    max_spectators_per_table: int = 50
    max_sockets_per_seat: int = 8  # one person's tabs and devices on one seat


MAX_PAGE = 100
# A WebSocket frame longer than this is not read: uvicorn closes the socket with code 1009 (message too big).
# Up to it, a message over clients.MAX_MESSAGE gets an error and the socket stays open.
MAX_FRAME = 65_536
