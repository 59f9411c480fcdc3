"""The server's standings and a finished game's stats (issue 29, item 16), through the real bot
and the fake Discord: a game ends, its result and charts are posted with its timelapse, and
`/stats` reads the standings, a player's rating and the game."""

from __future__ import annotations

import pytest

from bot.standings import START
from tests.e2e.test_bot_e2e import PNG_MAGIC, env, open_game  # noqa: F401 (the fixture)


@pytest.mark.slow
async def test_an_ended_game_is_posted_with_its_charts_and_counted_in_the_standings(
    env,  # noqa: F811
) -> None:
    fake = env.fake
    empty = await fake.invoke(env.alice, env.channel, "stats server")
    assert "No game has ended on this server yet" in empty.text
    game = await open_game(env, days=1)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    early = await fake.invoke(env.alice, env.channel, "stats game", {"game": game})
    assert early.ephemeral and "not over yet" in early.text
    await fake.invoke(env.mod, env.channel, "mod tick", {"ticks": 8})
    ask = await fake.invoke(env.mod, env.channel, "mod end")
    await fake.click(env.mod, ask, ask.message.buttons[0]["custom_id"])
    result = await fake.wait_for_message(
        env.channel, lambda m: "the result" in m.content, timeout=30
    )
    # the timelapse first, then the result with its charts
    gif = await fake.wait_for_message(env.channel, lambda m: "is over" in m.content)
    assert gif.id < result.id
    assert result.attachments and result.attachments[0].data.startswith(PNG_MAGIC)
    # a city each: they share the first place
    assert f"1st: Blue (<@{env.bob.id}>), Red (<@{env.alice.id}>)" in result.content
    standings = await fake.invoke(env.carol, env.channel, "stats server")
    assert not standings.ephemeral
    assert "1 game played here" in standings.text
    assert f"<@{env.alice.id}>" in standings.text and f"<@{env.bob.id}>" in standings.text
    assert f"<@{env.carol.id}>" not in standings.text.split("\n", 1)[1]
    mine = await fake.invoke(env.alice, env.channel, "stats player")
    # a draw between equals moves no rating
    assert (
        f"1 game, 1 win, rating **{START:.0f}**" in mine.text and "of 2 on this server" in mine.text
    )
    theirs = await fake.invoke(env.alice, env.channel, "stats player", {"player": env.carol.id})
    assert "has finished no game on this server yet" in theirs.text
    asked = await fake.invoke(env.carol, env.channel, "stats game", {"game": game})
    assert "see the channel" in asked.text  # (a slow answer: deferred, then shown to all)
    past = await fake.wait_for_message(
        env.channel, lambda m: "the result" in m.content and m.id != result.id
    )
    assert past.content.startswith("**Island War**: the result")
    assert past.attachments and past.attachments[0].data.startswith(PNG_MAGIC)
    missing = await fake.invoke(env.carol, env.channel, "stats game", {"game": game + 99})
    assert missing.ephemeral and f"no game {game + 99} on this server" in missing.text
    assert str(int(START)) in standings.text
