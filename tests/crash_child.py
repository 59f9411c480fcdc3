"""Child process for the crash-safety test: plays a game through the service and prints
'ACK <seq> <world hash>' after every acknowledged (committed) request. The parent kills it
with SIGKILL at a random moment and checks the database.

`python -m tests.crash_child DB SEED [KIND]`: Strategic Initiative (moves and ticks on a
strip of land), or Supply Lines (four players giving random valid orders, submitting,
answering supply questions, with ticks that pass deadlines)."""

from __future__ import annotations

import asyncio
import sys

from engine.errors import CommandError, GameError
from engine.host.service import GameService
from engine.interface.kind import kind as kind_named
from engine.strategic import commands as cmd
from engine.strategic.world.rng import Rng
from tests.games.strategic.worlds import strip_world


async def strategic(svc: GameService, seed: int) -> None:
    game = await svc.create_game(name="crash", world=strip_world())
    print(f"GAME {game}", flush=True)
    rng = Rng(seed)
    targets = [(x, y) for x in range(1, 11) for y in range(1, 4)] + [
        (x, y) for x in range(13, 23) for y in range(1, 4)
    ]
    while True:
        world = await svc.live_world(game)
        if rng.randint(0, 2) == 0:
            await svc.advance(game, rng.randint(1, 5))
        else:
            nation = rng.choice(["red", "blue"])
            units = sorted(
                u.id
                for u in world.units.values()
                if u.owner == nation and world.rules.unit[u.type].moves_on == "land"
            )
            if not units:
                continue
            try:
                await svc.submit(
                    game, nation, cmd.Move(units=[rng.choice(units)], to=rng.choice(targets))
                )
            except CommandError:
                continue
        await acknowledge(svc, game)


async def supply_lines(svc: GameService, seed: int) -> None:
    import random

    from engine.supplylines.simulate import RandomPlayer

    game = await svc.create_game(
        name="crash", kind="supply-lines", map="four", max_nations=4, turn_hours=1, seed=seed
    )
    print(f"GAME {game}", flush=True)
    players = {}
    for n in range(4):
        nation = await svc.join(game, name=f"P{n}", colour="#888888", player=str(100 + n))
        players[nation] = RandomPlayer(seed * 10 + n)
    rng = random.Random(seed)
    while True:
        if rng.random() < 0.2:
            await svc.advance(game, rng.randint(1, 3))  # deadlines pass
            await acknowledge(svc, game)
            continue
        nation = rng.choice(sorted(players))
        view = await svc.view(game, nation)
        if view.ended:
            return
        for command in players[nation].commands(view):
            try:
                await svc.submit(game, nation, command)
            except (CommandError, GameError):
                continue
            await acknowledge(svc, game)


async def acknowledge(svc: GameService, game: int) -> None:
    row = await svc.game(game)
    world = await svc.live_world(game)
    seq = await svc.store.last_seq(game)
    print(f"ACK {seq} {kind_named(row.kind).hash(world)}", flush=True)


async def main(path: str, seed: int, kind: str) -> None:
    svc = await GameService.open(path, snapshot_every=7, advance_batch=3)
    if kind == "supply-lines":
        await supply_lines(svc, seed)
    else:
        await strategic(svc, seed)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else ""))
