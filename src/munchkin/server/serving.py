"""How `munchkin serve` puts the table app on the network: its listening socket and its uvicorn server, built
here in one place so that a test serves the app exactly as the command does (on a clock the test moves)."""

from __future__ import annotations

import socket

import uvicorn

from munchkin.server.app import create_app
from munchkin.server.clock import Clock
from munchkin.server.config import MAX_FRAME, ServerSettings
from munchkin.server.connections import ConnectionCounts, guarded_protocols, raise_open_files_limit


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host` and `port` (0: a free port) for the server to listen on, bound before the
    server starts so that its starter knows at once whether it may listen there; raises OSError if not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def table_server(
    db_url: str, settings: ServerSettings, host: str, port: int, clock: Clock | None = None
) -> tuple[uvicorn.Server, int]:
    """The uvicorn server of the app over `db_url` (run it on a `listening_socket`), with the limits of
    `settings`: connections capped, slow clients cut off (`guarded_protocols`), frames up to MAX_FRAME,
    forwarded addresses only from its trusted proxies; its tables keep time by `clock` (None: the machine's).
    Also returns the most connections it holds at once (`settings` lowered to fit the open-files limit)."""
    counts = ConnectionCounts(lambda: settings, raise_open_files_limit())
    http, ws = guarded_protocols(counts)
    proxies = settings.trusted_proxies
    config = uvicorn.Config(
        create_app(db_url, settings, clock),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_FRAME,
        http=http,
        ws=ws,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(proxies) if proxies else None,
    )
    return uvicorn.Server(config), counts.max_total()
