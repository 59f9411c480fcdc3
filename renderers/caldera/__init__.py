"""Pictures of a Caldera game (`engine.caldera`): the star map, as the game's view lets the
viewer know it, for the game's channel after each turn and for DMs.

    view = StarMapView(tiles=tiles_of(state.map), fleets=(...), battles=("0,-2",), bases=(...))
    data = draw_star_map(view)                                   # PNG bytes

A picture is 900 pixels wide (Discord shows it at about 550, where its smallest text is still
about 9 pixels high); its height follows the map. It shows:

- a header: the title and a subtitle (the turn, the zone...);
- every known tile as a flat-top hex, north up: Earth (a blue globe on dark blue), empty space
  (deep blue with a few stars), half nebulas (violet) and full nebulas (magenta), asteroid
  systems (a grey-brown rock per asteroid, sized small, average, huge, on the nebula they lie
  in), planets (a disc coloured by type with its letter: earthlike E green, arid A sand, cold C
  ice blue, vulcan V red); the zone a tile is from as a number at its top;
- unexplored space next to the known map: grey hatched hexes with a "?" (fog: a ship may move
  there, and scouting places a tile there);
- NPC bases: a ring round the tile in the NPC's colour and its short name on a tag;
- this turn's battles: an orange star at the tile's top right;
- fleets: a badge per owner at the bottom of the tile, in the owner's colour, with the number of
  ships;
- a legend: what the hexes and signs mean, and each fleet owner (colour, ships on the map).

Drawing is deterministic (everything drawn in the seed's order of places, then by name) and
as palette indices (the kit's `renderers.palette`), so every colour is exact. `layout_of`
says where each place is drawn and `fleet_boxes` where its badges are (the tests use them).

The modules: `view` (what the picture is drawn from), `game` (what it reads from the game's
view), `layout` (where places are), `picture` (the drawing, in order), `style` (Caldera's
colours and proportions), `drawing` (in the pool's workers); at the campaign's end,
`timelapse` (the star map after each turn as a GIF) and `charts` (each captain's numbers
after each turn).
"""

from renderers.caldera.picture import (
    draw_star_map,
    fleet_boxes,
    layout_of,
    render_star_map,
)
from renderers.caldera.view import MapBase, MapFleet, MapTile, StarMapView, tiles_of

__all__ = [
    "MapBase",
    "MapFleet",
    "MapTile",
    "StarMapView",
    "draw_star_map",
    "fleet_boxes",
    "layout_of",
    "render_star_map",
    "tiles_of",
]
