"""The web app: lobby and table pages, the JSON API, and the WebSocket each seat plays through."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import re
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

from munchkin.engine.actions import MunchkinError
from munchkin.help import HelpNotFound, help_page, not_found_page
from munchkin.server.config import MAX_PAGE, ServerSettings
from munchkin.server.guard import BodyGuard, CreationLimits, Pacer, json_too_deep, retry_after, too_deep_message
from munchkin.server.hub import Hub, available_sets
from munchkin.server.models import OptionsIn, SeatIn, TableIn
from munchkin.server.pages import page_error_page, page_missing_page, table_missing_page
from munchkin.server.store import Store
from munchkin.server.tables import MAX_MESSAGE, Client, TableRunner

__all__ = ["Hub", "OptionsIn", "SeatIn", "TableIn", "create_app", "handle_message"]

log = logging.getLogger("munchkin.server")

STATIC = Path(str(resources.files("munchkin.server") / "static"))


def create_app(db_url: str, settings: ServerSettings | None = None) -> FastAPI:
    """The app over one database; tables are restored when it starts."""
    settings = settings or ServerSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        hub = Hub(store, settings)
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

    app = FastAPI(title="Munchkin", lifespan=lifespan)
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyGuard, max_bytes=lambda: settings_of().max_body_bytes)
    limits = CreationLimits(lambda: settings_of())
    replay_pacer = Pacer(lambda: settings_of().replays_per_second)

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

    @app.get("/api/tables")
    async def tables(
        request: Request,
        status: Literal["all", "open", "playing", "over", "stopped"] = "all",
        limit: int = Query(default=settings.page_size, ge=1, le=MAX_PAGE),
        after: str | None = Query(default=None, max_length=80),
    ) -> Response:
        """One page of tables, newest first; an unchanged page answers 304 to the ETag it was sent with."""
        body = json.dumps(hub_of().page(status, limit, after)).encode()
        tag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> dict[str, Any]:
        return hub_of().summary(table_id)

    @app.post("/api/tables", status_code=201)
    async def create(spec: TableIn, request: Request) -> dict[str, Any]:
        hub = hub_of()
        if hub.live_tables() >= settings_of().max_live_tables:
            detail = "the server is full: too many tables are being played; try again in a minute"
            raise HTTPException(503, detail, {"Retry-After": "60"})
        wait = limits.take(request.client.host if request.client else "unknown")
        if wait > 0:
            detail = f"too many new tables: try again in {retry_after(wait)} seconds"
            raise HTTPException(429, detail, {"Retry-After": retry_after(wait)})
        runner, tokens = hub.create(spec)
        links = [
            {"seat": s, "name": runner.row.seats[s].name, "url": f"/table/{runner.id}?seat={s}&token={t}"}
            for s, t in sorted(tokens.items())
        ]
        return {"table": runner.summary(), "links": links, "watch": f"/table/{runner.id}"}

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
        """The finished game's save, made once and read from storage in a worker thread (never on the loop)."""
        hub = hub_of()
        hub.row(table_id)  # 404 at once for no such table
        wait = await replay_pacer.turn()
        if wait > 0:
            detail = f"too many replay downloads at once: try again in {retry_after(wait)} seconds"
            raise HTTPException(429, detail, {"Retry-After": retry_after(wait)})
        body = hub.cached_replay(table_id)
        if body is None:
            body = (await asyncio.to_thread(hub.replay, table_id)).encode()
            hub.cache_replay(table_id, body)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="munchkin-{table_id}.json"'},
        )

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        await ws.accept()
        try:
            runner = hub_of().tables.get(table_id)  # a table in play is in memory already
            if runner is None or runner.unreplayed:  # a finished game is rebuilt in a worker, never on the loop
                runner = await asyncio.to_thread(hub_of().get, table_id)
        except HTTPException as exc:
            await ws.send_text(json.dumps({"type": "error", "error": exc.detail}))
            await ws.close(code=4000 + exc.status_code)
            return
        if runner.broken:
            await ws.send_text(json.dumps({"type": "error", "error": f"this table is stopped: {runner.failed}"}))
            await ws.close(code=4409)
            return
        seat = None
        if token is not None:
            s = runner.seat_for_token(token)
            if s is None:
                await ws.send_text(json.dumps({"type": "error", "error": "that seat token is not valid at this table"}))
                await ws.close(code=4403)
                return
            seat = s.seat
        client = Client(ws, seat)
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
                "turn_clock": runner.turn_clock,
                "allow_wait": runner.allow_wait,
            }
        )
        runner.join(client)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                reply = handle_message(runner, client, text) if text is not None else refuse_binary(client)
                if reply is not None:
                    client.send(reply)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            runner.leave(client)

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
        if client.seat is None:
            return error("spectators cannot act")
        try:
            runner.act(client.seat, action, version)
        except MunchkinError as exc:
            return error(str(exc))
        except Exception as exc:  # an engine bug must not cost the player the connection
            log.exception("table %s: action %r failed", runner.id, action)
            return error(f"the server could not take that action ({type(exc).__name__}); please report it")
        return None
    if kind in ("wait", "more_time"):  # "more_time", the older client's word, is answered as Wait!
        if client.seat is None:
            return error("spectators cannot say Wait!: only a person in the window can hold it")
        try:
            runner.hold(client.seat)
        except MunchkinError as exc:
            return error(str(exc))
        return None
    return error(f"unknown message type {kind!r}; expected act, wait or ping")


def refuse_binary(client: Client) -> dict[str, Any] | None:
    """A binary frame: refused with an error (throttled like any message); the socket stays open."""
    if not client.allow():
        if client.may_complain():
            return error(f"too many messages: slow down ({client.refused} refused so far)")
        return None
    return error("binary frames are not accepted: send JSON text")


def error(text: str) -> dict[str, Any]:
    return {"type": "error", "error": text}


_SHOULD = re.compile(r"^(Input|String|List|Value|Dictionary|Object) should ")


def describe(e: Any) -> str:
    """One validation problem as "field: what is wrong", in words of our own or pydantic's, which
    name the rule and never the value sent (that may be NaN or a lone surrogate, not encodable)."""
    where = "".join(
        f"[{p}]" if isinstance(p, int) else f".{p}" if str(p).isidentifier() else f"[{ascii(p)}]"
        for p in tuple(e.get("loc", ()))[1:]
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
    else:
        what = _SHOULD.sub("must ", str(e.get("msg", "is not valid")))
    text = f"{where}: {what}" if where else what
    return text.encode("utf-8", "replace").decode("utf-8")
