"""/map through the fake Discord: by default a picture of the part of the board holding all the
player's cities and units, at the width Discord shows in a message; `full:true` the whole
board's overview made for that width; and the welcome DM names the colour the player's own map
draws them in."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from engine.interface.colours import PALETTE
from renderers.strategic import style
from renderers.strategic.mapimage import FOCUS_WIDTH, render_focus, square_box
from renderers.strategic.region import focus_region
from tests.e2e.test_bot_e2e import (  # noqa: F401 (env: the fixture)
    PNG_MAGIC,
    env,
    eventually,
    open_game,
)


async def test_map_shows_the_nations_part_of_the_board_and_full_the_whole_board(env) -> None:  # noqa: F811
    fake = env.fake
    game = await open_game(env, size="medium")
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red", "colour": "red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    await fake.invoke(env.mod, env.channel, "mod pause")

    focused = await fake.invoke(env.alice, env.channel, "map")
    whole = await fake.invoke(env.alice, env.channel, "map", {"full": True})
    assert focused.ephemeral and whole.ephemeral
    assert "whole board" in whole.text and "whole board" not in focused.text
    data, full_data = focused.files[0].data, whole.files[0].data
    assert data.startswith(PNG_MAGIC) and full_data.startswith(PNG_MAGIC)
    small = Image.open(io.BytesIO(data))
    overview = Image.open(io.BytesIO(full_data))

    view = await env.bot.service.view(game, "red")
    cols, rows = focus_region(view)
    # the focused picture: red's part of the board (every unit of it), Discord's width
    assert len(cols) * len(rows) < view.width * view.height / 4
    for unit in view.own_units():
        assert unit.sq % view.width in cols and unit.sq // view.width in rows
    assert small.width <= FOCUS_WIDTH + 10
    cell = min(60, (FOCUS_WIDTH - 40) // len(cols))
    assert small.height >= len(rows) * min(cell, 12)
    # the whole board: at Discord's width too, its squares as large as that allows
    assert overview.width <= FOCUS_WIDTH + 10
    assert overview.height >= view.height * ((FOCUS_WIDTH - 40) // view.width)
    # the full size is a button away
    assert any(b["label"] == "Full size" for b in whole.message.buttons)
    # zooming still works, and is not the whole board either
    zoom = await fake.invoke(env.alice, env.channel, "map", {"at": "1,1", "radius": 3})
    assert "around 1,1" in zoom.text


async def test_the_welcome_names_the_colour_the_players_map_draws_them_in(env) -> None:  # noqa: F811
    fake = env.fake
    game = await open_game(env)
    # Bob chooses no colour: the game gives him one, and the welcome must name that one
    await fake.invoke(env.alice, env.channel, "game join", {"name": "Red", "colour": "red"})
    await fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    await fake.invoke(env.mod, env.channel, "mod pause")
    await eventually(lambda: any("Welcome" in m.content for m in fake.dms(env.bob)), 10)
    welcome = next(m.content for m in fake.dms(env.bob) if "Welcome" in m.content)
    named = re.search(r"Your colour on the map is \*\*([a-z]+)\*\*", welcome)
    assert named is not None, welcome

    shown = await fake.invoke(env.bob, env.channel, "map")
    image = Image.open(io.BytesIO(shown.files[0].data))
    world = await env.bot.service.live_world(game)
    blue = next(n.id for n in world.nations.values() if n.name == "Blue")
    view = await env.bot.service.view(game, blue)
    city = view.own_cities()[0]
    # where the city is on the picture: drawn again here, its layout read (the PNG has none)
    layout = render_focus(view, title=f"Island War (game {game})")
    assert layout.size == image.size
    box = square_box(layout, view, city.sq)
    assert box is not None
    left, top, right, bottom = box
    arr = np.asarray(image.convert("RGB"))
    # the city's fill, left of the unit drawn in its lower right corner
    fill = tuple(int(v) for v in arr[bottom - 6, left + 5])
    assert fill == style.parse_colour(PALETTE[named.group(1)]), (fill, named.group(1))


def _colours_of(png: bytes) -> set[tuple[int, ...]]:
    counted = Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 16) or []
    return {tuple(c) for _, c in counted if isinstance(c, tuple)}


@pytest.mark.slow  # (about 6 s: five maps and a DM picture)
async def test_a_player_may_colour_maps_by_relation_and_keeps_that_choice(tmp_path) -> None:
    from engine.strategic import commands as cmd
    from engine.strategic.scenario import build_world
    from tests.e2e.test_bot_e2e import running_bot, seat_world

    teal = (0, 200, 200)  # Blue's own colour
    async with running_bot(tmp_path, ["alice", "bob"]) as env:  # noqa: F811
        world, _ = build_world(
            {
                "ruleset": "standard",
                "map": "~~~~~~~~~~~~\n~A...B.....~\n~..........~\n~~~~~~~~~~~~\n",
                "nations": {
                    "red": {"player": str(env.alice.id), "colour": "#ffd700"},
                    "blue": {"player": str(env.bob.id), "colour": "#00c8c8"},
                },
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "3,1"},
                    {"id": 2, "owner": "blue", "type": "infantry", "at": "4,1"},
                ],
            }
        )
        game = await seat_world(env, "Colours", world)
        fake = env.fake
        first = await fake.invoke(env.alice, env.channel, "map")
        assert teal in _colours_of(first.files[0].data)  # by default: each nation's colour

        chosen = await fake.invoke(env.alice, env.channel, "map", {"colours": "relation"})
        assert "Your maps now colour nations by relation to you" in chosen.text
        colours = _colours_of(chosen.files[0].data)
        assert teal not in colours and style.RELATION_COLOURS["neutral"] in colours
        # kept: the map's buttons and the next /map draw the same way
        again = await fake.invoke(env.alice, env.channel, "map")
        assert "now colour" not in again.text and teal not in _colours_of(again.files[0].data)
        refresh = next(b for b in chosen.message.buttons if b["label"] == "Refresh")
        pressed = await fake.click(env.alice, chosen, refresh["custom_id"])
        assert teal not in _colours_of(pressed.files[0].data)
        # and so do the pictures of her DM reports: Blue declares war
        await env.bot.service.submit(game, "blue", cmd.SetRelation(other="red", level="war"))
        dm = await fake.wait_for_dm(
            env.alice, lambda m: "declared war on you" in m.content, timeout=10
        )
        colours = _colours_of(dm.attachments[0].data)
        assert teal not in colours and style.RELATION_COLOURS["war"] in colours
        # Bob chose nothing: his maps keep the nations' colours
        his = await fake.invoke(env.bob, env.channel, "map")
        assert (255, 215, 0) in _colours_of(his.files[0].data)
        back = await fake.invoke(env.alice, env.channel, "map", {"colours": "nation"})
        assert "each nation in its own colour" in back.text
        assert teal in _colours_of(back.files[0].data)
