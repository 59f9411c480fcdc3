"""The server's standings, as the original game's rankings page: every ended game's result is
recorded once (`BotStore.add_result`: by the process that ended it, or by the first `/stats`
that finds it missing, after a crash), and each player's games, wins and rating are worked out
from the server's results in the order they ended.

**The rating** (docs/RULES.md, "Standings"): Elo, generalised to games of several players by
their finishing order, pairwise: every two rated players of a game are a match that the one
placed higher won (a shared place is a draw); a player's change is K/(n-1) times the sum over
the n-1 others of (score - expected score), so a game moves a rating by at most K whatever
its size. Everyone starts at 1500, K = 32, a 400-point gap means 10 to 1: the original's
constants. Unlike the original's team Elo, a game's changes add up to zero. Players of the AI
and nations nobody leads at the end are not rated (the original skipped its bots); a game with
one rated player counts as played (and won, if first) and moves no rating."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass

from bot.context import Caller, Context, Reply, UserError
from bot.game_side import side
from bot.store import BotStore, ResultRow
from engine.host.rows import GameRow
from engine.interface.entries import AI_PLAYER
from renderers import chart

START = 1500.0
K = 32.0
SCALE = 400.0
SHOWN = 20  # players listed by /stats server


@dataclass
class Standing:
    user_id: str
    games: int = 0
    wins: int = 0
    rating: float = START


def expected(mine: float, theirs: float) -> float:
    """The expected score of a player rated `mine` against one rated `theirs`."""
    return 1.0 / (1.0 + 10 ** ((theirs - mine) / SCALE))


def rated(result: ResultRow) -> list[tuple[str, int]]:
    """(user id, place: 0 is first) of each rated player of a game, once each."""
    seen: dict[str, int] = {}
    for place, group in enumerate(result.places):
        for nation in group:
            player = nation.get("player")
            if player and player != AI_PLAYER and player not in seen:
                seen[player] = place
    return list(seen.items())


def standings(results: Iterable[ResultRow]) -> dict[str, Standing]:
    """Every rated player's games, wins and rating after these results (oldest first)."""
    table: dict[str, Standing] = {}
    for result in results:
        players = rated(result)
        for user, place in players:
            s = table.setdefault(user, Standing(user))
            s.games += 1
            s.wins += place == 0
        if len(players) < 2:
            continue
        before = {user: table[user].rating for user, _ in players}
        share = K / (len(players) - 1)
        for user, place in players:
            change = 0.0
            for other, their_place in players:
                if other == user:
                    continue
                score = 1.0 if place < their_place else 0.5 if place == their_place else 0.0
                change += score - expected(before[user], before[other])
            table[user].rating = before[user] + share * change
    return table


