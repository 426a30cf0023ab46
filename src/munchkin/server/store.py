"""Tables, seats and every game's actions in a database (SQLite or PostgreSQL via SQLAlchemy).

Each action is committed before anyone hears of it, so a killed server restarts from
exactly the last state it showed; the game itself is rebuilt by replaying the actions.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import os
import stat
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
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
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError

from munchkin.engine.game import save_problem

log = logging.getLogger("munchkin.server")

metadata = MetaData()
T = TypeVar("T")
CLOSE_SECONDS = 5.0  # `Store.close`: how long the database calls under way may take to end when the server stops
STRENGTHS = ("easy", "medium", "hard", "random", "heuristic")  # a bot seat's tier, or an older table's strength

tables_t = Table(
    "munchkin_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    # JSON: sets, options, chosen seed or null, window_seconds, bot_delay; a fair table's secret and entropy
    Column("config", Text, nullable=False),
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

chat_t = Table(
    "munchkin_chat",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),  # the line's index at its table, whispers counted
    Column("line", Text, nullable=False),  # the line as JSON, as sent (munchkin.server.chat)
    Column("whisper", Integer, nullable=False, default=0),  # 1: a whisper, never in a replay
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


class DataFolderError(Exception):
    """The data folder cannot be made or used; the message says which folder and why."""


def database_url(data_dir: Path | None, db: str | None) -> str:
    """`--db` if given, else SQLite in `data_dir/munchkin.db`, in a folder only its owner can read."""
    if db:
        return db
    d = data_dir or Path("munchkin-data")
    private_folder(d)
    return f"sqlite:///{d.resolve() / 'munchkin.db'}"


def private_folder(d: Path) -> None:
    """Make the data folder with mode 0700 whatever the umask: its database holds every live table's deck
    order. A folder that exists already is left as it is (it may be shared on purpose), with a warning if
    other users may open it; the database files in it are made 0600 either way (`Store`)."""
    try:
        if not d.exists():
            d.mkdir(parents=True, mode=0o700)
            d.chmod(0o700)
            return
        if not d.is_dir():
            raise DataFolderError(f"{d} is not a folder: give --data a folder for the database")
        mode = stat.S_IMODE(d.stat().st_mode)
    except OSError as exc:
        raise DataFolderError(f"cannot use {d} as the data folder: {exc.strerror or exc}") from None
    if mode & 0o077:
        log.warning(
            "the data folder %s may be opened by other users (mode %04o); its database files are kept to "
            "their owner (0600), but to hide them entirely run: chmod 700 %s",
            d,
            mode,
            d,
        )


def _sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL, or None for another database, an in-memory one or a `file:` URI."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:" or u.query.get("uri"):
        return None
    return Path(u.database)


def _private_files(path: Path) -> None:
    """The database and SQLite's -wal and -shm files beside it readable by their owner alone (0600),
    whatever the umask: they hold every live table's deck order. The database is created empty with that
    mode before SQLite opens it, and SQLite gives its -wal and -shm files the database's mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        return  # no such folder, or not ours: SQLite says so when it opens the database
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = stat.S_IMODE(p.stat().st_mode) if p.exists() else 0
            if mode & 0o077:
                p.chmod(mode & 0o700)
        except OSError as exc:
            log.warning("%s may be readable by other users and cannot be made private: %s", p, exc.strerror)


