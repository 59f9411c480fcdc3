"""The pictures of `docs/PICTURES.md`, made again from a reproducible mid-game world:

    python -m renderers.strategic.gallery docs/pictures

Four AI nations play three game days on an 80x80 map (seed 7, `engine.strategic.ai.simulate`);
the first nation then declares war on the next two (so that a war shows) and an hour passes;
then the first nation's `/map` (the focused picture), the whole board at full size, its
overview (`/map full:true`), a zoom step (a window of 20 squares round its capital) and a DM
picture of the last hours' events are drawn, each also scaled to 550 pixels across as Discord
shows it in a message (`*-550.png`); and, on a small world of its own, a city's waypoint and a
queued attack (`after-orders`). With `--before` it draws what the renderer of the time
draws for `/map` (the whole board: run it against an older checkout, with that checkout first
on PYTHONPATH, and this file given by path)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path

from PIL import Image

SEED = 7
SIZE = 80
NATIONS = 4
DAYS = 3
SHOWN = 550  # what Discord shows of a picture in a message, in pixels across


def mid_game():
    """The world after `DAYS` game days of AI play, and the events of its last six hours."""
    from engine.strategic.ai.simulate import new_world, play_turn
    from engine.strategic.clock import advance

    world, seats = new_world(NATIONS, SIZE, SIZE, 10, SEED, "standard", ["normal"])
    recent: list = []
    per_hour = world.ticks_per_hour
    while world.tick < DAYS * world.rules.ticks_per_day:
        events = []
        for seat in seats:
            events.extend(play_turn(world, seat))
        events.extend(advance(world, per_hour))
        recent = (recent + events)[-4000:]
    since = world.tick - 6 * per_hour
    return world, [e for e in recent if e.tick >= since]


ORDERS_MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~
~A..........B~~~~~~~~~~~
~............~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~
"""


def orders_world():
    """A small world where Red's city at 1,1 sends what it builds to 4,2 (`/waypoint`), its
    infantry has an attack on Blue's at 6,1 queued (`/attack queue:true`) and its destroyer
    sails east (a standing order)."""
    from engine.strategic import commands as cmd
    from engine.strategic.orders import apply
    from engine.strategic.scenario import build_world

    world = build_world(
        {
            "ruleset": "standard",
            "map": ORDERS_MAP,
            "explored": "all",
            "nations": {"red": {}, "blue": {}},
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "fort"},
                "B": {"owner": "blue", "designation": "fort"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "A", "mobility": 2},
                {"id": 2, "owner": "blue", "type": "infantry", "at": "6,1"},
                {"id": 3, "owner": "red", "type": "destroyer", "at": "11,3", "mobility": 1},
                {"id": 4, "owner": "red", "type": "zeppelin", "at": "5,2"},
            ],
        }
    )[0]
    apply(world, "red", cmd.SetWaypoint(city=(1, 1), to=(4, 2)))
    apply(world, "red", cmd.Attack(units=[1], target=(6, 1), queue=True))
    apply(world, "red", cmd.Move(units=[3], to=(16, 3)))
    return world


def shown(image: Image.Image, width: int = SHOWN) -> Image.Image:
    """The picture as Discord shows it in a message: scaled down to `width` pixels across
    (kept as a palette PNG of 256 colours, to stay small)."""
    rgb = image.convert("RGB")
    if rgb.width > width:
        rgb = rgb.resize((width, round(rgb.height * width / rgb.width)), Image.Resampling.LANCZOS)
    return rgb.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def save(image: Image.Image, out: Path, name: str) -> None:
    image.save(out / f"{name}.png", optimize=True)
    shown(image).save(out / f"{name}-550.png", optimize=True)
    print(f"{name}: {image.width}x{image.height} px")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--before", action="store_true", help="draw with the old renderer")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from engine.strategic.view import view_for

    if importlib.util.find_spec("renderers.strategic") is None:
        # an older checkout first on PYTHONPATH (--before): its renderers not yet split by game
        mapimage = importlib.import_module("renderers.mapimage")
        markers_from = importlib.import_module("renderers.markers").markers_from
    else:
        mapimage = importlib.import_module("renderers.strategic.mapimage")
        markers_from = importlib.import_module("renderers.strategic.markers").markers_from

    world, recent = mid_game()
    nation = sorted(world.nations)[0]
    if not args.before:  # a war, so that the pictures show one (its rings, its front lines)
        from engine.strategic import commands as cmd
        from engine.strategic.clock import advance
        from engine.strategic.orders import apply

        for other in sorted(world.nations)[1:3]:
            recent += apply(world, nation, cmd.SetRelation(other=other, level="war"))
        recent += advance(world, world.ticks_per_hour)
    view = view_for(world, nation)
    title = f"Gallery (seed {SEED})"
    markers = markers_from(recent, nation, world.width, world.height)
    print(
        f"{nation}: {len(view.own_units())} units, {len(view.own_cities())} cities, "
        f"{len(markers)} markers, {view.clock}"
    )
    if args.before:
        save(mapimage.render_map(view, title=title), args.out, "before-map")
        if markers:
            save(mapimage.render_map(view, title=title, markers=markers), args.out, "before-event")
        return 0
    save(mapimage.render_focus(view, title=title), args.out, "after-map")
    save(mapimage.render_map(view, title=title), args.out, "after-map-full")
    save(mapimage.render_overview(view, title=title), args.out, "after-overview")
    home = view.home if view.home is not None else view.own_cities()[0].sq
    save(mapimage.render_window(view, home, 20, title=title), args.out, "after-zoom-20")
    if markers:
        save(mapimage.render_focus(view, title=title, markers=markers), args.out, "after-event")
    small = view_for(orders_world(), "red")
    centre = 2 * small.width + 8  # 8,2
    save(mapimage.render_window(small, centre, 8, title="Orders"), args.out, "after-orders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
