"""A wasteland (ruleset total-war) is drawn in its own colour on /map, with a legend entry, for
the nations that see it; the map of a game without wastelands has no such entry."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from engine.strategic import commands as cmd
from engine.strategic.clock import advance
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import view_for
from renderers.encoding import png_bytes
from renderers.strategic import style
from renderers.strategic.legend import legend_layout
from renderers.strategic.mapimage import render_map, square_box

MAP = """
~~~~~~~~~~~~~~
~A.....C.....~
~............~
~~~~~~~~~~~~~~
"""


def wasted_world():
    world, letters = build_world(
        {
            "ruleset": "total-war",
            "map": MAP,
            "nations": {"red": {"tech": 12, "cp": 200}, "blue": {}},
            "cities": {"A": {"owner": "red", "designation": "tech"}, "C": {"owner": "blue"}},
            "units": [
                {"id": 1, "owner": "red", "type": "missile_base", "at": "A"},
                {"id": 2, "owner": "red", "type": "explosive_warhead", "at": "A"},
            ],
        }
    )
    advance(world, world.rules.ticks_per_hour)
    world.rng.state = 0  # whatever the die, the chance is 100%
    apply(world, "red", cmd.Launch(unit=1, target=(7, 1)))
    return world, letters["C"]


def test_a_wasteland_square_is_drawn_in_its_colour_with_a_legend_entry() -> None:
    world, sq = wasted_world()
    assert sq in world.wastelands
    view = view_for(world, "blue")  # the former owner knows its wasteland
    assert sq in view.wastelands
    image = render_map(view)
    arr = np.asarray(Image.open(io.BytesIO(png_bytes(image))).convert("RGB"))
    box = square_box(image, view, sq)
    assert box is not None
    left, top, right, bottom = box
    inside = {tuple(p) for p in arr[top + 1 : bottom, left + 1 : right].reshape(-1, 3).tolist()}
    assert inside <= {style.WASTELAND, style.dim(style.WASTELAND)}
    legend = legend_layout(view, world.rules, image.width, "nation", set())
    assert [label for label, _ in legend.items if label.startswith("wasteland")]


def test_no_wasteland_entry_without_wastelands() -> None:
    world, _ = wasted_world()
    world.wastelands.clear()
    view = view_for(world, "red")
    legend = legend_layout(view, world.rules, 600, "nation", set())
    assert not [label for label, _ in legend.items if label.startswith("wasteland")]
