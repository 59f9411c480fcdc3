"""Supply Lines through the real bot and the fake Discord: a game created with `kind:`, joined,
orders given (with suggestions) and submitted by both players, each turn's report by DM, and a
supply question answered in its DM's select menu."""

from __future__ import annotations

from tests.e2e.test_bot_e2e import env, eventually  # noqa: F401 - the fixture

__all__ = ["env"]


async def test_a_supply_lines_game_through_discord(env) -> None:  # noqa: F811
    fake = env.fake
    reply = await fake.invoke(
        env.alice,
        env.channel,
        "game create supply-lines",
        {"name": "Lines", "nations": 2, "turn_hours": 6},
    )
    assert not reply.ephemeral and "Supply Lines on Duel (2 players)" in reply.text
    game = int(reply.text.split("(game ")[1].split(")")[0])
    joined = await fake.invoke(env.alice, env.channel, "game join", {"name": "Ann"})
    assert "your home city is H1" in joined.text
    joined = await fake.invoke(env.bob, env.channel, "game join", {"name": "Bob"})
    assert "has started" in joined.text
    await fake.wait_for_dm(env.alice, lambda m: "The game has started" in m.content, timeout=10)

    # turn 1: suggestions, an order each, both submit
    offered = await fake.autocomplete(
        env.alice, env.channel, "orders", subcommand="add", focused="order", value="H1 >"
    )
    assert {"H1 > C1", "H1 > C2"} <= {c["value"] for c in offered}
    added = await fake.invoke(env.alice, env.channel, "orders add", {"order": "H1 > C1"})
    assert added.ephemeral and "Order kept: `H1 > C1`" in added.text
    refused = await fake.invoke(env.alice, env.channel, "orders add", {"order": "H1 > H2"})
    assert refused.ephemeral and "H2 is not next to H1" in refused.text
    await fake.invoke(env.bob, env.channel, "orders add", {"order": "H2 > C4"})
    waiting = await fake.invoke(env.alice, env.channel, "orders submit")
    assert "Waiting for Bob" in waiting.text
    done = await fake.invoke(env.bob, env.channel, "orders submit")
    assert "turn 1 has resolved" in done.text
    report = await fake.wait_for_dm(env.alice, lambda m: "Turn 1:" in m.content, timeout=10)
    assert "You took C1." in report.content and "Bob took C4" in report.content
    assert report.attachments and report.attachments[0].data.startswith(b"\x89PNG\r\n\x1a\n")
    # and the board is posted in the game's channel for everyone
    await eventually(
        lambda: any(
            "turn 1 has resolved" in m.content and m.attachments
            for m in fake.channel_messages(env.channel)
        ),
        timeout=10,
    )

    # turn 2: Ann builds at home; two units on one line: she is asked which to supply
    await fake.invoke(env.alice, env.channel, "orders add", {"order": "Build 1 Infantry@H1"})
    await fake.invoke(env.alice, env.channel, "orders submit")
    last = await fake.invoke(env.bob, env.channel, "orders submit")
    # the turn that resolved is named, not the one before (it waits for the supply answer)
    assert "turn 2's moves have resolved" in last.text and "turn 1" not in last.text
    asked = await fake.wait_for_dm(
        env.alice, lambda m: "Supply for turn 2" in m.content and m.components, timeout=10
    )
    world = await env.bot.service.live_world(game)
    assert world.phase == "supply"
    newest = max(u.id for u in world.units_of("ann"))
    answer = await fake.select(env.alice, asked, f"sl:supply:{game}:2", [str(newest)])
    assert f"goes to units {newest}" in answer.text
    await eventually(lambda: env.bot.service.next_tick_at(game) is not None)
    world = await env.bot.service.live_world(game)
    assert world.phase == "orders" and world.turn == 2
    assert world.units[newest].marks == 0
    assert [u.marks for u in world.units_of("ann") if u.id != newest] == [1]
    await fake.wait_for_dm(env.bob, lambda m: "Orders for turn 3" in m.content, timeout=10)
    # the menu again, now the question is over: a clear answer, nothing changes
    late = await fake.select(env.alice, asked, f"sl:supply:{game}:2", [str(newest)])
    assert "is over" in late.text
    # Bob never saw Ann's question
    assert not any("Supply for turn" in m.content for m in fake.dms(env.bob))
