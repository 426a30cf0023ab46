"""A fair table's deal, a part of `TableRunner`: the entropy window, the entropy each person gives, and the
deal, stored before anyone sees a card (docs/server.md, Provably fair deals)."""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any

from munchkin.engine.actions import MunchkinError
from munchkin.engine.fair import deal
from munchkin.server.fairness import clean_entropy, fair_chance, public_fair
from munchkin.server.rows import table_setup
from munchkin.server.table_state import TableState, _loop_running

log = logging.getLogger("munchkin.server")


class FairDeal(TableState):
    """A fair table's deal: waiting for its people's entropy, then dealing and storing the deal."""

    def deal_game(self) -> None:
        """Deal a fair table's cards from its generator, keyed by the secret and the entropy given now
        (`engine.fair.deal`: undeclared sexes, then Houses, then the decks), and note in its config the
        sexes and Houses drawn, what was declared, and that it is dealt. Stores nothing (`_deal` does)."""
        assert self.fair is not None and not self.dealt
        cfg = self.row.config
        declared = {"sexes": cfg.get("sexes"), "houses": cfg.get("houses")}
        g = deal(self.setup, fair_chance(self.fair), self.rules)
        cfg["sexes"], cfg["houses"] = g.setup.sexes, g.setup.houses
        self.fair["declared"] = declared
        self.fair["dealt"] = True
        self.setup = g.setup
        self.game = g
        self.dealt = True
        self.log_pos = len(g.log)
        self.stored_chance = len(self.deal_chance())
        self.committed_version = g.version
        self.decided_at = self.clock.monotonic()

    def _deal_due(self) -> float | None:
        """When the entropy window closes (monotonic): now (-inf) once every person's seat has given its
        entropy or has a bot called in for it, else when the last seat still missing stops being waited
        for: a seat nobody has opened `join_seconds` after a person first sat down (its first-join grace),
        any other `away_seconds` after; None while nobody has sat down."""
        assert self.fair is not None
        entropy = self.fair["entropy"]
        missing = [s for s in self.humans if entropy[s] is None and s not in self.called_in]
        if not missing:
            return -math.inf
        if self.first_seated is None:
            return None
        unjoined = min(self.join_seconds, self.away_seconds)
        grace = [unjoined if not self.row.seats[s].claimed else self.away_seconds for s in missing]
        return self.first_seated + max(grace)

    async def _await_deal(self) -> None:
        """Wait for the entropy window to close, then deal and store the deal (`_deal`); meanwhile tell
        everyone when a bot comes in for a seat, which the deal then no longer waits for."""
        while not self.dealt and not self.failed:
            due = self._deal_due()
            if due is not None and due <= self.clock.monotonic():
                await self._deal()
                return
            wake_at = [t for t in (due, self._next_stand_in_time()) if t is not None]
            await self.clock.wait(self.wake, min(wake_at) if wake_at else None)
            self.wake.clear()
            self._tell_stand_ins()

    async def _deal(self) -> None:
        """Deal, and store the config (entropy final, sexes and Houses drawn) with the deal's chance
        outcomes in one transaction, after any entropy still being written; nobody sees the cards before."""
        before = json.loads(json.dumps(self.row.config))
        self.config_writes += 1
        try:
            self.deal_game()
            config, chance = json.loads(json.dumps(self.row.config)), self.deal_chance()
            async with self.config_lock:
                await self.store.run(self.store.set_config, self.id, config, chance)
        except Exception as exc:  # the table stops undealt; a restart deals the same cards from the same key
            log.error("table %s: the deal could not be made or stored: %s", self.id, type(exc).__name__)
            self.failed = f"the deal could not be stored ({type(exc).__name__})"
            self.row.config.clear()
            self.row.config.update(before)
            self.fair = self.row.config["fair"]
            self.setup = table_setup(self.row)
            self.dealt = False
        finally:
            self.config_writes -= 1
        self._touch_all()
        self.on_change()
        self.wake.set()

    def give_entropy(self, seat: int, value: Any) -> None:
        """A person's entropy for a fair table's deal: checked (`clean_entropy`), final once given, public,
        and taken only before the cards are dealt. Raises MunchkinError (nothing changed) otherwise."""
        if self.failed:
            raise MunchkinError(f"this table has stopped: {self.failed}")
        if self.fair is None:
            raise MunchkinError("this table was dealt from a chosen seed (or before fair deals): it takes no entropy")
        if self.dealt:
            raise MunchkinError("the cards are dealt already: entropy can no longer be added")
        if seat not in self.humans:
            raise MunchkinError("only a person's seat gives entropy")
        if self.fair["entropy"][seat] is not None:
            raise MunchkinError("your entropy is given already, and it is final")
        self.fair["entropy"][seat] = clean_entropy(value)
        if not _loop_running():  # a test driving the table by hand: store at once
            self.store.set_config(self.id, self.row.config)
            self._touch_all()
            self.wake.set()
            return
        self.config_writes += 1

        async def write() -> None:
            try:
                async with self.config_lock:  # the config as it is now: a deal stored meanwhile is kept
                    config = json.loads(json.dumps(self.row.config))
                    await self.store.run(self.store.set_config, self.id, config)
            except Exception as exc:
                log.error("table %s: an entropy could not be stored: %s", self.id, type(exc).__name__)
            finally:
                self.config_writes -= 1
                self._touch_all()
                self.on_change()
                self.wake.set()

        task = asyncio.ensure_future(write())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def give_device_entropy(self, value: Any) -> None:
        """A pass-and-play device's entropy: one device, one source, given for each person seat that has
        none yet (a seat link's person may have given their own). Raises MunchkinError as `give_entropy`."""
        if self.fair is not None and not self.dealt:
            missing = [s for s in sorted(self.humans) if self.fair["entropy"][s] is None]
            if not missing:
                raise MunchkinError("every person's entropy is given already, and it is final")
            clean_entropy(value)  # refused before any seat takes it
            for seat in missing:
                self.give_entropy(seat, value)
            return
        self.give_entropy(min(self.humans), value)  # says why no entropy is taken now

    def fair_info(self, over: bool) -> dict[str, Any] | None:
        """What every seat and spectator may see of a fair table (`fairness.public_fair`): the secret
        only once the game is over."""
        return public_fair(self.fair, over)

    def _deal_in(self) -> float | None:
        """Seconds until a fair table deals at the latest (0: now), or None: dealt, or nobody has sat down."""
        if self.dealt or self.fair is None:
            return None
        due = self._deal_due()
        return None if due is None else round(max(0.0, due - self.clock.monotonic()), 1)
