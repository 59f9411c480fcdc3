"""The Caldera star map of docs/PICTURES.md, at 550 pixels as Discord shows it in a message:
a map scouted for a few turns round Earth, two captains' fleets (the palette's first colours,
red and blue), Roger's Pirates on their cold homeworld with this turn's battle there, and
the unexplored space round the known map.

    python -m renderers.caldera.gallery docs/pictures [--name caldera-star-map]
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

from engine.caldera import tiles as tile_sets
from engine.caldera.starmap import StarMap, new_map, place_tile
from engine.interface.colours import PALETTE
from renderers.caldera.picture import draw_star_map
from renderers.caldera.view import MapBase, MapFleet, StarMapView, tiles_of

WIDTH = 550  # what Discord shows of a picture in a message

# place: the starter tile card there, and its zone
SCOUTED = {
    "0,-1": ("a-small-average", 1),
    "1,-1": ("c-empty", 1),
    "1,0": ("c-half-nebula", 1),
    "0,1": ("a-huge", 1),
    "-1,1": ("c-empty", 1),
    "-1,0": ("a-small-hn", 1),
    "0,-2": ("c-full-nebula", 1),
    "1,-2": ("c-empty", 1),
    "2,-2": ("b-arid", 1),
    "2,-1": ("c-empty", 2),
    "-1,2": ("c-half-nebula", 2),
    "0,2": ("c-empty", 2),
    "0,3": ("b-cold", 2),
    "-2,1": ("a-belt", 2),
}
RED, BLUE, PIRATES = PALETTE["red"], PALETTE["blue"], "#ff9a30"


def scouted_map() -> StarMap:
    tiles = tile_sets.load()
    m = new_map()
    for place, (card, zone) in SCOUTED.items():
        place_tile(m, place, tiles.card(card).face(), zone=zone, card=card)
    return m


def sample_view() -> StarMapView:
    return StarMapView(
        tiles=tiles_of(scouted_map()),
        fleets=(
            MapFleet("0,0", "Ann", RED, 1),
            MapFleet("0,-1", "Ann", RED, 2),
            MapFleet("0,3", "Bob", BLUE, 3),
            MapFleet("0,3", "Roger's Pirates", PIRATES, 4),
            MapFleet("-2,1", "Roger's Pirates", PIRATES, 2),
            MapFleet("1,-3", "Bob", BLUE, 1),  # moved into unexplored space: scouted next
        ),
        battles=("0,3",),
        bases=(MapBase("0,3", "RP", PIRATES),),
        title="Caldera: Deep Field",
        subtitle="Turn 6 · zone 2 · zone counter 11",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--name", default="caldera-star-map")
    args = parser.parse_args()
    picture = Image.open(io.BytesIO(draw_star_map(sample_view()))).convert("RGB")
    height = round(picture.height * WIDTH / picture.width)
    out = args.folder / f"{args.name}.png"
    picture.resize((WIDTH, height), Image.Resampling.LANCZOS).save(out, optimize=True)
    print(out)


if __name__ == "__main__":
    main()
