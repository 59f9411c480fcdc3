"""Long answers through the real bot and the fake Discord, which refuses a message of more than
2,000 characters (issue 26, finding 2): a Supply Lines player's many orders and the board of a
6-player large map come a page at a time, and pressing Next shows the rest in the same message
(the board's picture stays)."""

from __future__ import annotations

import re
from types import SimpleNamespace

from engine.supplylines import kind as supply_kind
from engine.supplylines.kind import GiveOrder
from tests.e2e.test_bot_e2e import env  # noqa: F401 - the fixture
from tests.games.strategic.e2e.test_map_buttons_e2e import press

BOARD_SEED = 1

__all__ = ["env"]


async def test_many_orders_page_through_the_next_button(env) -> None:  # noqa: F811
    from tests.games.supplylines.engine.scenario import build_state

    fake = env.fake
    # Ann holds H1 and C1...C140, an infantry in each: a hold for each is an order the rules
    # can use (a player's orders of a turn are bounded by their units and structures)
    cities = [f"C{i}" for i in range(1, 141)]
    chain = ["H1", *cities, "H2"]
    state = build_state(
        {
            "roads": " ".join(f"{a}-{b}" for a, b in zip(chain, chain[1:], strict=False)),
            "owners": {"a": " ".join(["H1", *cities]), "b": "H2"},
            "units": [f"a 1 infantry @ {c}" for c in ["H1", *cities]] + ["b 1 infantry @ H2"],
        }
    )
    state.started, state.turn_ticks, state.deadline = True, 24, 24
    state.players["a"].user, state.players["b"].user = str(env.alice.id), str(env.bob.id)
    game = await env.bot.service.create_game(
        name="Lines",
        kind="supply-lines",
        world=state,
        guild_id=str(env.guild.id),
        channel_id=str(env.channel.id),
    )
    for city in cities:
        await env.bot.service.submit(game, "a", GiveOrder(text=f"Hold@{city}"))

    added = await fake.invoke(env.alice, env.channel, "orders add", {"order": "Hold@H1"})
    assert not added.rejected and added.ephemeral
    assert added.text.startswith("Order kept: `Hold@H1`.") and len(added.text) <= 2000
    assert re.search(r"… and \d+ more orders \(page 1/2: Next ▶\)", added.text)

    listed = await fake.invoke(env.alice, env.channel, "orders list")
    assert [b["label"] for b in listed.message.buttons] == ["Next ▶"]
    first = listed.message.content
    assert "1. `Hold@C1`" in first and "141. `Hold@H1`" not in first

    turned = await press(fake, env.alice, listed, "Next ▶")
    page = turned.message
    assert page is not None and page.id == listed.message.id  # the same message, page 2
    assert "141. `Hold@H1`" in page.content and "(page 2/2)" in page.content
    assert "PopCap" in page.content and [b["label"] for b in page.buttons] == ["◀ Prev"]
    numbers = [
        int(n) for text in (first, page.content) for n in re.findall(r"^(\d+)\. ", text, re.M)
    ]
    assert numbers == list(range(1, 142))

    back = await press(fake, env.alice, turned, "◀ Prev")
    assert back.message is not None and back.message.content == first

    # the button runs the command for whoever presses it: Bob gets his own orders, never hers
    other = await press(fake, env.bob, back, "Next ▶")
    assert other.message is not None and "none yet" in other.message.content
    assert "Hold@H1" not in other.message.content and not other.message.buttons


async def answered(reply):
    """The reply with its answer in: a command that took long enough to be deferred says
    "Done: see the channel." privately first, and posts its answer in a follow-up."""
    if reply.deferred:
        await reply.wait_for_followups(1)
    return reply


async def test_the_board_of_six_players_on_a_large_map_keeps_its_picture_on_page_two(
    env,  # noqa: F811
    monkeypatch,
) -> None:
    # the generated map of a fixed seed (drawn at random otherwise: a large map's board with
    # few structures fits one message now and then, and there is no page two to turn to)
    monkeypatch.setattr(
        supply_kind, "os", SimpleNamespace(urandom=lambda n: BOARD_SEED.to_bytes(n, "big"))
    )
    fake = env.fake
    players = [env.alice, env.bob, env.carol]
    for name in ("dave", "erin", "frank"):
        user = fake.add_user(name)
        fake.add_member(env.guild, user)
        players.append(user)
    made = await fake.invoke(
        env.alice,
        env.channel,
        "game create supply-lines",
        {"name": "Large", "map": "random-large", "nations": 6},
    )
    await answered(made)
    assert not made.rejected and "6 players, large" in made.text
    game = int(made.text.split("(game ")[1].split(")")[0])
    for n, user in enumerate(players, 1):
        joined = await fake.invoke(
            user, env.channel, "game join", {"name": f"Player {n} of the long names xxxx"}
        )
        assert not joined.rejected

    shown = await answered(await fake.invoke(env.carol, env.channel, "orders board"))
    assert not shown.rejected and not shown.bot_errors
    message = next((m for m in shown.messages if m.attachments), None)
    assert message is not None
    picture, first = message.attachments[0].data, message.content
    assert picture.startswith(b"\x89PNG") and len(first) <= 2000
    assert [b["label"] for b in message.buttons] == ["Next ▶"]
    turned = await press(fake, env.carol, shown, "Next ▶")
    page = turned.message
    assert page is not None and page.id == message.id and "(page 2/2)" in page.content
    assert page.attachments and page.attachments[0].data == picture  # not drawn again
    labels = {
        line.split("`")[1]
        for text in (first, page.content)
        for line in text.splitlines()
        if line.startswith("`")
    }
    world = await env.bot.service.live_world(game)
    assert labels == set(world.board.labels())  # every structure, on the two pages
