"""A button's answer replaces its message only for the one the message was for (issue 27,
finding 14): another player pressing a button of a public map gets their own map privately,
and the message stays as it was. Through the real bot and the fake Discord."""

from __future__ import annotations

from tests.e2e.test_bot_e2e import env, open_game  # noqa: F401 - fixture by name
from tests.fakediscord.models import EPHEMERAL
from tests.games.strategic.e2e.test_map_buttons_e2e import button


async def test_another_players_press_of_a_public_map_button_answers_them_privately(
    env,  # noqa: F811
) -> None:
    fake = env.fake
    await open_game(env)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    shown = await fake.invoke(env.alice, env.channel, "map")
    message = shown.message
    assert message is not None and "-red-" in message.attachments[0].filename
    # /map answers privately today; were it public, everyone could press its buttons
    message.flags &= ~EPHEMERAL
    before = (message.content, [a.data for a in message.attachments], message.buttons)

    done = await fake.click(env.bob, message, button(shown, "Zoom out"))
    await done.wait_for(lambda r: r.complete or bool(r.followups) or bool(r.bot_errors), 10)
    assert not done.bot_errors and not done.rejected
    # Alice's map is untouched
    assert (message.content, [a.data for a in message.attachments], message.buttons) == before
    # Bob has his own map of the wider window, for him alone
    answer = done.message
    assert answer is not None and answer.id != message.id and answer.ephemeral
    assert "Your map around" in answer.content
    assert [a.filename.split("-")[2] for a in answer.attachments] == ["blue"]

    # and Alice's own press still redraws her message
    mine = await fake.click(env.alice, message, button(shown, "Zoom out"))
    await mine.wait_for(lambda r: r.complete or bool(r.followups) or bool(r.bot_errors), 10)
    assert mine.message is not None and mine.message.id == message.id
    assert "Your map around" in message.content and "-red-" in message.attachments[0].filename
