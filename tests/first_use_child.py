"""A fresh bot process for tests/bot/test_first_use.py: the bot's start-up (`bot.client.prepare`,
what `si bot` does before its store and Discord), then each game's first commands and pictures
through the desk (pictures drawn in this process's threads, so what they import shows here).
Prints, as JSON, the modules those commands imported: none, when start-up loaded them all."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile


async def first_commands() -> list[str]:
    from bot.context import Caller
    from bot.desk import Desk
    from engine.host.service import GameService
    from renderers import pool

    pool.configure(0)  # pictures in threads of this process
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(f"{folder}/g.db", synchronous="NORMAL")
        desk = Desk(service)
        before = set(sys.modules)
        await strategic(desk, Caller("1", "ann", "9", "8"), Caller("2", "bob", "9", "8"))
        await supply_lines(desk, Caller("1", "ann", "9", "7"), Caller("2", "bob", "9", "7"))
        await service.close()
        await pool.shutdown()
    return sorted(set(sys.modules) - before)


async def strategic(desk, ann, bob) -> None:
    from bot.games.strategic.intel import Intel
    from bot.games.strategic.playing import Playing

    await desk.lifecycle.game_create(ann, "War", nations=2, speed="test (x360)")
    await desk.lifecycle.game_join(ann, "Red", "red")
    await desk.lifecycle.game_join(bob, "Blue", "blue")
    await desk.part(Intel).status(ann)
    picture = await desk.part(Intel).map(ann)
    assert picture.files[0][1].startswith(b"\x89PNG")
    view = await desk.ctx.view(1, "red")
    unit = next(iter(view.own_units()))
    x, y = unit.sq % view.width, unit.sq // view.width
    await desk.part(Playing).move(ann, str(unit.id), f"{x},{(y + 1) % view.height}")


async def supply_lines(desk, ann, bob) -> None:
    from bot.games.supplylines.orders import Orders

    await desk.lifecycle.game_create(ann, "Duel", kind="supply-lines", nations=2, turn_hours=12)
    await desk.lifecycle.game_join(ann, "Ann")
    await desk.lifecycle.game_join(bob, "Bob")
    await desk.part(Orders).orders_add(ann, "h1>c1")
    await desk.part(Orders).orders_submit(ann)
    await desk.part(Orders).orders_submit(bob)
    board = await desk.part(Orders).orders_board(ann)
    assert board.files[0][1].startswith(b"\x89PNG")


def main() -> int:
    from bot.client import prepare

    problems = prepare()
    assert not problems, problems
    print(json.dumps(asyncio.run(first_commands())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
