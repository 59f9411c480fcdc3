"""/status, /units, /cities and /nations as cards (embeds) through the real bot and the fake
Discord, which checks every embed against Discord's limits and spec."""

from __future__ import annotations

from tests.e2e.test_bot_e2e import env, open_game  # noqa: F401 - the fixture is used by name


async def test_the_cards_a_player_reads(env) -> None:  # noqa: F811
    fake = env.fake
    await open_game(env)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    world = await env.bot.service.live_world(1)
    red = next(n for n in world.nations.values() if n.name == "Red")
    cities = sum(1 for c in world.cities.values() if c.owner == red.id)

    status = await fake.invoke(env.alice, env.channel, "status")
    (card,) = status.embeds
    assert status.ephemeral and card["title"].startswith("Red in Island War")
    names = [f["name"] for f in card["fields"]]
    assert names[:5] == ["Tech", "Command points", "Power", "Cities", "Units"]
    assert card["color"] is not None

    units = await fake.invoke(env.alice, env.channel, "units")
    (card,) = units.embeds
    assert card["title"].startswith("Your units (")
    own = sorted(u.id for u in world.units.values() if u.owner == red.id)
    lines = card["description"].splitlines()
    assert [int(line.split("`")[1]) for line in lines] == own[:15]  # Red's own, by id
    assert all(" hp - mob " in line for line in lines)

    listed = await fake.invoke(env.alice, env.channel, "cities")
    (card,) = listed.embeds
    assert card["title"] == f"Your cities ({cities}) - page 1/1"
    assert "left)" in card["description"]  # how long each build still takes

    board = await fake.invoke(env.bob, env.channel, "nations")
    (card,) = board.embeds
    fields = {f["name"]: f["value"] for f in card["fields"]}
    assert set(fields) == {"Blue (you)", "Red"}
    assert f"**{cities}** cities" in fields["Red"]  # public: the cities decide the game
    assert "most cities wins" in card["description"]
