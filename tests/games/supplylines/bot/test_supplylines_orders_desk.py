"""Supply Lines' `/orders` under a hostile or hurried player (issue 27): `/orders clear
number:` racing the player's own commands names the order it took back and never fails after
it did; every order a player can have can be taken back by its number; an AI seat's level is
one its game's kind has."""

from __future__ import annotations

from typing import Any

import pytest

from bot.context import Caller, UserError
from bot.desk import Desk
from bot.games.supplylines.cogs.orders import OrdersCog
from bot.games.supplylines.orders import Orders
from engine.host.service import GameService
from engine.supplylines.commands import MOST_ORDERS
from engine.supplylines.kind import ClearOrders, GiveOrder
from tests.games.supplylines.engine.scenario import build_state

GUILD, CHANNEL = "10", "11"
ANN = Caller("100", "ann", GUILD, CHANNEL)


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "desk.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def game_of(desk: Desk, units: int) -> int:
    """Ann with `units` infantry in C1 (each can move on its own: an order each)."""
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2 C1-C3",
            "owners": {"a": "H1 C1", "b": "H2"},
            "units": [f"a {units} infantry @ C1", "b 1 infantry @ H2"],
        }
    )
    state.started, state.deadline = True, 96
    state.players["a"].user, state.players["b"].user = "100", "200"
    return await desk.service.create_game(
        name="Race", kind="supply-lines", world=state, guild_id=GUILD, channel_id=CHANNEL
    )


def racing(desk: Desk, monkeypatch: pytest.MonkeyPatch, before: list) -> None:
    """The player's next `/orders clear number:` finds these commands of theirs committed
    just before its own (two interactions at once: the others' after the desk read the board
    as it was, before this one)."""
    submit = desk.service.submit

    async def first_the_others(game_id: int, nation: str, command: Any, **options: Any) -> Any:
        if isinstance(command, ClearOrders) and before:
            while before:
                await submit(game_id, nation, before.pop(0))
        return await submit(game_id, nation, command, **options)

    monkeypatch.setattr(desk.service, "submit", first_the_others)
    assert desk.ctx.service is desk.service


async def test_a_clear_racing_another_clear_names_the_order_it_took_back(desk, monkeypatch) -> None:
    game = await game_of(desk, 3)
    one, two, three = "1 Infantry @ C1 > C2", "1 Infantry @ C1 > C3", "1 Infantry @ C1 > H1"
    for text in (one, two, three):
        await desk.part(Orders).orders_add(ANN, text)
    racing(
        desk, monkeypatch, [ClearOrders(number=1)]
    )  # another interaction took order 1 back first
    reply = await desk.part(Orders).orders_clear(ANN, 2)
    world = await desk.service.live_world(game)
    assert [o.text() for o in world.orders["a"]] == [two]
    assert reply.text.startswith(f"Order taken back: `{three}`.")  # what went, not `two`
    assert f"1. `{two}`" in reply.text


async def test_a_clear_racing_an_add_does_not_fail_after_it_took_the_order_back(
    desk, monkeypatch
) -> None:
    game = await game_of(desk, 2)
    one, two = "1 Infantry @ C1 > C2", "1 Infantry @ C1 > C3"
    await desk.part(Orders).orders_add(ANN, one)
    racing(
        desk, monkeypatch, [GiveOrder(text=two)]
    )  # added meanwhile: the board read had one order
    reply = await desk.part(Orders).orders_clear(ANN, 2)
    assert reply.text.startswith(f"Order taken back: `{two}`.")
    world = await desk.service.live_world(game)
    assert [o.text() for o in world.orders["a"]] == [one]


async def test_every_order_a_player_can_have_can_be_taken_back_by_its_number(desk) -> None:
    # 260 infantry in C1: 260 moves of one unit each, then more (holds), all within what the
    # rules could use; the last is taken back by its number, past the old limit of 200
    game = await game_of(desk, 260)
    for _ in range(259):
        await desk.service.submit(game, "a", GiveOrder(text="1 Infantry @ C1 > C2"))
    await desk.part(Orders).orders_add(ANN, "1 Infantry @ C1 > C3")
    reply = await desk.part(Orders).orders_clear(ANN, 260)
    assert reply.text.startswith("Order taken back: `1 Infantry @ C1 > C3`.")
    assert len((await desk.service.live_world(game)).orders["a"]) == 259
    with pytest.raises(UserError, match="you have no order 261 \\(you have 259 this turn\\)"):
        await desk.part(Orders).orders_clear(ANN, 261)
    # the slash command offers every number the rules allow
    option = next(p for p in OrdersCog.clear.parameters if p.name == "number")
    assert option.max_value == MOST_ORDERS >= 260


async def test_a_supply_lines_ai_seat_has_its_kinds_level(desk) -> None:
    reply = await desk.lifecycle.game_create(ANN, "Duel", kind="supply-lines", nations=2)
    game = reply.refresh_game
    assert game is not None
    with pytest.raises(UserError, match="Supply Lines has one AI level, normal"):
        await desk.lifecycle.game_add_ai(ANN, "Hal", level="easy")
    assert (await desk.service.summary(game)).nations == {}  # no seat that never plays
    added = await desk.lifecycle.game_add_ai(ANN, "Hal")
    assert "**Hal** (AI) joins" in added.text
    row = await desk.service.game(game)
    assert list(row.settings["ai"].values()) == ["normal"]
