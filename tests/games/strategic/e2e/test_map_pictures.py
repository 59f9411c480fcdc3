"""/map through the fake Discord: by default a picture of the part of the board round the
player's cities and units, at the width Discord shows in a message; `full:true` the whole
board."""

from __future__ import annotations

import io

from PIL import Image

from renderers.strategic import style
from renderers.strategic.mapimage import FOCUS_WIDTH
from renderers.strategic.region import focus_region
from tests.e2e.test_bot_e2e import PNG_MAGIC, env, open_game  # noqa: F401 (env: the fixture)


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
    big = Image.open(io.BytesIO(full_data))

    view = await env.bot.service.view(game, "red")
    cols, rows = focus_region(view)
    # the focused picture: red's part of the board, Discord's width; its map as tall as that
    # part's rows at the width's squares
    assert len(cols) * len(rows) < view.width * view.height / 4
    assert small.width <= FOCUS_WIDTH + 10
    cell = min(60, (FOCUS_WIDTH - 40) // len(cols))
    assert small.height >= len(rows) * min(cell, 12)
    # the whole board: every column at the full map's square size, far wider
    assert big.width >= view.width * style.cell_size(view.width, view.height) > 2 * small.width
    # zooming still works, and is not the whole board either
    zoom = await fake.invoke(env.alice, env.channel, "map", {"at": "1,1", "radius": 3})
    assert Image.open(io.BytesIO(zoom.files[0].data)).width < big.width
