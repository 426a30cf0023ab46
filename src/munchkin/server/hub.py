"""All tables of one server: created, restored after a restart, looked up."""

from __future__ import annotations

import asyncio

from fastapi import HTTPException

from munchkin.cards.loader import available_sets as set_names
from munchkin.cards.loader import load_set
from munchkin.engine.actions import MunchkinError
from munchkin.server.models import TableIn
from munchkin.server.store import Store
from munchkin.server.tables import TableRunner, new_table_row


def available_sets() -> list[dict[str, str]]:
    """Every card set shipped in the package."""
    return [{"id": name, "name": load_set(name).title} for name in set_names()]


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