class Store:
    """The database: create tables, append actions and chance, read everything back after a restart."""

    def __init__(self, url: str) -> None:
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        self.url = url
        self._unexpirable: set[str] = set()  # tables already logged as left out of expiry
        # hide_parameters: an error's text never quotes the values written (a fair table's config holds its secret)
        self.engine: Engine = create_engine(url, future=True, pool_pre_ping=True, hide_parameters=True)
        file = _sqlite_file(url)
        if file is not None:
            _private_files(file)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        self._add_missing_columns()
        if file is not None:
            _private_files(file)  # -wal and -shm exist now; an older server's may have had other modes
        # every call from the server's event loop runs here (`run`), never on the loop: one thread for
        # SQLite, whose writers take turns anyway; a few for a server database
        self.executor = ThreadPoolExecutor(max_workers=1 if url.startswith("sqlite") else 4, thread_name_prefix="db")
        self.calls: set[Future[Any]] = set()  # calls handed to the database's threads and not yet ended

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` on the database's thread, awaited: the event loop goes on meanwhile."""
        fut = self.executor.submit(call, *args)
        self.calls.add(fut)
        fut.add_done_callback(self.calls.discard)
        return await asyncio.wrap_future(fut)

    def _add_missing_columns(self) -> None:
        """A database made by an older server lacks `updated`: add it (null: a table's creation time counts)."""
        have = {c["name"] for c in inspect(self.engine).get_columns(tables_t.name)}
        if "updated" not in have:
            with self.engine.begin() as conn:
                conn.execute(text(f"ALTER TABLE {tables_t.name} ADD COLUMN updated FLOAT"))

    def close(self, seconds: float = CLOSE_SECONDS) -> bool:
        """Let the calls under way end, at most `seconds` (a write the server stops on is stored), then
        close the connections; True if every call ended. Calls still queued after that are dropped and
        one still running is left to end on its thread (logged), so closing never hangs."""
        pending = set(self.calls)
        if pending:
            wait(pending, timeout=seconds)
        left = [f for f in pending if not f.done()]
        if left:
            log.error(
                "the database: %d call(s) not ended %.1f s after the server stopped: left behind", len(left), seconds
            )
        self.executor.shutdown(wait=not left, cancel_futures=bool(left))
        if not left:
            self.engine.dispose()
        return not left

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

    def set_config(self, table_id: str, config: dict[str, Any], chance: list[Any] | None = None) -> None:
        """Store a table's config anew (a fair table's entropy as each seat gives it), and with it, in the
        same transaction, the chance outcomes of its deal when it is dealt now (`chance`)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(config=json.dumps(config), updated=now())
            )
            _insert_chance(conn, table_id, 0, chance or [])

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

    def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        """Store one chat line (a whisper marked, so that a replay can leave it out)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(chat_t).values(
                    table_id=table_id, n=line["n"], line=json.dumps(line), whisper=int(line["to"] is not None)
                )
            )

    def chat(self, table_id: str, last: int | None = None, public: bool = False) -> list[dict[str, Any]]:
        """A table's chat lines, oldest first: the `last` newest (None: all), only those said to the whole
        table if `public`. A stored line that cannot be read is left out (and logged)."""
        q = select(chat_t.c.n, chat_t.c.line).where(chat_t.c.table_id == table_id)
        if public:
            q = q.where(chat_t.c.whisper == 0)
        q = q.order_by(chat_t.c.n.desc())
        if last is not None:
            q = q.limit(last)
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        out: list[dict[str, Any]] = []
        for n, raw in reversed(rows):
            try:
                line = json.loads(raw)
            except (TypeError, ValueError, RecursionError):
                line = None
            keys = ("from", "to", "name", "spectator", "phrase", "cards", "at")
            if (
                not isinstance(line, dict)
                or line.get("n") != n
                or not isinstance(line.get("text"), str)
                or any(k not in line for k in keys)
            ):
                log.warning("table %s: chat line %s cannot be read: it is left out", table_id, n)
                continue
            out.append(line)
        return out

    def chat_count(self, table_id: str) -> int:
        """How many chat lines were said at a table (the next line's `n`)."""
        with self.engine.connect() as conn:
            top = conn.execute(select(func.max(chat_t.c.n)).where(chat_t.c.table_id == table_id)).scalar()
        return top + 1 if isinstance(top, int) else 0

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
        seats: dict[Any, list[Any]] = {}  # by the stored table id, whatever its type
        for s in srows:
            seats.setdefault(s.table_id, []).append(s)
        out: list[TableRow] = []
        ids: set[str] = set()
        for t in trows:
            row = _table_row(t, seats.get(t.id, []))
            while row.id in ids:  # two unreadable ids shown alike: keep both listed
                row.id += "-again"
            ids.add(row.id)
            out.append(row)
        return out

    def expired(self, unjoined_before: float, idle_before: float) -> list[str]:
        """Unfinished tables whose last activity is older than the limit: `unjoined_before` for a table no
        person has joined, `idle_before` for one people have. A row whose id or times cannot be read is
        left alone (and logged, once): the sweep goes on, and the lobby shows that table stopped."""
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
        out: list[str] = []
        for t in trows:
            problems: list[str] = []
            tid = _text(t.id, "the column id", problems)
            created = _time(t.created, "the column created", problems, nullable=False)
            updated = _time(t.updated, "the column updated", problems, nullable=True)
            if tid is None or created is None or problems:
                shown = tid if tid is not None else _safe_id(t.id)
                if shown not in self._unexpirable:
                    self._unexpirable.add(shown)
                    log.warning("table %s is left out of expiry: %s", shown, "; ".join(problems))
                continue
            last = updated if updated is not None else created
            if last < (idle_before if tid in joined else unjoined_before):
                out.append(tid)
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
                for t in (actions_t, chance_t, seats_t, replays_t, chat_t):
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
        """A finished game's stored save, or None if it has not been made yet or what is stored is not a
        save of this table that `munchkin replay` would read (logged): the server then makes it again."""
        with self.engine.connect() as conn:
            body = conn.execute(select(replays_t.c.body).where(replays_t.c.table_id == table_id)).scalar()
            if body is None:
                return None
            names = conn.execute(
                select(seats_t.c.name).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).scalars()
            players = list(names)
            actions = conn.execute(
                select(func.count()).select_from(actions_t).where(actions_t.c.table_id == table_id)
            ).scalar_one()
        problem = replay_problem(body, players, actions)
        if problem:
            log.warning(
                "table %s: its stored replay is damaged (%s): it is made again from its actions", table_id, problem
            )
            return None
        return str(body)


def replay_problem(body: Any, players: list[Any], actions: int) -> str | None:
    """Why a stored replay body is not the save of a table with these players and this many stored actions
    that `munchkin replay` would read, or None. Nothing is replayed (that takes a worker's seconds)."""
    if not isinstance(body, str):
        kind = _kind(body)
        return f"it holds {kind}" if "UTF-8" in kind else f"it holds {kind}, not text"
    try:
        data = json.loads(body)
    except ValueError as exc:
        return f"it is not valid JSON ({exc})"
    except RecursionError:
        return "its JSON is nested too deep"
    problem = save_problem(data)
    if problem:
        return problem
    if data["setup"]["players"] != players:
        return "its players are not this table's seats"
    acts = sum(1 for e in data["log"] if "act" in e)
    if acts < actions:
        return f"its log holds {acts} actions, fewer than the {actions} stored"
    return None


class DamagedTable(Exception):
    """A table's stored rows cannot be read back."""


def _insert_chance(conn: Connection, table_id: str, first: int, chance: list[Any]) -> None:
    if chance:
        conn.execute(
            insert(chance_t),
            [{"table_id": table_id, "seq": first + i, "raw": json.dumps(c)} for i, c in enumerate(chance)],
        )


def _table_row(t: Any, stored_seats: list[Any]) -> TableRow:
    """One stored table, or, when a column cannot be read, a row marked damaged with what is wrong in
    which column. Every value it carries is of its type even then (the id and name shown can always be
    listed as JSON), so a damaged table is listed as stopped and never takes a page of the lobby down."""
    problems: list[str] = []
    tid = _text(t.id, "the column id", problems) or _safe_id(t.id)
    name = _text(t.name, "the column name", problems)
    created = _time(t.created, "the column created", problems, nullable=False) or 0.0
    status = _text(t.status, "the column status", problems)
    if status is not None and status not in ("playing", "over"):
        problems.append("the column status is neither playing nor over")
    turn = _whole(t.turn, "the column turn", problems)
    if turn is not None and turn < 0:
        problems.append("the column turn is negative")
    updated = _time(t.updated, "the column updated", problems, nullable=True)
    config: Any = {}
    winners: Any = []
    config_text = _text(t.config, "the column config", problems)
    if config_text is not None:
        try:
            config = json.loads(config_text)
            if not isinstance(config, dict):
                problems.append("its config is not a JSON object")
                config = {}
        except (ValueError, RecursionError) as exc:
            problems.append(f"its config is not valid JSON ({exc})")
    winners_text = _text(t.winners, "the column winners", problems)
    if winners_text is not None:
        try:
            winners = json.loads(winners_text)
            if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
                problems.append("its winners are not a JSON list of names")
                winners = []
        except (ValueError, RecursionError) as exc:
            problems.append(f"its winners are not valid JSON ({exc})")
    seats = [_seat_row(s, i, problems) for i, s in enumerate(stored_seats)]
    if not seats:
        problems.append("its seats are missing")
    elif [s.seat for s in seats] != list(range(len(seats))):
        problems.append("some of its seats are missing")
    for key in ("sets", "options", "window_seconds", "bot_delay"):
        if config and key not in config:
            problems.append(f"its config has no {key!r}")
    return TableRow(
        tid,
        name if name is not None else tid,  # a name that cannot be read is shown as the table's id
        created,
        config,
        status if status in ("playing", "over") else "playing",
        turn if turn is not None and turn >= 0 else 0,
        winners,
        seats,
        updated=updated if updated is not None else created,
        damaged="; ".join(problems),
    )


def _seat_row(s: Any, i: int, problems: list[str]) -> SeatRow:
    """One stored seat (the `i`th of its table); what cannot be read is added to `problems` by column."""
    seat = _whole(s.seat, f"seat {i}: the column seat", problems)
    n = seat if seat is not None else i
    where = f"seat {n}: the column"
    name = _text(s.name, f"{where} name", problems)
    kind = _text(s.kind, f"{where} kind", problems)
    if kind is not None and kind not in ("human", "bot"):
        problems.append(f"{where} kind is neither human nor bot")
    strength = _text(s.strength, f"{where} strength", problems)
    if strength is not None and strength not in STRENGTHS:
        problems.append(f"{where} strength is none of {', '.join(STRENGTHS)}")
    digest = _text(s.token_hash, f"{where} token_hash", problems)
    if kind == "human" and digest is not None and not _is_sha256(digest):
        problems.append(f"{where} token_hash is not a SHA-256 digest in hex (the seat's link cannot work)")
    claimed = _whole(s.claimed, f"{where} claimed", problems)
    if claimed not in (None, 0, 1):
        problems.append(f"{where} claimed is neither 0 nor 1")
    return SeatRow(
        n,
        name if name is not None else f"seat {n}",  # a name that cannot be read is shown as the seat's number
        kind if kind in ("human", "bot") else "human",
        strength if strength in STRENGTHS else "heuristic",
        digest or "",
        claimed == 1,
    )


def _kind(value: Any) -> str:
    """What a stored value holds, in words, for a message naming a damaged column."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bytes):
        try:
            value.decode()
        except UnicodeDecodeError:
            return "bytes that are not UTF-8 text"
        return "bytes (a BLOB)"
    if isinstance(value, bool):
        return "a truth value"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return type(value).__name__


def _text(value: Any, column: str, problems: list[str]) -> str | None:
    """A stored text column's value, or None with what it holds instead added to `problems`."""
    if isinstance(value, str):
        return value
    kind = _kind(value)
    problems.append(f"{column} holds {kind}" if "UTF-8" in kind else f"{column} holds {kind}, not text")
    return None


def _whole(value: Any, column: str, problems: list[str]) -> int | None:
    """A stored whole-number column's value, or None with what it holds instead added to `problems`."""
    if type(value) is int:
        return value
    problems.append(f"{column} holds {_kind(value)}, not a whole number")
    return None


def _time(value: Any, column: str, problems: list[str], nullable: bool) -> float | None:
    """A stored wall time in seconds (null allowed if `nullable`), or None with what is wrong added."""
    if value is None and nullable:
        return None
    if type(value) not in (int, float):
        problems.append(f"{column} holds {_kind(value)}, not a time in seconds")
        return None
    if not math.isfinite(value):
        problems.append(f"{column} holds {value}, not a time in seconds")
        return None
    return float(value)


def _is_sha256(digest: str) -> bool:
    return len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)


def _safe_id(value: Any) -> str:
    """A table id that is not text, shown as something that can be listed and told apart from real
    ids (which are hex): bytes as their hex, anything else as its plain characters."""
    if isinstance(value, bytes):
        return f"unreadable-{value.hex()}"
    return "unreadable-" + "".join(c if c.isalnum() or c in ".-" else "_" for c in str(value))


def _sqlite_text(raw: bytes) -> str | bytes:
    """SQLite's TEXT as str; TEXT that is not valid UTF-8 comes back as its bytes, whole, instead of
    failing the whole SELECT, so that each row can be judged (and the damage named) on its own."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL with synchronous=NORMAL: a commit survives the process being killed. Text is decoded
    value by value (`_sqlite_text`), so one damaged value cannot hide every table."""
    dbapi_conn.text_factory = _sqlite_text
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def now() -> float:
    return time.time()
