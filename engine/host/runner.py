"""AI seats in stored games, for every game kind with an AI (`GameKind.ai`): at each tick at
most, each AI nation of a running game that does not rest (`Ai.resting`: Strategic
Initiative's decides once a game hour, Supply Lines' in each phase it must act in) decides from
its nation's view and submits its commands through the service, like a player. Which nations the AI plays is in
the game's settings: {"ai": {nation: style}} (for Strategic Initiative "normal" or "easy" for
AI nations, "caretaker" for a player's nation while they are away)."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from engine.errors import CommandError, GameError
from engine.host.store import GameRow, LeaseHeld, LeaseLost
from engine.interface.kind import kind as kind_named
from engine.loops import every

from .service import GameService

log = logging.getLogger(__name__)


class AiRunner:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.memories: dict[tuple[int, str], Any] = {}
        self.last_tick: dict[tuple[int, str], int] = {}
        # game -> (its row, when its next tick is due) as its seats last had their turn in full
        self._done: dict[int, tuple[GameRow, float]] = {}

    async def run_once(self) -> int:
        """Decide for every AI seat whose game hour moved on; returns commands accepted.

        A game whose row and tick are as when its seats last had their turn in full is passed
        over without a look at it: its hour has not moved on, so none of its seats would decide
        (its tick is known from memory by when its next tick is due, `next_tick_at`; a game
        not in memory, or standing still, is looked at)."""
        accepted = 0
        done: dict[int, tuple[GameRow, float]] = {}
        for game in await self.service.games(status=["running"], mine=True):
            seats = game.settings.get("ai") or {}
            if not seats:
                continue
            at = self.service.next_tick_at(game.id)  # before the turn: a tick meanwhile shows
            mark = None if at is None or not math.isfinite(at) else (game, at)
            if mark is not None and self._done.get(game.id) == mark:
                done[game.id] = mark
                continue
            try:
                accepted += await self._game(game.id, game.kind, seats)
            except asyncio.CancelledError:
                raise
            except (LeaseHeld, LeaseLost):  # another process runs the game, and its AI seats
                continue
            except Exception:
                log.exception("AI turn in game %s failed", game.id)
                continue
            if mark is not None and self.service.next_tick_at(game.id) == at:  # no tick since
                done[game.id] = mark
        self._done = done
        return accepted

    async def _game(self, game_id: int, kind: str, seats: dict[str, str]) -> int:
        ai = kind_named(kind).ai
        if ai is None:
            return 0
        accepted = 0
        game = await self.service.summary(game_id)
        for nation, style in sorted(seats.items()):
            key = (game_id, nation)
            n = game.nations.get(nation)
            if n is None or n.out or game.ended or style not in ai.styles:
                continue
            # asked once a tick at most; how often it decides is the kind's AI's (`resting`:
            # Strategic Initiative's once a game hour, Supply Lines' in every phase it must act)
            if self.last_tick.get(key) == game.tick:
                continue
            self.last_tick[key] = game.tick
            memory = self.memories.get(key)
            if memory is None:
                memory = self.memories[key] = ai.memory()
            if ai.resting(memory, style, game.tick, game.ticks_per_hour):
                continue
            view = await self.service.view(game_id, nation)
            for command in ai.decide(view, memory, style):
                try:
                    await self.service.submit(game_id, nation, command)
                    accepted += 1
                except (CommandError, GameError):
                    ai.failed(memory, command, view)
            game = await self.service.summary(game_id)
        return accepted

    async def run_forever(self, interval: float = 2.0) -> None:
        """Give the AI seats their turns every `interval` seconds, forever; cancel the task to
        stop (a failing pass is logged and the next one goes on)."""
        await every(interval, self.run_once, name="AI pass", logger=log)
