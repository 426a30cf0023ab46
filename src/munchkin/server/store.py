"""Tables, seats and every game's actions in a database (SQLite or PostgreSQL via SQLAlchemy).

Each action is committed before anyone hears of it, so a killed server restarts from
exactly the last state it showed; the game itself is rebuilt by replaying the actions.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()
T = TypeVar("T")

tables_t = Table(
    "munchkin_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    Column("config", Text, nullable=False),  # JSON: sets, options, chosen seed or null, window_seconds, bot_delay
    Column("status", String(16), nullable=False),  # playing | over
    Column("turn", Integer, nullable=False, default=0),
    Column("winners", Text, nullable=False, default="[]"),
    Column("updated", Float, nullable=True),  # wall time of the last action or visit, for expiry
)

seats_t = Table(
    "munchkin_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("strength", String(16), nullable=False),
    Column("token_hash", String(64), nullable=False),  # sha256 of the seat's secret; "" for a bot
    Column("claimed", Integer, nullable=False, default=0),
)

actions_t = Table(
    "munchkin_actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("raw", Text, nullable=False),  # the Action's fields as JSON
    Column("text", Text, nullable=False),  # who did what kind of thing, for people reading the database
)


chance_t = Table(
    "munchkin_chance",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("raw", Text, nullable=False),  # one chance outcome as JSON: ["shuffle", deck, cards], ["roll", seat, n], ...
)

replays_t = Table(
    "munchkin_replays",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("body", Text, nullable=False),  # the finished game's munchkin-game/1 save, made once
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRow:
    seat: int
    name: str
    kind: str
    strength: str
    token_hash: str
    claimed: bool


@dataclass
class TableRow:
    id: str
    name: str
    created: float
    config: dict[str, Any]
    status: str
    turn: int
    winners: list[str]
    seats: list[SeatRow]
    updated: float = 0.0  # last action or visit (wall time)
    damaged: str = ""  # why the stored rows cannot be read; "" when they can

    @property
    def joined(self) -> bool:
        """Has any person ever taken a seat here?"""
        return any(s.claimed for s in self.seats if s.kind == "human")


def database_url(data_dir: Path | None, db: str | None) -> str:
    """`--db` if given, else SQLite in `data_dir/munchkin.db`."""
    if db:
        return db
    d = data_dir or Path("munchkin-data")
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d.resolve() / 'munchkin.db'}"


class Store:
    """The database: create tables, append actions and chance, read everything back after a restart."""

    def __init__(self, url: str) -> None:
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        self.url = url
        self.engine: Engine = create_engine(url, future=True, pool_pre_ping=True)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        self._add_missing_columns()
        # every call from the server's event loop runs here (`run`), never on the loop: one thread for
        # SQLite, whose writers take turns anyway; a few for a server database
        self.executor = ThreadPoolExecutor(max_workers=1 if url.startswith("sqlite") else 4, thread_name_prefix="db")

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` on the database's thread, awaited: the event loop goes on meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, functools.partial(call, *args))

    def _add_missing_columns(self) -> None:
        """A database made by an older server lacks `updated`: add it (null: a table's creation time counts)."""
        have = {c["name"] for c in inspect(self.engine).get_columns(tables_t.name)}
        if "updated" not in have:
            with self.engine.begin() as conn:
                conn.execute(text(f"ALTER TABLE {tables_t.name} ADD COLUMN updated FLOAT"))

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        self.engine.dispose()

    def create_table(self, row: TableRow, chance: list[Any]) -> None:
        """The table, its seats and the chance of its deal, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    name=row.name,
                    created=row.created,
                    config=json.dumps(row.config),
                    status=row.status,
                    turn=row.turn,
                    winners=json.dumps(row.winners),
                    updated=row.updated or row.created,
                )
            )
            conn.execute(
                insert(seats_t),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "strength": s.strength,
                        "token_hash": s.token_hash,
                        "claimed": int(s.claimed),
                    }
                    for s in row.seats
                ],
            )
            _insert_chance(conn, row.id, 0, chance)

    def append_actions(
        self,
        table_id: str,
        first_seq: int,
        entries: list[tuple[list[Any], str]],
        status: tuple[str, int, list[str]],
        chance_first: int = 0,
        chance: list[Any] | None = None,
    ) -> None:
        """Store actions `first_seq`, `first_seq+1`, ..., the chance outcomes they drew (from `chance_first`
        on) and the table's status, in one transaction."""
        with self.engine.begin() as conn:
            if entries:
                conn.execute(
                    insert(actions_t),
                    [
                        {"table_id": table_id, "seq": first_seq + i, "raw": json.dumps(raw), "text": txt}
                        for i, (raw, txt) in enumerate(entries)
                    ],
                )
            _insert_chance(conn, table_id, chance_first, chance or [])
            st, turn, winners = status
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=st, turn=turn, winners=json.dumps(winners), updated=now())
            )

    def claim(self, table_id: str, seat: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(claimed=1)
            )
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(updated=now()))

    def touch(self, table_id: str) -> None:
        """Someone was at the table just now: it is not idle."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(updated=now()))

    def actions(self, table_id: str) -> list[list[Any]]:
        return self._sequence(actions_t, table_id, "action")

    def chance(self, table_id: str) -> list[list[Any]]:
        """The table's chance outcomes in the order they were drawn."""
        return self._sequence(chance_t, table_id, "chance outcome")

    def _sequence(self, t: Table, table_id: str, what: str) -> list[list[Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.c.seq, t.c.raw).where(t.c.table_id == table_id).order_by(t.c.seq)).all()
        out = []
        for i, (seq, raw) in enumerate(rows):
            if seq != i:
                raise DamagedTable(f"{what} {i} is missing from the database")
            try:
                value = json.loads(raw)
            except ValueError as exc:
                raise DamagedTable(f"{what} {i} is not valid JSON ({exc})") from None
            if not isinstance(value, list):
                raise DamagedTable(f"{what} {i} is not a list")
            out.append(value)
        return out

    def tables(self) -> list[TableRow]:
        """Every table; one whose rows cannot be read comes back with `damaged` saying why."""
        with self.engine.connect() as conn:
            trows = conn.execute(select(tables_t).order_by(tables_t.c.created)).all()
            srows = conn.execute(select(seats_t).order_by(seats_t.c.table_id, seats_t.c.seat)).all()
        seats: dict[str, list[SeatRow]] = {}
        for s in srows:
            seats.setdefault(s.table_id, []).append(
                SeatRow(s.seat, s.name, s.kind, s.strength, s.token_hash, bool(s.claimed))
            )
        return [_table_row(t, seats.get(t.id, [])) for t in trows]

    def expired(self, unjoined_before: float, idle_before: float) -> list[str]:
        """Unfinished tables whose last activity is older than the limit: `unjoined_before` for a table no
        person has joined, `idle_before` for one people have."""
        with self.engine.connect() as conn:
            trows = conn.execute(
                select(tables_t.c.id, tables_t.c.created, tables_t.c.updated).where(tables_t.c.status == "playing")
            ).all()
            joined = {
                r.table_id
                for r in conn.execute(
                    select(seats_t.c.table_id).where(seats_t.c.kind == "human", seats_t.c.claimed == 1).distinct()
                )
            }
        out = []
        for t in trows:
            last = t.updated if t.updated is not None else t.created
            if last < (idle_before if t.id in joined else unjoined_before):
                out.append(t.id)
        return out

    def finished_before(self, before: float) -> list[str]:
        """Finished tables whose last move (or visit) is older than `before` (wall time)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_t.c.id, tables_t.c.updated).where(
                    tables_t.c.status == "over", tables_t.c.updated < before
                )
            ).all()
        return [r.id for r in rows if isinstance(r.updated, (int, float))]

    def delete_tables(self, ids: list[str]) -> None:
        """Remove tables and all their rows (an expired table leaves nothing behind)."""
        with self.engine.begin() as conn:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                for t in (actions_t, chance_t, seats_t, replays_t):
                    conn.execute(delete(t).where(t.c.table_id.in_(chunk)))
                conn.execute(delete(tables_t).where(tables_t.c.id.in_(chunk)))

    def save_replay(self, table_id: str, body: str) -> None:
        """Store a finished game's save. The game's end and a download that rebuilt it may both store it
        at once; a game's save is the same whoever makes it, so whichever lands second just rewrites it."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(replays_t).values(table_id=table_id, body=body))
        except IntegrityError:  # already stored, perhaps by the other writer a moment ago
            with self.engine.begin() as conn:
                conn.execute(update(replays_t).where(replays_t.c.table_id == table_id).values(body=body))

    def replay(self, table_id: str) -> str | None:
        """A finished game's stored save, or None if it has not been made yet."""
        with self.engine.connect() as conn:
            body = conn.execute(select(replays_t.c.body).where(replays_t.c.table_id == table_id)).scalar()
        return None if body is None else str(body)


