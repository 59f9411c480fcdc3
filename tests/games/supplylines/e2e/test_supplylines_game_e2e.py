"""Issue 17's "done when": a whole Supply Lines game between two players and two AIs, through
the real bot and the fake Discord, from `/game create` to a victory.

The two players type what a casual player would: random valid orders (the simulator's
`RandomPlayer`, seeded), each with `/orders add`, then `/orders submit`; a supply question is
answered in its DM's select menu. The AI seats are filled with `/game add-ai` and played by the
bot's own AI runner. Two turns end by their deadline instead: Bob gives his orders but never
submits; a moderator lets game time run to the deadline (`/mod tick`), then, the next turn,
gives more time and resolves it at once (`/mod deadline`).

Every player's orders are a function of their view of the turn alone, and a turn's outcome
does not depend on when orders arrive: so the game through Discord must end exactly as the
same four players' game in the engine's simulator (checked at the end), which for these seeds
has captures, supply questions for both players, bump-back chains the players are caught in,
and an AI's victory by control of every city (all of it seen here as the players see it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import pytest

from engine.supplylines.kind import ChooseSupply, ClearOrders, GiveOrder, SubmitOrders
from engine.supplylines.simulate import RandomPlayer, play
from tests.e2e.test_bot_e2e import env, eventually  # noqa: F401 - the fixture

__all__ = ["env"]

SEEDS = {"ann": 1, "bob": 2}  # the players' dice (the simulator's seats 1 and 2 of seed 0)
GIVE_UP = 120.0  # seconds (the game takes about 10)


async def until(check: Callable[[], Awaitable[bool]], timeout: float = 60.0) -> None:
    """Wait for the background passes to bring `check` about (generous: a loaded CI machine
    runs them late; a condition that never comes still fails)."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


