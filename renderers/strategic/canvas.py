"""A map's palette and canvas: every picture's palette starts with the style's colours and the
steps of its text on the background (`fixed_palette`: the same indices in every picture), then
the nations' colours when they are drawn in their own. Owners are coloured by each nation's own
colour (`colours="nation"`, the default: the viewer's own colour is the one it chose or was
given, the same on every picture), their relation to the viewer shown by a ring round their
cities and units in the relation's colour (`relation_ring`); or, as before issue 29, by
relation alone (`colours="relation"`: you, allied, friendly, neutral, war). `MapCanvas` is the
kit's canvas that knows the owners' colours."""

from __future__ import annotations

from functools import cache

from PIL import Image

from engine.strategic.view import View
from renderers.canvas import Canvas
from renderers.palette import RGB, Palette
from renderers.strategic import style

Colours = str  # "relation" or "nation"


def _base_colours() -> list[RGB]:
    """Every colour of the style that a picture may show, terrain first."""
    terrain = [style.NEVER_SEEN, style.WATER, style.LAND, style.WASTE, style.COAST]
    dimmed = [style.dim(c) for c in terrain[1:]]
    lines = [style.grid_line(c) for c in terrain + dimmed]
    crossings = [style.grid_line(c) for c in lines]
    return [
        style.BACKGROUND,
        *terrain,
        *dimmed,
        *lines,
        *crossings,
        style.TEXT,
        style.TEXT_DIM,
        style.NEUTRAL,
        style.dim(style.NEUTRAL, 0.7),
        style.OUTLINE,
        (0, 0, 0),
        (255, 255, 255),
        *style.MARKER_COLOURS.values(),
        *style.RELATION_COLOURS.values(),
        *(style.dim(c, 0.7) for c in style.RELATION_COLOURS.values()),
        style.ORDER_LINE,
        style.STRIKE_LINE,
        style.UNKNOWN_MARKER,
        style.LEGEND_OUTLINE,
        style.LEGEND_UNIT,
        # last, so that the colours before keep their places in every picture
        *_wasteland_colours(),
    ]


def _wasteland_colours() -> list[RGB]:
    both = [style.WASTELAND, style.dim(style.WASTELAND)]
    lines = [style.grid_line(c) for c in both]
    return [*both, *lines, *(style.grid_line(c) for c in lines)]


def fixed_palette() -> Palette:
    """How every picture's palette starts: the style's colours and the steps of the text on
    the background (and of the legend's black letters on grey). These indices are the same in
    every picture, so what is drawn only in them is drawn once and reused (the coordinates
    round the map, the first part of the legend). A copy of the one made once."""
    return _fixed().copy()


@cache
def _fixed() -> Palette:
    pal = Palette(_base_colours())
    background = pal.add(style.BACKGROUND)
    pal.ramp(background, pal.add(style.TEXT))
    pal.ramp(background, pal.add(style.TEXT_DIM))
    pal.ramp(pal.add(style.NEUTRAL), pal.add((0, 0, 0)))
    return pal


def palette_for(view: View, colours: Colours = "nation") -> Palette:
    """The picture's palette before drawing: `fixed_palette` (the relation colours among them),
    then each nation's colour and its remembered (dimmed) shade when nations are drawn in
    their own colours."""
    pal = fixed_palette()
    if coloured_by_relation(view, colours):
        return pal
    for n in view.nations.values():
        colour = style.parse_colour(n.colour)
        pal.add(colour)
        pal.add(style.dim(colour, 0.7))
    return pal


def coloured_by_relation(view: View, colours: Colours) -> bool:
    """Whether owners are coloured by relation (never in the full view: it has none)."""
    if colours not in ("relation", "nation"):
        raise ValueError(f"colours are 'relation' or 'nation', not {colours!r}")
    return colours == "relation" and view.nation in view.nations


def relation_ring(view: View, owner: str | None, colours: Colours = "nation") -> RGB | None:
    """The colour of the ring round another nation's cities and units on a nation's own map
    drawn in nations' colours: its relation's (`style.RELATION_COLOURS`). None for the viewer's
    own things, unowned cities, the full view (no relations) and maps coloured by relation
    (their fill already says it)."""
    if owner is None or owner == view.nation or owner not in view.nations:
        return None
    if view.nation not in view.nations or coloured_by_relation(view, colours):
        return None
    return style.RELATION_COLOURS[relation_of(view, owner)]


def owner_colour(view: View, owner: str | None, colours: Colours = "nation") -> RGB:
    if owner is None or owner not in view.nations:
        return style.NEUTRAL
    if coloured_by_relation(view, colours):
        return style.RELATION_COLOURS[relation_of(view, owner)]
    return style.parse_colour(view.nations[owner].colour)


def relation_of(view: View, owner: str) -> str:
    """ "you" or the relation group of another nation (`style.relation_group`)."""
    if owner == view.nation:
        return "you"
    n = view.nations[owner]
    return style.relation_group(n.relation_to, n.relation_from)


class MapCanvas(Canvas):
    """The kit's canvas, with the owners coloured as `colours` says."""

    def __init__(self, image: Image.Image, pal: Palette, colours: Colours = "nation") -> None:
        super().__init__(image, pal)
        self.colours = colours
        self._owners: dict[str | None, int] = {}
        self._rings: dict[str | None, int | None] = {}

    def owner(self, view: View, owner: str | None) -> int:
        """The index of a nation's colour (neutral grey for none)."""
        i = self._owners.get(owner)
        if i is None:
            i = self._owners[owner] = self.pal.add(owner_colour(view, owner, self.colours))
        return i

    def ring(self, view: View, owner: str | None) -> int | None:
        """The index of the relation ring's colour round `owner`'s things (`relation_ring`)."""
        if owner not in self._rings:
            colour = relation_ring(view, owner, self.colours)
            self._rings[owner] = None if colour is None else self.pal.add(colour)
        return self._rings[owner]
