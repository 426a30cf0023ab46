"""Tables, seats and every game's actions in a database (SQLite or PostgreSQL via SQLAlchemy).

Each action is committed before anyone hears of it, so a killed server restarts from
exactly the last state it showed; the game itself is rebuilt by replaying the actions.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "munchkin_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    Column("config", Text, nullable=False),  # JSON: sets, options, seed, window_seconds, bot_delay
    Column("status", String(16), nullable=False),  # playing | over
    Column("turn", Integer, nullable=False, default=0),
    Column("winners", Text, nullable=False, default="[]"),
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


def database_url(data_dir: Path | None, db: str | None) -> str:
    """`--db` if given, else SQLite in `data_dir/munchkin.db`."""
    if db:
        return db
    d = data_dir or Path("munchkin-data")
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d.resolve() / 'munchkin.db'}"


class Store:
    """The database: create tables, append actions, read everything back after a restart."""

    def __init__(self, url: str) -> None:
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        self.url = url
        self.engine: Engine = create_engine(url, future=True, pool_pre_ping=True)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, row: TableRow) -> None:
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
                )
            )
            for s in row.seats:
                conn.execute(
                    insert(seats_t).values(
                        table_id=row.id,
                        seat=s.seat,
                        name=s.name,
                        kind=s.kind,
                        strength=s.strength,
                        token_hash=s.token_hash,
                        claimed=int(s.claimed),
                    )
                )

    def append_actions(
        self, table_id: str, first_seq: int, entries: list[tuple[list[Any], str]], status: tuple[str, int, list[str]]
    ) -> None:
        """Store actions `first_seq`, `first_seq+1`, ... and the table's status, in one transaction."""
        with self.engine.begin() as conn:
            if entries:
                conn.execute(
                    insert(actions_t),
                    [
                        {"table_id": table_id, "seq": first_seq + i, "raw": json.dumps(raw), "text": text}
                        for i, (raw, text) in enumerate(entries)
                    ],
                )
            st, turn, winners = status
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=st, turn=turn, winners=json.dumps(winners))
            )

    def claim(self, table_id: str, seat: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(claimed=1)
            )

    def actions(self, table_id: str) -> list[list[Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_t.c.seq, actions_t.c.raw)
                .where(actions_t.c.table_id == table_id)
                .order_by(actions_t.c.seq)
            ).all()
        out = []
        for i, (seq, raw) in enumerate(rows):
            if seq != i:
                raise RuntimeError(f"table {table_id}: action {i} is missing from the database")
            out.append(json.loads(raw))
        return out

    def tables(self) -> list[TableRow]:
        with self.engine.connect() as conn:
            trows = conn.execute(select(tables_t).order_by(tables_t.c.created)).all()
            srows = conn.execute(select(seats_t).order_by(seats_t.c.table_id, seats_t.c.seat)).all()
        seats: dict[str, list[SeatRow]] = {}
        for s in srows:
            seats.setdefault(s.table_id, []).append(
                SeatRow(s.seat, s.name, s.kind, s.strength, s.token_hash, bool(s.claimed))
            )
        return [
            TableRow(
                t.id,
                t.name,
                t.created,
                json.loads(t.config),
                t.status,
                t.turn,
                json.loads(t.winners),
                seats.get(t.id, []),
            )
            for t in trows
        ]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL with synchronous=NORMAL: a commit survives the process being killed."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def now() -> float:
    return time.time()
