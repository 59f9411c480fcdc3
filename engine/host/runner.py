"""AI seats in stored games, for every game kind with an AI (`GameKind.ai`): at each tick at
most, each AI nation of a running game that does not rest (`Ai.resting`, the kind's own: e.g.
once a game hour, or in each phase of a turn it must act in) decides from its nation's view
and submits its commands through the service, like a player; a decision is tied to the turn
and phase its view showed, and what is left of it once the game has moved on is dropped
(`MovedOn`), not given in the next turn. Which nations the AI plays is in the game's settings:
{"ai": {nation: style}}, a style being one of the kind's `Ai.styles` (e.g. "normal" or "easy"
for AI nations, "caretaker" for a player's nation while they are away)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.errors import CommandError, GameError
from engine.host.rows import GameRow, LeaseHeld, LeaseLost
from engine.interface.kind import kind as kind_named
from engine.loops import Turns, every, in_thread

from .service import GameService, MovedOn

log = logging.getLogger(__name__)
# passes over a game's seats at most in one run: a round whose commands begin a new turn is
# followed by one for that turn (and one more, should that begin another phase at once)
ROUNDS = 3


class AiRunner:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.memories: dict[tuple[int, str], Any] = {}
        self.last_tick: dict[tuple[int, str], object] = {}  # the moment each seat was asked
        # game -> (its row, when its next tick is due) as its seats last had their turn in full
        self._done: dict[int, tuple[GameRow, float, int | None]] = {}
        # the games changed in memory since the last pass (`GameService.watch`): a game not
        # among them, with the same row, has the mark it had then
        self._watch = service.watch()
        # games whose seats are not asked for now (the sandbox's games played by AI seats
        # only, between the turns the onlooker asks for), and the rounds a pass may play
        self.held: set[int] = set()
        self.rounds = ROUNDS
        # hold a game as soon as no seat left in it is a player's (the sandbox: its onlooker
        # then plays it on a turn at a time, instead of the AI seats playing turn after turn)
        self.hold_unattended = False
        # decisions run here, one at a time, never on the event loop: a busy hour's thousand
        # decisions leave the loop to the players (the thread takes turns with it)
        self._thinking = ThreadPoolExecutor(1, "ai")

    async def run_once(self) -> int:
        """Decide for every AI seat whose game hour moved on; returns commands accepted.

        A game whose row and tick are as when its seats last had their turn in full is passed
        over without a look at it (nor a look at its clock when nothing happened in it since
        the last pass: `GameService.watch`): its hour has not moved on, so none of its seats would decide
        (its tick is known from memory by when its next tick is due, `next_tick_at`; a game
        not in memory, or standing still, is looked at)."""
        accepted = 0
        done: dict[int, tuple[GameRow, float, int | None]] = {}
        turns = Turns()
        games = await self.service.games(status=["running"], mine=True)
        changed = self._watch.take()
        for game in games:
            await turns.give()
            seats = game.settings.get("ai") or {}
            if not seats or game.id in self.held:
                continue
            last = self._done.get(game.id)
            if (
                last is not None
                and last[0] is game
                and changed is not None
                and game.id not in changed
            ):
                done[game.id] = last  # nothing happened in it since: its mark stands
                continue
            at = self.service.next_tick_at(game.id)  # before the turn: a tick meanwhile shows
            # a command meanwhile shows in the log's length (in a kind played in turns, a
            # player's submission may resolve a turn between ticks: its AI seats then have
            # orders to give)
            seq = self.service.seq_in_memory(game.id)
            mark = None if at is None or not math.isfinite(at) else (game, at, seq)
            if mark is not None and self._done.get(game.id) == mark:
                done[game.id] = mark
                continue
            try:
                mine, settled = await self._game(game.id, game.kind, seats)
                accepted += mine
            except asyncio.CancelledError:
                raise
            except (LeaseHeld, LeaseLost):  # another process runs the game, and its AI seats
                continue
            except Exception:
                log.exception("AI turn in game %s failed", game.id)
                continue
            if mark is not None and self.service.next_tick_at(game.id) == at:  # no tick since
                after = self.service.seq_in_memory(game.id)
                if settled and seq is not None and after == seq + mine:
                    # only its seats' own commands since, and none left to give
                    mark = (mark[0], mark[1], after)
                done[game.id] = mark
        self._done = done
        return accepted

    async def _game(self, game_id: int, kind: str, seats: dict[str, str]) -> tuple[int, bool]:
        """Each seat's turn; again while their own commands move the game to a new moment
        (in a kind played in turns, the last AI answer of a turn's phase may begin the next
        turn, in which every AI seat has orders to give: they give them now, not a tick later).
        Returns the commands accepted, and whether the seats are done for now (False: the
        rounds ran out with commands still coming, as when only AI players are left and each
        round resolves a turn; the next pass goes on)."""
        accepted = 0
        if self.hold_unattended and await self.unattended(game_id, seats):
            self.held.add(game_id)
            return 0, True
        for _ in range(self.rounds):
            mine, moved_on = await self._seats(game_id, kind, seats)
            accepted += mine
            if mine == 0 and not moved_on:
                return accepted, True
        return accepted, False

    async def unattended(self, game_id: int, seats: dict[str, str]) -> bool:
        """Whether every nation still in the game is played by an AI seat (an AI nation, or
        a caretaker for a player who is away or resigned)."""
        game = await self.service.summary(game_id)
        return not game.ended and all(
            n.out or nation in seats for nation, n in game.nations.items()
        )

    async def _seats(self, game_id: int, kind: str, seats: dict[str, str]) -> tuple[int, bool]:
        """Each seat's decision, if it decides now; returns the commands accepted, and whether
        a decision was cut short because the game moved on meanwhile (its seats then decide
        again for where the game is now)."""
        ai = kind_named(kind).ai
        if ai is None:
            return 0, False
        accepted = 0
        moved_on = False
        game = await self.service.summary(game_id)
        for nation, style in sorted(seats.items()):
            key = (game_id, nation)
            n = game.nations.get(nation)
            if n is None or n.out or game.ended or style not in ai.styles:
                continue
            # asked once a tick (and turn phase) at most; how often it decides is the kind's
            # AI's (`resting`: e.g. once a game hour, or in every phase of a turn it must act
            # in, which may begin between ticks when everyone has submitted)
            moment = (game.tick, game.turn.number, game.turn.phase) if game.turn else game.tick
            if self.last_tick.get(key) == moment:
                continue
            self.last_tick[key] = moment
            memory = self.memories.get(key)
            if memory is None:  # this process's first look at the seat: as it was stored
                stored = await self.service.store.ai_memory(game_id, nation)
                memory = ai.memory() if stored is None else ai.restore(stored)
                memory = self.memories.setdefault(key, memory)
            if ai.resting(memory, style, game.tick, game.ticks_per_hour):
                continue
            # the decision is tied to the turn and phase its view shows: if it reaches the game
            # after a deadline (the next turn, or its next phase), all of it is dropped and the
            # seat decides again for the new moment (given in the next turn, its commands
            # would stand for orders never decided for it)
            view, at = await self.service.decision_view(game_id, nation, pool=self._thinking)
            commands = await in_thread(self._thinking, ai.decide, view, memory, style)
            # applied in the AI's thread too and committed together: a busy hour's thousands
            # of AI commands neither hold the event loop nor take a transaction each
            outcomes: Sequence[object]
            try:
                outcomes = await self.service.submit_all(
                    game_id, nation, commands, moment=at, pool=self._thinking
                )
            except MovedOn:
                moved_on = True
                outcomes = []
            except (CommandError, GameError) as exc:  # (the game stopped running meanwhile)
                outcomes = [exc] * len(commands)
            except BaseException:
                # not refused but not done either (the store failed, the lease was lost, the
                # pass was cancelled): the decision was never given, so the AI hears of each
                # command, and its seat is asked again
                for command in commands:
                    ai.failed(memory, command, view)
                self.last_tick.pop(key, None)
                raise
            for command, outcome in zip(commands, outcomes, strict=False):
                if isinstance(outcome, (CommandError, GameError)):
                    ai.failed(memory, command, view)
                else:
                    accepted += 1
            await self.service.store.set_ai_memory(game_id, nation, ai.save(memory))
            game = await self.service.summary(game_id)
        return accepted, moved_on

    async def run_forever(self, interval: float = 2.0) -> None:
        """Give the AI seats their turns every `interval` seconds, forever; cancel the task to
        stop (a failing pass is logged and the next one goes on)."""
        await every(interval, self.run_once, name="AI pass", logger=log)
