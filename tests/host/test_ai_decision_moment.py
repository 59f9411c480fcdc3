"""An AI seat's decision is tied to the turn and phase it was made for (issue 27, finding 6):
when the game moves on between the commands of one decision (a deadline tick comes between
them), the rest of that decision is dropped, not given in the next turn, and the seat decides
again for the turn the game is now in."""

from __future__ import annotations

import pytest

from engine.errors import GameError
from engine.host.runner import AiRunner
from engine.host.service import GameService
from engine.supplylines.ai import Memory, decide
from engine.supplylines.kind import AI_PLAYER, GiveOrder, SubmitOrders
from engine.supplylines.orders import parse
from engine.supplylines.state import State


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(str(tmp_path / "ai.db"), synchronous="NORMAL")
    yield svc
    await svc.close()


async def test_a_deadline_between_a_decision_and_its_commands_costs_the_ai_no_turn(
    service,
) -> None:
    """A seat's decision is carried out whole or not at all (`submit_all`): a deadline that
    comes between the view it decided from and its commands drops all of them, and the seat
    decides again for the turn now begun, in the same pass."""
    game = await service.create_game(name="Robot", kind="supply-lines", max_nations=2, turn_hours=1)
    await service.join(game, name="Idle", colour="#c0392b", player="100")
    bot = await service.join(game, name="Robot", colour="#2980b9", player=AI_PLAYER)
    await service.update_settings(game, ai={bot: "normal"})
    submit_all = service.submit_all
    given: list[tuple[int, object]] = []  # (turn, command) of every AI command carried out
    struck: list[int] = []
    expected: list[str] = []

    async def deadline_before_the_decision_is_given(game_id, nation, commands, **kw):
        world: State = await service.live_world(game_id)
        if nation == bot and not struck:
            # the deadline tick comes now, after the seat decided, before its commands
            turn, deadline = world.turn, world.deadline
            struck.append(turn)
            assert deadline is not None
            await service.advance(game_id, deadline - world.tick)
            assert (await service.live_world(game_id)).turn == turn + 1
            # what the seat would decide for the turn now begun
            fresh = decide(await service.view(game_id, bot), Memory(), "normal")
            expected.extend(c.text for c in fresh if isinstance(c, GiveOrder))
        outcomes = await submit_all(game_id, nation, commands, **kw)
        turn = (await service.live_world(game_id)).turn
        given.extend(
            (turn, c)
            for c, o in zip(commands, outcomes, strict=True)
            if not isinstance(o, Exception)
        )
        return outcomes

    service.submit_all = deadline_before_the_decision_is_given
    runner = AiRunner(service)
    await runner.run_once()
    assert struck == [0]
    world: State = await service.live_world(game)
    # the seat gave its second turn's orders, decided from that turn's board, and submitted
    assert world.turn == 1 and bot in world.submitted
    assert expected and [o.text() for o in world.orders.get(bot, [])] == [
        parse(t, world).text() for t in expected
    ]
    # nothing decided for the first turn was given at all
    assert all(turn == 1 for turn, _ in given)
    assert sum(isinstance(c, SubmitOrders) for _, c in given) == 1
    assert [c.text for _, c in given if isinstance(c, GiveOrder)] == expected


async def test_a_command_tied_to_a_moment_is_dropped_once_the_game_moved_on(service) -> None:
    game = await service.create_game(name="Duel", kind="supply-lines", max_nations=2, turn_hours=1)
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    await service.join(game, name="Bob", colour="#2980b9", player="200")
    view, moment = await service.decision_view(game, ann)
    assert moment == (1, "orders") and (view.turn, view.phase) == (1, "orders")
    await service.submit(game, ann, GiveOrder(text="H1 > C1"), moment=moment)
    await service.advance(game, 4)  # the deadline: turn 1 resolves
    with pytest.raises(GameError, match="moved on"):
        await service.submit(game, ann, SubmitOrders(), moment=moment)
    world: State = await service.live_world(game)
    assert world.turn == 1 and ann not in world.submitted
