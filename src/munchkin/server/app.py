"""The web app: lobby and table pages, the JSON API, and the WebSocket each seat plays through."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from munchkin.engine.actions import MunchkinError
from munchkin.server.hub import Hub, available_sets
from munchkin.server.models import OptionsIn, SeatIn, TableIn
from munchkin.server.store import Store
from munchkin.server.tables import MAX_MESSAGE, Client, TableRunner

__all__ = ["Hub", "OptionsIn", "SeatIn", "TableIn", "create_app", "handle_message"]

log = logging.getLogger("munchkin.server")

STATIC = Path(str(resources.files("munchkin.server") / "static"))


def create_app(db_url: str) -> FastAPI:
    """The app over one database; tables are restored when it starts."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        hub = Hub(store)
        hub.load()
        gc.freeze()  # the restored games are long-lived: keep full collections from walking them
        gc.set_threshold(10000, 10, 10)
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(title="Munchkin", lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def hub_of() -> Hub:
        hub: Hub = app.state.hub
        return hub

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        hub_of().get(table_id)
        return FileResponse(STATIC / "table.html")

    @app.get("/api/sets")
    async def sets() -> list[dict[str, str]]:
        return available_sets()

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        rs = sorted(hub_of().tables.values(), key=lambda r: -r.row.created)
        return [r.summary() for r in rs]

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> dict[str, Any]:
        return hub_of().get(table_id).summary()

    @app.post("/api/tables", status_code=201)
    async def create(spec: TableIn) -> dict[str, Any]:
        runner, tokens = hub_of().create(spec)
        links = [
            {"seat": s, "name": runner.row.seats[s].name, "url": f"/table/{runner.id}?seat={s}&token={t}"}
            for s, t in sorted(tokens.items())
        ]
        return {"table": runner.summary(), "links": links, "watch": f"/table/{runner.id}"}

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> Response:
        r = hub_of().get(table_id)
        if not r.game.over:
            raise HTTPException(409, "the game is still on: its log holds every player's hidden cards")
        return Response(
            r.game.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="munchkin-{table_id}.json"'},
        )

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        await ws.accept()
        runner = hub_of().tables.get(table_id)
        if runner is not None:
            runner.ensure_replayed()
        if runner is None:
            await ws.send_text(json.dumps({"type": "error", "error": f"no table {table_id!r}"}))
            await ws.close(code=4404)
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
            }
        )
        runner.join(client)
        try:
            while True:
                text = await ws.receive_text()
                reply = handle_message(runner, client, text)
                if reply is not None:
                    client.send(reply)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            runner.leave(client)

    @app.exception_handler(MunchkinError)
    async def munchkin_error(_request: Any, exc: MunchkinError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    return app


def handle_message(runner: TableRunner, client: Client, text: str) -> dict[str, Any] | None:
    """One message from a client; returns the reply (an error says why and nothing changed)."""
    if not client.allow():
        if client.may_complain():
            return error(f"too many messages: slow down ({client.refused} refused so far)")
        return None
    if len(text.encode()) > MAX_MESSAGE:
        return error(f"message too large: {len(text.encode())} bytes, the limit is {MAX_MESSAGE}")
    try:
        msg = json.loads(text)
    except json.JSONDecodeError as exc:
        return error(f"malformed JSON: {exc.msg} at position {exc.pos}")
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
    if kind == "more_time":
        if client.seat is None:
            return error("spectators cannot ask for more time")
        try:
            runner.ask_more_time(client.seat)
        except MunchkinError as exc:
            return error(str(exc))
        return None
    return error(f"unknown message type {kind!r}; expected act, more_time or ping")


def error(text: str) -> dict[str, Any]:
    return {"type": "error", "error": text}
