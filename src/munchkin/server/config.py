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
    max_body_bytes: int = 16_384  # an HTTP request body longer than this is refused before it is read
    # expiry of unfinished tables nobody is at: never joined by a person, or idle with people who left
    expire_unjoined_minutes: float = 30.0
    expire_idle_hours: float = 24.0
    expiry_sweep_seconds: float = 60.0  # how often the server looks for expired tables
    replays_per_second: float = 20.0  # replay downloads served a second, server-wide (0 = no limit)
    page_size: int = 20  # tables in one page of GET /api/tables (a client may ask for up to MAX_PAGE)


MAX_PAGE = 100