class DamagedTable(Exception):
    """A table's stored rows cannot be read back."""


def _insert_chance(conn: Connection, table_id: str, first: int, chance: list[Any]) -> None:
    if chance:
        conn.execute(
            insert(chance_t),
            [{"table_id": table_id, "seq": first + i, "raw": json.dumps(c)} for i, c in enumerate(chance)],
        )


def _table_row(t: Any, seats: list[SeatRow]) -> TableRow:
    """One stored table, or, when a field cannot be read, a row marked damaged with what is wrong."""
    problems = []
    config: Any = {}
    winners: Any = []
    try:
        config = json.loads(t.config)
        if not isinstance(config, dict):
            problems.append("its config is not a JSON object")
            config = {}
    except (TypeError, ValueError) as exc:
        problems.append(f"its config is not valid JSON ({exc})")
    try:
        winners = json.loads(t.winners)
        if not isinstance(winners, list):
            problems.append("its winners are not a JSON list")
            winners = []
    except (TypeError, ValueError) as exc:
        problems.append(f"its winners are not valid JSON ({exc})")
    if not seats:
        problems.append("its seats are missing")
    elif [s.seat for s in seats] != list(range(len(seats))):
        problems.append("some of its seats are missing")
    for key in ("sets", "options", "window_seconds", "bot_delay"):
        if config and key not in config:
            problems.append(f"its config has no {key!r}")
    created = t.created if isinstance(t.created, (int, float)) else 0.0
    return TableRow(
        t.id,
        t.name or "",
        created,
        config,
        t.status,
        t.turn or 0,
        [str(w) for w in winners],
        seats,
        updated=t.updated if t.updated is not None else created,
        damaged="; ".join(problems),
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL with synchronous=NORMAL: a commit survives the process being killed."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def now() -> float:
    return time.time()
