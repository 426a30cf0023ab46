"""Security headers on every HTTP response: the pages run only their own scripts and styles, may not
be framed by another site, are never content-sniffed, and never leak a seat's link as a Referer."""

from __future__ import annotations

import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# What the pages need and no more: scripts, styles and everything else from this server only (no
# inline script or style attribute), the blank favicon as a data: URL, the table's WebSocket on this host.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'{sockets}; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# A Host header fit to name in the policy: a name or address and a port, nothing that could end a directive.
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")

FIXED = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a seat's link carries its secret token in the URL
}


def policy(host: str) -> str:
    """The Content-Security-Policy for a request to `host`: 'self' plus that host's ws: and wss:
    (older browsers do not count a WebSocket to the page's own host as 'self')."""
    sockets = f" ws://{host} wss://{host}" if _HOST.match(host) else ""
    return POLICY.format(sockets=sockets)


class SecurityHeaders:
    """ASGI middleware: adds the Content-Security-Policy and the headers in FIXED to every HTTP
    response that does not set them itself; WebSockets pass through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        wanted = {"Content-Security-Policy": policy(host), **FIXED}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in wanted.items():
                    if name not in headers:
                        headers.append(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
