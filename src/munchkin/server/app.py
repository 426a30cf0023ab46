"""The web app: lobby and table pages, the JSON API, and the WebSocket each seat plays through."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import math
import re
import secrets
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from munchkin.agents.registry import offered
from munchkin.engine.actions import MunchkinError
from munchkin.help import HelpNotFound, help_page, not_found_page
from munchkin.server.chat import ChatRefused
from munchkin.server.clients import MAX_MESSAGE, Client
from munchkin.server.clock import Clock
from munchkin.server.config import MAX_PAGE, ServerSettings
from munchkin.server.connections import address_key
from munchkin.server.guard import (
    BodyGuard,
    CreationLimits,
    Pacer,
    json_too_deep,
    live_reserve,
    retry_after,
    too_deep_message,
)
from munchkin.server.headers import SecurityHeaders
from munchkin.server.hub import Hub, available_sets
from munchkin.server.models import OptionsIn, SeatIn, TableIn, known_keys
from munchkin.server.pages import page_error_page, page_missing_page, table_missing_page
from munchkin.server.skeleton import prototypes
from munchkin.server.store import Store
from munchkin.server.tables import TableRunner

__all__ = ["Hub", "OptionsIn", "SeatIn", "TableIn", "create_app", "handle_message"]

log = logging.getLogger("munchkin.server")
MAX_ACTION_CHARS = 400  # an action's text (the longest in thousands of bot games: 103)
EXCERPT_CHARS = 60  # how much of a client's input an error quotes

STATIC = Path(str(resources.files("munchkin.server") / "static"))


def create_app(db_url: str, settings: ServerSettings | None = None, clock: Clock | None = None) -> FastAPI:
    """The app over one database; tables are restored when it starts. Its tables keep time by `clock`
    (the machine's; a test hands in a `ManualClock`), and so do its limits on creating tables."""
    settings = settings or ServerSettings()
    clock = clock or Clock()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(prototypes)  # the look-alike table, built once before any name is checked
        store = Store(db_url)
        hub = Hub(store, settings, clock)
        hub.load()
        hub.start()
        gc.freeze()  # the restored games are long-lived: keep full collections from walking them
        gc.set_threshold(10000, 10, 10)
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    # no /docs or /redoc: they load scripts from another site, which the pages' policy forbids, and
    # players need neither; /openapi.json stays, as the API is public and documented (docs/server.md)
    app = FastAPI(title="Munchkin", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyGuard, max_bytes=lambda: settings_of().max_body_bytes)
    app.add_middleware(SecurityHeaders)  # added last, so outermost: a 413 from BodyGuard gets the headers too
    limits = CreationLimits(lambda: settings_of(), clock=clock.monotonic)
    replay_pacer = Pacer(lambda: settings_of().replays_per_second)  # it only spaces downloads out: wall time

    def settings_of() -> ServerSettings:
        """The settings in force: the middleware and the rate limits read them here."""
        s: ServerSettings = app.state.settings
        return s

    def hub_of() -> Hub:
        hub: Hub = app.state.hub
        return hub

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/help", include_in_schema=False)
    @app.get("/help/{topic}", include_in_schema=False)
    def rules_help(topic: str = "") -> HTMLResponse:
        """The rules help: the index, an edition's (or a mix's: /help/star,deluxe) rules, the notation."""
        try:
            return HTMLResponse(help_page(topic))
        except HelpNotFound as exc:
            return HTMLResponse(not_found_page(str(exc)), status_code=404)

    @app.get("/table/{table_id}", include_in_schema=False, response_model=None)
    def table_page(table_id: str) -> FileResponse | HTMLResponse:
        """The table page; for a table that does not exist, a page saying so (a browser asked)."""
        try:
            hub_of().row(table_id)
        except HTTPException as exc:
            if exc.status_code != 404:
                raise
            return HTMLResponse(table_missing_page(table_id), status_code=404)
        return FileResponse(STATIC / "table.html")

    @app.get("/api/sets")
    async def sets() -> list[dict[str, str]]:
        return available_sets()

    @app.get("/api/bots")
    async def bots() -> list[dict[str, str]]:
        """The bot tiers a seat may take (docs/bots.md): label, the agent behind it, how it plays, its rating."""
        return offered()

    @app.get("/api/tables")
    async def tables(
        request: Request,
        status: Literal["all", "open", "playing", "over", "stopped"] = "all",
        limit: int = Query(default=settings.page_size, ge=1, le=MAX_PAGE),
        after: str | None = Query(default=None, max_length=80),
    ) -> Response:
        """One page of tables, newest first; an unchanged page answers 304 to the ETag it was sent with,
        before anything is made (the ETag counts the changes to what the lobby lists)."""
        hub = hub_of()
        tag = hub.etag(status, limit, after)
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(hub.page_body(status, limit, after), media_type="application/json", headers=headers)

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> dict[str, Any]:
        return hub_of().summary(table_id)

    @app.post("/api/tables", status_code=201)
    async def create(spec: TableIn, request: Request) -> dict[str, Any]:
        hub, cfg = hub_of(), settings_of()
        key = address_key(request.client.host if request.client else None)
        mine, live = hub.live_tables(key), hub.live_tables()
        if cfg.max_live_tables_per_address and mine >= cfg.max_live_tables_per_address:
            detail = (
                f"you have {mine} unfinished tables on this server, the most one address may hold: "
                "finish one or let it expire first"
            )
            raise HTTPException(429, detail, {"Retry-After": "60"})
        # the last tenth of the places (at least one) is kept for addresses that hold no table yet
        if live >= cfg.max_live_tables or (mine and live >= cfg.max_live_tables - live_reserve(cfg.max_live_tables)):
            detail = "the server is full: too many tables are being played; try again in a minute"
            raise HTTPException(503, detail, {"Retry-After": "60"})
        wait = limits.take(key)
        if wait > 0:
            detail = f"too many new tables: try again in {retry_after(wait)} seconds"
            raise HTTPException(429, detail, {"Retry-After": retry_after(wait)})
        device = secrets.token_urlsafe(18) if spec.pass_and_play else None
        runner, tokens = await hub.create(spec, key, device)
        links = [
            {"seat": s, "name": runner.row.seats[s].name, "url": f"/table/{runner.id}?seat={s}&token={t}"}
            for s, t in sorted(tokens.items())
        ]
        # a pass-and-play table's one link for the shared screen: every person seat, handed round
        device_url = None if device is None else f"/table/{runner.id}?device=1&token={device}"
        return {"table": runner.summary(), "links": links, "device": device_url, "watch": f"/table/{runner.id}"}

    card_catalogs: dict[tuple[str, ...], tuple[bytes, bytes, str]] = {}  # by the table's sets: body, gzipped, ETag

    @app.get("/api/tables/{table_id}/cards")
    async def cards(table_id: str, request: Request) -> Response:
        """Every card definition of the table's sets, by lower-case name: public (it says nothing about
        where any card is), made once per mix of sets in a worker thread, and cached by the browser."""
        import gzip

        from munchkin.cards.face import sets_catalog

        config = hub_of().row(table_id).config
        sets = tuple(config.get("sets") or ())
        versions = config.get("card_versions") or {s: 1 for s in sets}  # a table from before versions: the first
        key = (*sets, *(f"{s}@{versions.get(s, 1)}" for s in sets))
        hit = card_catalogs.get(key)
        if hit is None:
            made = await asyncio.to_thread(sets_catalog, list(sets), dict(versions))
            body = json.dumps(made, separators=(",", ":")).encode()
            tag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
            hit = card_catalogs[key] = (body, gzip.compress(body, 6), tag)
        body, packed, tag = hit
        headers = {"ETag": tag, "Cache-Control": "public, max-age=3600", "Vary": "Accept-Encoding"}
        if tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(packed, media_type="application/json", headers={**headers, "Content-Encoding": "gzip"})
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> Response:
        """The finished game's save: made once (in the worker process, never on the loop or in a thread),
        shared by everyone who asks meanwhile, then served from memory or storage."""
        hub = hub_of()
        hub.row(table_id)  # 404 at once for no such table
        wait = await replay_pacer.turn()
        if wait > 0:
            detail = f"too many replay downloads at once: try again in {retry_after(wait)} seconds"
            raise HTTPException(429, detail, {"Retry-After": retry_after(wait)})
        body = await hub.replay(table_id)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="munchkin-{table_id}.json"'},
        )

    sockets: dict[str, int] = {}  # open WebSockets by client address key

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        await ws.accept()
        key = address_key(ws.client.host if ws.client else None)
        most = settings_of().max_websockets_per_address
        if most and sockets.get(key, 0) >= most:  # before any work for this socket
            await refuse_socket(ws, 4429, f"too many connections from your address: at most {most} at once")
            return
        sockets[key] = sockets.get(key, 0) + 1
        try:
            await at_table(ws, table_id, token)
        finally:
            sockets[key] -= 1
            if not sockets[key]:
                del sockets[key]

    async def refuse_socket(ws: WebSocket, code: int, why: str) -> None:
        await ws.send_text(json.dumps({"type": "error", "error": why}))
        await ws.close(code=code)

    async def at_table(ws: WebSocket, table_id: str, token: str | None) -> None:
        """Find the table and the seat, then play or watch until the socket closes."""
        try:
            runner = await hub_of().open(table_id)  # a finished game comes back from the worker process
        except HTTPException as exc:
            await refuse_socket(ws, 4000 + exc.status_code, str(exc.detail))
            return
        if runner.broken:
            await refuse_socket(ws, 4409, f"this table is stopped: {runner.failed}")
            return
        seat = None
        device = False
        if token is not None:
            s = runner.seat_for_token(token)
            device = s is None and runner.is_device_token(token)
            if s is None and not device:
                await refuse_socket(ws, 4403, "that seat token is not valid at this table")
                return
            seat = None if s is None else s.seat
        cfg = settings_of()
        if device and sum(1 for c in runner.clients if c.device) >= cfg.max_sockets_per_seat:
            why = f"this table's device link is open in {cfg.max_sockets_per_seat} places already: close one of them"
            await refuse_socket(ws, 4429, why)
            return
        spectators = sum(1 for c in runner.clients if c.seat is None and not c.device)
        if seat is None and not device and spectators >= cfg.max_spectators_per_table:
            why = f"this table has as many spectators as it may ({cfg.max_spectators_per_table}): try again later"
            await refuse_socket(ws, 4429, why)
            return
        if seat is not None and sum(1 for c in runner.clients if c.seat == seat) >= cfg.max_sockets_per_seat:
            why = f"this seat is open in {cfg.max_sockets_per_seat} places already: close one of them"
            await refuse_socket(ws, 4429, why)
            return
        await seated(ws, runner, seat, device)

    async def seated(ws: WebSocket, runner: TableRunner, seat: int | None, device: bool = False) -> None:
        """The socket's life at the table: hello, then every message until it closes."""
        address = address_key(ws.client.host if ws.client else None)
        client = Client(ws, seat, device=device, address=address, clock=runner.clock.monotonic)
        spectator = seat is None and not device
        client.send(
            {
                "type": "hello",
                "table": runner.id,
                "name": runner.row.name,
                "seat": seat,
                "player": runner.row.seats[seat].name if seat is not None else None,
                "window_seconds": runner.window_seconds,
                "seed": runner.seed if runner.seed_chosen else None,
                "away_seconds": runner.away_seconds,
                "join_seconds": runner.join_seconds,
                "turn_clock": runner.turn_clock,
                "allow_wait": runner.allow_wait,
                "chat": runner.chat_on,
                "spectator_chat": runner.spectator_chat,
                # a spectator's name in the chat ("Spectator N": one an address), so its page knows its own lines
                "chat_name": runner.spectator_name(address) if spectator and runner.chat_on else None,
                "fair": runner.fair_info(runner.row.status == "over"),
                "device": device,
            }
        )
        client.handler = asyncio.current_task()
        runner.join(client)
        try:
            while not client.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                reply = handle_message(runner, client, text) if text is not None else refuse_binary(client)
                if reply is not None:
                    client.send(reply)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except asyncio.CancelledError:
            if not client.dropped:  # the server is stopping
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        finally:
            runner.leave(client)
        if client.dropped:
            log.info("table %s: a client was dropped: %s", runner.id, client.dropped)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """The JSON API and static files answer JSON as before; any other address is a page a
        person opened in a browser, so the refusal is a page too, with the way to the lobby."""
        path = request.url.path
        if path.startswith(("/api/", "/static/", "/ws/")) or path == "/api":
            return await http_exception_handler(request, exc)
        body = page_missing_page(path) if exc.status_code == 404 else page_error_page(exc.status_code, str(exc.detail))
        return HTMLResponse(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(MunchkinError)
    async def munchkin_error(_request: Any, exc: MunchkinError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Any, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": "; ".join(describe(e) for e in exc.errors())}, status_code=422)

    return app


def handle_message(runner: TableRunner, client: Client, text: str) -> dict[str, Any] | None:
    """One message from a client; returns the reply (an error says why and nothing changed)."""
    if not client.allow():
        if client.may_complain():
            return error(f"too many messages: slow down ({client.refused} refused so far)")
        return None
    if len(text.encode()) > MAX_MESSAGE:
        return error(f"message too large: {len(text.encode())} bytes, the limit is {MAX_MESSAGE}")
    if json_too_deep(text):
        return error(too_deep_message())
    try:
        msg = json.loads(text)
    except json.JSONDecodeError as exc:
        return error(f"malformed JSON: {exc.msg} at position {exc.pos}")
    except RecursionError:  # json_too_deep stops these first; this is the last line
        return error(too_deep_message())
    if not isinstance(msg, dict):
        return error("a message must be a JSON object")
    kind = msg.get("type")
    if kind == "ping":
        return {"type": "pong"}
    if kind == "act":
        action, version = msg.get("action"), msg.get("version")
        if not isinstance(action, str) or not action.strip():
            return error('an "act" message needs "action": the action\'s text')
        if type(version) is not int:
            return error('an "act" message needs "version": the version of the state it answers')
        if client.device and runner.lapse_claim(client):
            return error("that seat's claim ended: another person's own decision comes first; hand the device on")
        if client.seat is None and client.device:
            return error("no seat is claimed on this device: press “I am …” to show your hand first")
        if client.seat is None:
            return error("spectators cannot act")
        if len(action) > MAX_ACTION_CHARS:
            return error(f"an action's text is at most {MAX_ACTION_CHARS} characters; this one has {len(action)}")
        try:
            runner.act(client.seat, action, version)
        except MunchkinError as exc:
            return error(str(exc).replace(action.strip(), excerpt(action.strip())))
        except Exception as exc:  # an engine bug must not cost the player the connection
            log.exception("table %s: action %r failed", runner.id, action)
            return error(f"the server could not take that action ({type(exc).__name__}); please report it")
        return None
    if kind == "entropy":
        if client.device:  # one device, one source: its entropy counts for each person seat without any yet
            try:
                runner.give_device_entropy(msg.get("entropy"))
            except MunchkinError as exc:
                return error(str(exc))
            return None
        if client.seat is None:
            return error("spectators cannot give entropy: only a person's seat adds to the deal")
        try:
            runner.give_entropy(client.seat, msg.get("entropy"))
        except MunchkinError as exc:
            return error(str(exc))
        return None
    if kind == "claim":
        try:
            runner.claim(client, msg.get("seat"))
        except MunchkinError as exc:
            return error(str(exc))
        return None
    if kind == "release":
        try:
            runner.release(client)
        except MunchkinError as exc:
            return error(str(exc))
        return None
    if kind in ("wait", "more_time"):  # "more_time", the older client's word, is answered as Wait!
        if client.device and runner.lapse_claim(client):
            return error("that seat's claim ended: another person's own decision comes first; hand the device on")
        if client.seat is None:
            return error("spectators cannot say Wait!: only a person in the window can hold it")
        try:
            runner.hold(client.seat)
        except MunchkinError as exc:
            return error(str(exc))
        return None
    if kind == "say":  # a chat line, a whisper or a quick phrase (chat.py)
        if client.device and runner.lapse_claim(client):
            return error("that seat's claim ended: another person's own decision comes first; hand the device on")
        try:
            runner.say(client, msg)
        except ChatRefused as exc:
            return {"type": "error", "error": str(exc), "about": "say", "wait": exc.wait}
        except MunchkinError as exc:  # the move of a quick phrase refused: nothing was said
            action = str(msg.get("action") or "").strip()
            why = str(exc).replace(action, excerpt(action)) if action else str(exc)
            return {"type": "error", "error": why, "about": "say", "wait": None}
        except Exception as exc:
            log.exception("table %s: a chat line failed", runner.id)
            return error(f"the server could not take that line ({type(exc).__name__}); please report it")
        return None
    if kind == "stand_in":  # "let a bot play for them now": a seat not joined yet, or away
        if client.seat is None:
            return error("spectators cannot call in a bot: only a person at the table may")
        try:
            runner.call_in(client.seat, msg.get("seat"))
        except MunchkinError as exc:
            return error(str(exc))
        return None
    return error(
        f"unknown message type {excerpt(repr(kind))}; "
        "expected act, say, wait, entropy, stand_in, claim, release or ping"
    )


def excerpt(text: str, most: int = EXCERPT_CHARS) -> str:
    """The start of something a client sent, to quote in an error: never the whole of a long input."""
    return text if len(text) <= most else text[: most - 1] + "…"


def refuse_binary(client: Client) -> dict[str, Any] | None:
    """A binary frame: refused with an error (throttled like any message); the socket stays open."""
    if not client.allow():
        if client.may_complain():
            return error(f"too many messages: slow down ({client.refused} refused so far)")
        return None
    return error("binary frames are not accepted: send JSON text")


def error(text: str) -> dict[str, Any]:
    return {"type": "error", "error": text}


MAX_KEY_SHOWN = 40
_NOT = {bool: ", not true or false", str: ", not a string", float: ", not a decimal number", int: ", not a number"}
_SHOULD = re.compile(r"^(Input|String|List|Value|Dictionary|Object) should ")


def _not(value: Any) -> str:
    """What JSON type was sent instead, in words (never the value itself); nothing for NaN and infinities."""
    if isinstance(value, float) and not math.isfinite(value):
        return ""
    return _NOT.get(type(value), "")


def _cut(key: Any) -> Any:
    """A key of the request as named in an error: an unknown one is the client's own, so a long one is cut."""
    return key[:MAX_KEY_SHOWN] + "…" if isinstance(key, str) and len(key) > MAX_KEY_SHOWN else key


def describe(e: Any) -> str:
    """One validation problem as "field: what is wrong", in words of our own or pydantic's, which
    name the rule and never the value sent (that may be NaN or a lone surrogate, not encodable)."""
    where = "".join(
        f"[{p}]" if isinstance(p, int) else f".{p}" if str(p).isidentifier() else f"[{ascii(p)}]"
        for p in (_cut(p) for p in tuple(e.get("loc", ()))[1:])
    ).lstrip(".")
    ctx = e.get("ctx") or {}
    kind = e.get("type")
    if kind == "finite_number":
        what = "must be a finite number"
    elif kind == "missing":
        what = "is required" if where else "a JSON body is required"
    elif kind == "json_invalid":
        where, what = "", f"the body is not valid JSON ({ctx.get('error', 'unreadable')})"
    elif kind == "value_error" and "error" in ctx:
        what = str(ctx["error"])
    elif kind == "int_type":  # strict: true is not 1, nor "5" or 5.0 a whole number
        what = "must be a whole number" + _not(e.get("input"))
    elif kind == "bool_type":
        what = "must be true or false" + _not(e.get("input"))
    elif kind == "extra_forbidden":
        loc = tuple(e.get("loc", ()))
        known = known_keys(loc[1:-1]) if loc[:1] == ("body",) else None
        what = "is not a key this request takes"
        if known is not None:
            what = f"unknown key: {known[0]} takes only {', '.join(known[1])}"
    else:
        what = _SHOULD.sub("must ", str(e.get("msg", "is not valid")))
    text = f"{where}: {what}" if where else what
    return text.encode("utf-8", "replace").decode("utf-8")
