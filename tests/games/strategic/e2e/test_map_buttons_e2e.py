"""The buttons under /map through the real bot and the fake Discord: zoom in and out in steps
between the nation's part of the board and the whole board's overview, the full-size picture a
click away, panning, the capital and refresh redraw the same message, with stable ids within
Discord's limits, and only for a player of the game."""

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


def ids(record) -> list[str]:
    return [b["custom_id"] for b in record.message.buttons]


async def test_map_buttons_zoom_in_steps_pan_and_centre_the_same_message(env) -> None:  # noqa: F811
    fake = env.fake
    await open_game(env)
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    await fake.invoke(env.mod, env.channel, "mod pause")
    shown = await fake.invoke(env.alice, env.channel, "map")
    labels = [b["label"] for b in shown.message.buttons]
    assert labels == [
        "Zoom in", "Zoom out", "North", "South", "West", "East", "My capital", "Refresh"
    ]  # fmt: skip
    # ids within Discord's 100 characters, one per button, the same each time the map is drawn
    assert all(len(i) <= 100 for i in ids(shown)) and len(set(ids(shown))) == len(labels)
    again = await press(fake, env.alice, shown, "Refresh")
    assert ids(again) == ids(shown)
    world = await env.bot.service.live_world(1)

    # zoom out: windows round the same place, each at Discord's width, before the whole board
    steps, record = [], shown
    while "the whole board" not in record.message.content:
        record = await press(fake, env.alice, record, "Zoom out")
        assert record.message.id == shown.message.id  # the same message, redrawn
        steps.append(record.message.content)
        assert size(record.message.attachments[0].data)[0] <= 560
        assert len(steps) < 10
    assert len(steps) >= 3  # at least two windows between the nation's part and the board
    assert all("Your map around" in step for step in steps[:-1])
    labels = [b["label"] for b in record.message.buttons]
    # the whole board: its overview, no panning, the full-size picture a click away
    assert labels == ["Zoom in", "My capital", "Full size", "Refresh"]
    assert size(record.message.attachments[0].data)[0] <= 560
    full = await press(fake, env.alice, record, "Full size")
    assert "the whole board at full size" in full.message.content
    big = size(full.message.attachments[0].data)
    assert big[0] >= world.width * 10 > 560
    assert [b["label"] for b in full.message.buttons] == [
        "Zoom in", "My capital", "Overview", "Refresh"
    ]  # fmt: skip

    # the capital: a window round the nation's first home city
    home = await press(fake, env.alice, full, "My capital")
    red = next(n for n in world.nations.values() if n.name == "Red")
    capital = next(s for s, o in zip(world.slots, world.slot_owner, strict=False) if o == red.id)
    x, y = capital[0] % world.width, capital[0] // world.width
    assert f"around {x},{y}" in home.message.content

    # panning east moves the window by half its width, round the torus
    east = await press(fake, env.alice, home, "East")
    assert f"around {(x + 6) % world.width},{y}" in east.message.content
    north = await press(fake, env.alice, east, "North")
    assert f"around {(x + 6) % world.width},{(y - 6) % world.height}" in north.message.content

    # back at the capital, zoom in: a smaller window round the same square
    home = await press(fake, env.alice, north, "My capital")
    closer = await press(fake, env.alice, home, "Zoom in")
    assert f"around {x},{y}" in closer.message.content

    # someone else's press of a button of Alice's map shows them nothing of hers
    other = await press(fake, env.carol, closer, "Refresh")
    (refusal,) = other.followups
    assert refusal.ephemeral and "You do not play in game 1" in refusal.content
    assert not refusal.attachments
