"""Replies and DM reports through the real bot and the fake Discord (issue 29, items 6-8): a
capture the player ordered is told once, by its reply, with the hp it cost; what comes by DM
comes once."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.strategic import commands as cmd
from engine.strategic.scenario import build_world
from tests.e2e.test_bot_e2e import running_bot, seat_world

MAP = """
~~~~~~~~~~~~~~~~~~~~
~A....N.....B......~
~..................~
~~~~~~~~~~~~~~~~~~~~
"""


@pytest.mark.slow  # (about 10 s: two DM passes, the war's with a map picture)
async def test_a_capture_is_told_once_and_each_dm_arrives_once(tmp_path) -> None:
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        world, _ = build_world(
            {
                "ruleset": "standard",
                "map": MAP,
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id), "cp": 500},
                },
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "5,1", "mobility": 6},
                    {"id": 2, "owner": "blue", "type": "infantry", "at": "12,2"},
                ],
            }
        )
        game = await seat_world(env, "Reports", world)
        hp = world.rules.unit["infantry"].hp
        loss = world.rules.capture.hp_loss
        reply = await env.fake.invoke(
            env.alice, env.channel, "attack", {"units": "1", "target": "6,1"}
        )
        assert reply.ephemeral
        assert "You captured 6,1" in reply.text
        assert f"unit 1 lost {loss} hp taking it ({hp - loss} hp left)" in reply.text
        # later news for alice, told after the capture's rows (the outbox is in order)
        await env.bot.service.submit(game, "blue", cmd.SetRelation(other="red", level="war"))
        await env.fake.wait_for_dm(
            env.alice, lambda m: "declared war on you" in m.content, timeout=10
        )
        await env.bot.service.submit(game, "blue", cmd.SetRelation(other="red", level="neutral"))
        await env.fake.wait_for_dm(
            env.alice, lambda m: "becomes **neutral**" in m.content, timeout=10
        )
        dms = [m.content for m in env.fake.dms(env.alice)]
        # the capture was the reply's: no DM repeats it
        assert not any("captured" in d for d in dms), dms
        # and every DM came once: the war declared on her is told in exactly one
        assert sum("declared war on you" in d for d in dms) == 1, dms
        repeated = [d for d, n in Counter(dms).items() if n > 1]
        assert repeated == [], repeated


NEAR = """
~~~~~~~~~~~~~~~~
~..............~
~.A......B.....~
~..............~
~~~~~~~~~~~~~~~~
"""


@pytest.mark.slow  # (about 5 s: two DM passes)
async def test_enemies_near_a_city_are_told_once_a_visit_and_never_unseen(tmp_path) -> None:
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        world, _ = build_world(
            {
                "ruleset": "standard",
                "map": NEAR,
                "explored": "all",
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id)},
                },
                "relations": [["red", "blue", "war"]],
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "3,2"},
                    # within 3 of red's city 2,2 but beyond what red sees
                    {"id": 2, "owner": "blue", "type": "tank", "at": "5,2", "mobility": 9},
                ],
            }
        )
        game = await seat_world(env, "Threats", world)
        service = env.bot.service

        async def blue_moves_to(square: str) -> None:
            move = cmd.Move.model_validate({"units": [2], "to": square})
            await service.submit(game, "blue", move)
            await service.advance(game, 1)

        await service.advance(game, 1)  # unseen: nothing
        await blue_moves_to("4,1")  # seen by the infantry
        first = await env.fake.wait_for_dm(
            env.alice, lambda m: "near your city" in m.content, timeout=10
        )
        assert "**Blue's units near your city 2,2**: tank 2 at 4,1" in first.content
        await service.advance(game, 16)  # it stays four game hours: not told again
        await blue_moves_to("7,1")  # gone
        await blue_moves_to("4,3")  # and back: told again
        await env.fake.wait_for_dm(env.alice, lambda m: "tank 2 at 4,3" in m.content, timeout=10)
        told = [m.content for m in env.fake.dms(env.alice) if "near your city" in m.content]
        assert len(told) == 2, told
        assert not any("5,2" in t for t in told), told
        # the enemy's own player is told nothing of it
        assert not any("near your city" in m.content for m in env.fake.dms(env.bob))
