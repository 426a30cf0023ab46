"""The web app: lobby and table pages, the JSON API, and the WebSocket each seat plays through."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator

from munchkin.cards.loader import available_sets as set_names
from munchkin.cards.loader import load_set
from munchkin.engine.actions import MunchkinError
from munchkin.server.store import Store
from munchkin.server.tables import MAX_MESSAGE, Client, TableRunner, new_table_row

log = logging.getLogger("munchkin.server")

STATIC = Path(str(resources.files("munchkin.server") / "static"))


def available_sets() -> list[dict[str, str]]:
    """Every card set shipped in the package."""
    return [{"id": name, "name": load_set(name).title} for name in set_names()]


class SeatIn(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    kind: Literal["human", "bot"]
    strength: Literal["random", "heuristic"] = "heuristic"
    sex: Literal["male", "female"] | None = None  # the character's sex as declared; None: at random
    house: str | None = Field(default=None, max_length=24)  # Harry Potter: the House chosen; None: at random

    @field_validator("name")
    @classmethod
    def _plain(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v or any(ch in v for ch in "<>\"'`"):
            raise ValueError("a seat name must be plain text (no < > quotes or backticks)")
        return v


class OptionsIn(BaseModel):
    listen_at_the_door: bool = False
    shared_victories: bool = False


class TableIn(BaseModel):
    """A new table, as the lobby's form sends it."""

    name: str = Field(default="Munchkin table", min_length=1, max_length=60)
    sets: list[str] = Field(default_factory=lambda: ["deluxe"], min_length=1, max_length=4)
    seats: list[SeatIn] = Field(min_length=3, max_length=6)
    options: OptionsIn = Field(default_factory=OptionsIn)
    window_seconds: float = Field(default=2.6, ge=0.5, le=30)
    bot_delay: float = Field(default=0.6, ge=0, le=5)
    seed: int | None = Field(default=None, ge=0, le=2**31)


class Hub:
    """All tables of this server."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, TableRunner] = {}
        self.turn = asyncio.Lock()

    def load(self) -> None:
        """Rebuild every stored table; unfinished games carry on where they were."""
        for row in self.store.tables():
            runner = TableRunner(row, self.store, self.turn)
            self.tables[row.id] = runner
            if row.status == "over":
                runner.unreplayed = True  # rebuilt when someone asks for it: a server may hold thousands
                continue
            runner.ensure_replayed()
            if not runner.failed and not runner.game.over:
                runner.start()

    def create(self, spec: TableIn) -> tuple[TableRunner, dict[int, str]]:
        known = {s["id"] for s in available_sets()}
        bad = [s for s in spec.sets if s not in known]
        if bad:
            raise HTTPException(422, f"unknown card set(s) {', '.join(bad)}; available: {', '.join(sorted(known))}")
        names = [s.name.lower() for s in spec.seats]
        if len(set(names)) != len(names):
            raise HTTPException(422, "every seat needs a different name")
        row, tokens = new_table_row(
            spec.name.strip(),
            list(dict.fromkeys(spec.sets)),
            [s.model_dump() for s in spec.seats],
            spec.options.model_dump(),
            spec.window_seconds,
            spec.bot_delay,
            spec.seed,
        )
        try:
            runner = TableRunner(row, self.store, self.turn)
        except MunchkinError as exc:
            raise HTTPException(422, str(exc)) from None
        runner.unreplayed = False
        self.store.create_table(row)
        self.tables[row.id] = runner
        runner.start()
        return runner, tokens

    def get(self, table_id: str) -> TableRunner:
        r = self.tables.get(table_id)
        if r is None:
            raise HTTPException(404, f"no table {table_id!r}")
        r.ensure_replayed()
        return r

    async def stop(self) -> None:
        await asyncio.gather(*(r.stop() for r in self.tables.values()))


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
