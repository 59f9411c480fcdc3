"""Child process for the crash-safety test: plays a game through the service and prints
'ACK <seq> <world hash>' after every acknowledged (committed) request. The parent kills it
with SIGKILL at a random moment and checks the database."""

from __future__ import annotations

import asyncio
import sys

from engine.errors import CommandError
from engine.host.service import GameService
from engine.strategic import commands as cmd
from engine.strategic.world.rng import Rng
from tests.worlds import strip_world


async def main(path: str, seed: int) -> None:
    svc = await GameService.open(path, snapshot_every=7, advance_batch=3)
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
        world = await svc.live_world(game)
        seq = await svc.store.last_seq(game)
        print(f"ACK {seq} {world.hash()}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