def ranked(table: dict[str, Standing]) -> list[Standing]:
    """Best rating first (then more wins, more games, the user id: a stable order)."""
    return sorted(table.values(), key=lambda s: (-s.rating, -s.wins, -s.games, s.user_id))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Standings:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def store(self) -> BotStore:
        return BotStore.of(self.ctx.service.store)

    async def record(self, game_id: int, *, now: float | None = None) -> bool:
        """Record an ended game's result (once: True if this call did)."""
        service = self.ctx.service
        row = await service.game(game_id)
        if row.status != "ended":
            return False
        summary = await service.summary(game_id)
        places = await side(row.kind).places(service, game_id)
        shown = [
            [
                {
                    "nation": n,
                    "name": summary.nations[n].shown,
                    "player": summary.nations[n].player,
                }
                for n in group
                if n in summary.nations
            ]
            for group in places
        ]
        result = ResultRow(
            row.id,
            row.guild_id,
            row.kind,
            row.name,
            time.time() if now is None else now,
            # an empty first place says nobody won (every nation lost); other empty places go
            shown[:1] + [g for g in shown[1:] if g],
        )
        return await self.store.add_result(result)

    async def _results(self, guild_id: str | None) -> list[ResultRow]:
        """The server's results, with any ended game's that is missing recorded first (a
        process that stopped between a game's end and its record)."""
        results = await self.store.results(guild_id)
        known = {r.game_id for r in results}
        missing = [
            g
            for g in await self.ctx.service.games(status=["ended"], guild_id=guild_id)
            if g.id not in known
        ]
        if not missing:
            return results
        for game in missing:
            await self.record(game.id)
        return await self.store.results(guild_id)

    # --- /stats -------------------------------------------------------------------------------

    async def player(self, caller: Caller, user_id: str | None = None) -> Reply:
        who = user_id or caller.user_id
        table = standings(await self._results(caller.guild_id))
        found = table.get(who)
        if found is None:
            whose = "You have" if who == caller.user_id else f"<@{who}> has"
            return Reply(text=f"{whose} finished no game on this server yet.")
        order = ranked(table)
        rank = next(i for i, s in enumerate(order, 1) if s.user_id == who)
        return Reply(
            text=f"<@{who}>: {_plural(found.games, 'game')}, {_plural(found.wins, 'win')}, "
            f"rating **{found.rating:.0f}** ({_ordinal(rank)} of {len(order)} on this server; "
            f"everyone starts at {START:.0f}).",
            ephemeral=False,
        )

    async def server(self, caller: Caller) -> Reply:
        results = await self._results(caller.guild_id)
        order = ranked(standings(results))
        if not order:
            return Reply(text="No game has ended on this server yet: the standings are empty.")
        lines = [
            f"**Standings** ({_plural(len(results), 'game')} played here; everyone starts at "
            f"{START:.0f})"
        ]
        for i, s in enumerate(order[:SHOWN], 1):
            lines.append(
                f"{i}. <@{s.user_id}> **{s.rating:.0f}**: "
                f"{_plural(s.games, 'game')}, {_plural(s.wins, 'win')}"
            )
        if len(order) > SHOWN:
            lines.append(f"… and {len(order) - SHOWN} more (`/stats player` for anyone's).")
        return Reply(text="\n".join(lines), ephemeral=False)

    async def game(self, caller: Caller, game_id: int) -> Reply:
        service = self.ctx.service
        if not 0 < game_id < 2**63:  # (a game's id is a positive SQL integer)
            raise UserError("There is no game of that number.")
        row = await service.find_game(game_id)
        if row is None or row.guild_id != caller.guild_id:
            raise UserError(f"There is no game {game_id} on this server.")
        if row.status != "ended":
            raise UserError(
                f"{row.name} (game {game_id}) is not over yet: its stats come at its end."
            )
        await self._results(caller.guild_id)
        result = await self.store.result(game_id)
        text = result_text(result) if result is not None else f"**{row.name}** is over."
        data = await self.charts(row)
        files = [(f"stats-{game_id}.png", data)] if data is not None else []
        return Reply(text=text, files=files, ephemeral=False)

    async def charts(self, row: GameRow) -> bytes | None:
        """An ended game's charts as a picture (None: it has none): its measures as kept in
        the bot store, worked out from its history the first time (at its end; or, for a game
        that ended before they were kept, at the first `/stats game`), so a game is replayed
        once, not at every look."""
        kept = await self.store.charts(row.id)
        if kept is None:
            first, entries = await self.ctx.service.history(row.id)
            found = await asyncio.to_thread(side(row.kind).measures, first, entries)
            kept = (found or chart.NONE).to_json()
            await self.store.add_charts(row.id, kept)
        return await asyncio.to_thread(chart.draw, chart.Charts.from_json(kept), row.name)


def result_text(result: ResultRow) -> str:
    """An ended game's places, best first, as the channel and `/stats game` show them."""
    lines = [f"**{result.name}**: the result"]
    for i, group in enumerate(result.places, 1):
        if not group:
            lines.append("Nobody won: every nation lost.")
            continue
        names = ", ".join(
            n["name"]
            + (f" (<@{n['player']}>)" if n.get("player") and n["player"] != AI_PLAYER else "")
            for n in group
        )
        lines.append(f"{_ordinal(i)}: {names}")
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
