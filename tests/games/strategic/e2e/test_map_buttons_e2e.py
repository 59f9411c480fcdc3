"""The buttons under /map through the real bot and the fake Discord: zoom in, zoom out, the
capital and refresh redraw the same message, and only for a player of the game."""

from __future__ import annotations

import struct

from tests.e2e.test_bot_e2e import PNG_MAGIC, env, open_game  # noqa: F401 - fixture by name


def size(png: bytes) -> tuple[int, int]:
    assert png.startswith(PNG_MAGIC)
    width, height = struct.unpack(">II", png[16:24])
    return width, height


async def press(fake, user, record, label: str):
    """Press a button under a message and wait until the bot has answered (it defers, then
    edits the same message, or sends an error of its own)."""
    done = await fake.click(user, record, button(record, label))
    await done.wait_for(lambda r: r.complete or bool(r.followups) or bool(r.bot_errors), 10)
    assert not done.bot_errors and not done.rejected
    return done


def button(record, label: str) -> str:
    for b in record.message.buttons:
        if b["label"] == label:
            return b["custom_id"]
    raise AssertionError(f"no {label!r} button: {[b['label'] for b in record.message.buttons]}")


async def test_map_buttons_zoom_and_centre_the_same_message(env) -> None:  # noqa: F811
    fake = env.fake
    await open_game(env)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    shown = await fake.invoke(env.alice, env.channel, "map")
    labels = [b["label"] for b in shown.message.buttons]
    assert labels == ["Zoom in", "Zoom out", "My capital", "Refresh"]
    focus = size(shown.files[0].data)

    # zoom out: the whole board, in the same message, with no further zoom out
    out = await press(fake, env.alice, shown, "Zoom out")
    message = out.message
    assert message is not None and message.id == shown.message.id
    assert "the whole board" in message.content
    assert [b["label"] for b in message.buttons] == ["Zoom in", "My capital", "Refresh"]
    whole = size(message.attachments[0].data)
    assert whole != focus

    # the capital: a window round the nation's first home city
    home = await press(fake, env.alice, out, "My capital")
    assert home.message is not None and "around" in home.message.content
    world = await env.bot.service.live_world(1)
    red = next(n for n in world.nations.values() if n.name == "Red")
    capital = next(s for s, o in zip(world.slots, world.slot_owner, strict=False) if o == red.id)
    assert f"around {world.grid.label(capital[0])}" in home.message.content

    # zoom in from there: a smaller window round the same square
    closer = await press(fake, env.alice, home, "Zoom in")
    assert closer.message is not None
    assert size(closer.message.attachments[0].data)[0] <= size(home.message.attachments[0].data)[0]
    assert f"around {world.grid.label(capital[0])}" in closer.message.content

    # someone else's press of a button of Alice's map shows them nothing of hers
    other = await press(fake, env.carol, closer, "Refresh")
    (refusal,) = other.followups
    assert refusal.ephemeral and "You do not play in game 1" in refusal.content
    assert not refusal.attachments
