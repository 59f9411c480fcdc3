"""Founding a nation through the real bot and the fake Discord (issue 31 item 1): the free
starting islands shown before joining, a join naming the country, its leader, the leader's
title, a colour and an island; refusals that change nothing; the news naming the leader; the
map in the chosen colour; and a join without choices exactly as before."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.interface.colours import PALETTE
from tests.e2e.test_bot_e2e import PNG_MAGIC, eventually, running_bot

AVALON = "#20b0c0"  # a colour of its own, not the palette's


@pytest.fixture
async def env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob", "carol"]) as env:
        opened = await env.fake.invoke(
            env.alice,
            env.channel,
            "game create strategic-initiative",
            {"name": "Founders", "nations": 3, "size": "small", "speed": "test (x360)"},
        )
        env.game = int(opened.text.split("(game ")[1].split(")")[0])
        yield env


def posted(env) -> str:
    return "\n".join(m.content for m in env.fake.channel_messages(env.channel))


async def test_a_founder_names_a_leader_chooses_an_island_and_a_colour(env) -> None:
    fake, service = env.fake, env.bot.service
    # before joining: the free islands, as a picture and as suggestions
    shown = await fake.invoke(env.alice, env.channel, "game islands")
    assert shown.ephemeral and shown.files[0].data.startswith(PNG_MAGIC)
    assert Image.open(io.BytesIO(shown.files[0].data)).width == 550
    assert "3 of 3 starting islands are free" in shown.text
    offered = await fake.autocomplete(env.alice, env.channel, "game join", focused="home")
    assert [c["value"] for c in offered] == ["1", "2", "3"]

    joined = await fake.invoke(
        env.alice,
        env.channel,
        "game join",
        {"name": "Avalon", "leader": "Ada", "title": "President", "colour": AVALON, "home": "3"},
    )
    assert joined.ephemeral and "You lead **Avalon**" in joined.text
    await eventually(lambda: "**Avalon (President Ada)** joins Founders (1/3)." in posted(env))
    await eventually(  # and the pinned status lists it so
        lambda: any(
            m.pinned and "Avalon (President Ada)" in m.content
            for m in fake.channel_messages(env.channel)
        )
    )
    world = await service.live_world(env.game)
    assert world.slot_owner == [None, None, "avalon"]

    # refusals: each says why, privately, and changes nothing
    before = world.hash()
    for options, says in (
        ({"name": "Borduria", "colour": "#22b0c2"}, "too close to #20b0c0"),
        ({"name": "Borduria", "colour": "sunset"}, "is not a colour"),
        ({"name": "Borduria", "home": "3"}, "Starting island 3 is taken"),
        ({"name": "Borduria", "home": "7"}, "There is no starting island 7"),
        ({"name": "Borduria", "leader": "<@1234>"}, "plain words"),
        ({"name": "**Borduria**"}, "plain words"),
        ({"name": "avalon"}, "The name avalon is taken"),
        ({"name": "Borduria", "title": "King"}, "A title goes with a leader"),
    ):
        refused = await fake.invoke(env.bob, env.channel, "game join", options)
        assert refused.ephemeral and says in refused.text, (options, refused.text)
    assert (await service.live_world(env.game)).hash() == before
    offered = await fake.autocomplete(env.bob, env.channel, "game join", focused="home")
    assert [c["value"] for c in offered] == ["1", "2"]

    # a join without choices is as it always was: the first free island, the palette's first
    # colour, no leader, and a log entry without a founding
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Borduria"})
    await fake.invoke(env.carol, env.channel, "game join", {"name": "Carpathia", "home": "2"})
    world = await service.live_world(env.game)
    assert world.slot_owner == ["borduria", "carpathia", "avalon"]
    assert world.nations["borduria"].colour == PALETTE["red"]
    _, entries = await service.history(env.game)
    joins = {e["nation"]: e for e in entries if e.get("action") == "join"}
    assert "founding" not in joins["borduria"]
    assert joins["avalon"]["founding"] == {"leader": "Ada", "title": "President", "island": 3}

    welcome = await fake.wait_for_dm(env.alice, lambda m: "Welcome" in m.content, timeout=10)
    assert "Welcome to Founders, President Ada of Avalon!" in welcome.content
    assert f"Your colour on the map is **{AVALON}**" in welcome.content

    # the news names the leader to everyone
    await fake.invoke(env.bob, env.channel, "diplomacy", {"nation": "Avalon", "level": "war"})
    await eventually(
        lambda: "⚔️ **Borduria** declared war on **Avalon (President Ada)**." in posted(env)
    )
    # and so do the DMs: an offer received
    await fake.invoke(
        env.alice, env.channel, "diplomacy", {"nation": "Carpathia", "level": "allied"}
    )
    offer = await fake.wait_for_dm(
        env.carol, lambda m: "stance towards you" in m.content, timeout=10
    )
    assert "Avalon (President Ada)'s stance towards you becomes **allied**" in offer.content
    nations = await fake.invoke(env.bob, env.channel, "nations")
    assert "Avalon (President Ada)" in nations.text

    # Avalon's own map is drawn in its colour
    picture = await fake.invoke(env.alice, env.channel, "map")
    rgb = Image.open(io.BytesIO(picture.files[0].data)).convert("RGB")
    colours = {c for _, c in rgb.getcolors(1 << 20) or []}
    assert (0x20, 0xB0, 0xC0) in colours