@pytest.mark.slow
async def test_two_players_and_two_ais_play_a_whole_game_through_discord(env) -> None:  # noqa: F811
    fake, channel, service = env.fake, env.channel, env.bot.service
    made = await fake.invoke(
        env.alice,
        channel,
        "game create supply-lines",
        {"name": "Four Winds War", "map": "four", "turn_hours": 1},
    )
    assert "Supply Lines on Four Winds (4 players)" in made.text, made.text
    game = int(made.text.split("(game ")[1].split(")")[0])
    assert (
        "home city is H1"
        in (await fake.invoke(env.alice, channel, "game join", {"name": "Ann"})).text
    )
    assert (
        "home city is H2"
        in (await fake.invoke(env.bob, channel, "game join", {"name": "Bob"})).text
    )
    for name in ("Robot 1", "Robot 2"):
        added = await fake.invoke(env.alice, channel, "game add-ai", {"name": name})
        assert f"{name}** (AI) joins" in added.text, added.text
    assert (await service.game(game)).status == "running"
    humans = {"ann": env.alice, "bob": env.bob}
    dice = {nation: RandomPlayer(seed) for nation, seed in SEEDS.items()}
    answered: list[tuple[int, str]] = []  # (turn, player): supply questions answered in menus

    async def ais_ready(turn: int) -> bool:
        summary, view = await service.summary(game), await service.full_view(game)
        if view.ended or (view.turn, view.phase) != (turn, "orders"):
            return True  # the players are out: the AI players alone play on (and end it)
        robots = [n.id for n in summary.nations.values() if n.player == "ai" and not n.out]
        assert len(robots) == 2
        return all(view.players[n].submitted for n in robots)

    async def phase_over(turn: int, phase: str) -> bool:
        summary = await service.summary(game)
        return (
            summary.ended
            or summary.turn is None
            or (summary.turn.number, summary.turn.phase) != (turn, phase)
        )

    give_up = time.monotonic() + GIVE_UP
    while True:
        assert time.monotonic() < give_up, "the game did not end in time"
        summary = await service.summary(game)
        if summary.ended:
            break
        if summary.turn is None or summary.turn.phase != "orders":
            await asyncio.sleep(0.02)  # the AI players alone are between phases
            continue
        turn = summary.turn.number
        await until(partial(ais_ready, turn))  # the AI seats order as soon as a turn begins
        withheld = turn in (2, 3)  # Bob's orders are in, his submission is not
        for nation, user in humans.items():
            view = await service.view(game, nation)
            if view.players[nation].out:
                continue
            commands: list[Any] = dice[nation].commands(view)
            for command in commands:
                if isinstance(command, GiveOrder):
                    reply = await fake.invoke(user, channel, "orders add", {"order": command.text})
                    assert reply.ephemeral and "Order kept" in reply.text, reply.text
                elif isinstance(command, ClearOrders):
                    await fake.invoke(user, channel, "orders clear")
                elif isinstance(command, SubmitOrders) and not (withheld and nation == "bob"):
                    reply = await fake.invoke(user, channel, "orders submit")
                    assert "Submitted" in reply.text, reply.text
        if withheld:
            assert not await phase_over(turn, "orders")  # everyone but Bob: the turn waits
            board = await fake.invoke(env.carol, channel, "game info")
            assert f"turn {turn}, orders (3/4 submitted) until" in board.text, board.text
            if turn == 2:  # game time runs to the deadline: the turn resolves without Bob
                ticked = await fake.invoke(env.mod, channel, "mod tick", {"ticks": 4})
                assert "moved Four Winds War on 4 ticks" in ticked.text, ticked.text
            else:  # more time, then the moderator resolves it at once
                later = await fake.invoke(env.mod, channel, "mod deadline", {"hours": 2})
                # turn 3 began at 01:00 (turn 2's deadline) with an hour to go: 02:00, now 04:00
                assert "2 more hours: the deadline is now day 1 04:00" in later.text, later.text
                assert not await phase_over(turn, "orders")
                now = await fake.invoke(env.mod, channel, "mod deadline", {"now": True})
                assert not now.text.startswith("Only"), now.text
        await until(partial(phase_over, turn, "orders"))

        summary = await service.summary(game)
        if summary.turn is not None and summary.turn.phase == "supply":
            for nation, user in humans.items():
                view = await service.view(game, nation)
                if not view.questions:
                    continue
                asked = await fake.wait_for_dm(
                    user,
                    lambda m, turn=turn: (
                        f"Supply for turn {turn}" in m.content and bool(m.components)
                    ),
                    timeout=10,
                )
                (choice,) = dice[nation].commands(view)
                assert isinstance(choice, ChooseSupply)
                picked = await fake.select(
                    user, asked, f"sl:supply:{game}:{turn}", [str(i) for i in choice.units]
                )
                assert f"Supply for turn {turn} goes to units" in picked.text, picked.text
                answered.append((turn, nation))
            await until(partial(phase_over, turn, "supply"))
        # each player still in hears the turn, from their side
        for user in humans.values():
            await fake.wait_for_dm(
                user, lambda m, turn=turn: f"Turn {turn}:" in m.content, timeout=10
            )

    summary = await service.summary(game)
    # the same players in the engine's simulator: the same game, turn for turn
    alone = play(
        "four", {1: RandomPlayer(SEEDS["ann"]), 2: RandomPlayer(SEEDS["bob"]), 3: "ai", 4: "ai"}
    )
    world_turns = (await service.full_view(game)).turn - 1  # the view's: the one being played
    assert (alone.reason, alone.turns) == ("victory", world_turns)
    winner = ["ann", "bob", "robot-1", "robot-2"][alone.winner - 1] if alone.winner else None
    assert winner is not None and winner.startswith("robot")
    name = summary.nations[winner].name

    for user in humans.values():  # the end reaches everyone who played
        await fake.wait_for_dm(
            user, lambda m: f"The game is over: {name} won (victory)." in m.content, timeout=10
        )
    told = {n: "\n".join(m.content for m in fake.dms(u)) for n, u in humans.items()}
    both = told["ann"] + told["bob"]
    assert "You took" in both  # captures
    assert "took" in both and "from you" in both  # and losses
    assert "round 2: units bumped back made it" in both  # a bump-back chain they were in
    assert "bumped back to" in both
    assert answered  # supply questions, answered in their DM's select menu
    # the channel: a board after every turn, the whole game as an animation at the end
    await eventually(
        lambda: any(
            a.filename.endswith(".gif")
            for m in fake.channel_messages(channel)
            for a in m.attachments
        ),
        timeout=20,
    )

    def boards() -> list:
        return [
            m
            for m in fake.channel_messages(channel)
            if "has resolved" in m.content and m.attachments
        ]

    # (the last turns' boards may still be on their way, each a picture drawn and posted)
    await eventually(lambda: len(boards()) >= world_turns - 1, timeout=30)
    assert (await service.game(game)).status == "ended"
    final = await fake.invoke(env.carol, channel, "game info")
    assert "Status: **ended**" in final.text, final.text
