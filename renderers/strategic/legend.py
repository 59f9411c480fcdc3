"""The legend under a map: what its signs mean (terrain always, then only what the picture
drew), the cities' letters, and the owners: each nation the picture knows, in its colour,
inside the ring of its relation to the viewer, named with that relation ("AI 2: war")."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engine.strategic.rules import Ruleset
from engine.strategic.view import View
from renderers.canvas import Canvas
from renderers.palette import RGB
from renderers.strategic import style
from renderers.strategic.canvas import (
    Colours,
    fixed_palette,
    owner_colour,
    relation_of,
    relation_ring,
)
from renderers.strategic.units import hp_bar, no_supply, unit_shape
from renderers.text import paste


@dataclass(frozen=True)
class Legend:
    width: int
    height: int
    items: list[tuple[str, tuple[str, object]]]
    nations: list[tuple[str, RGB, RGB | None]]  # label, fill, relation ring
    per_row: int
    per_row_nations: int


_LEGEND_PX = 13
_LEGEND_COL = 150
_LEGEND_NATION_COL = 265
_SHAPE_NAMES = {"land": "land unit", "sea": "ship", "air": "aircraft", "tech": "satellite, missile"}


def legend_layout(
    view: View, rules: Ruleset, width: int, colours: Colours, drawn: set[str]
) -> Legend:
    """What the picture's signs mean: terrain always, then only what was drawn (unit shapes,
    last seen, counts, hit points, supply, orders, the markers), the cities, and the owners."""
    items: list[tuple[str, tuple[str, object]]] = [
        ("in sight", ("swatch", style.LAND)),
        ("remembered", ("swatch", style.dim(style.LAND))),
        ("never seen", ("swatch", style.NEVER_SEEN)),
        ("water", ("swatch", style.WATER)),
        ("coast: land by water", ("swatch", style.COAST)),
    ]
    if view.wastelands:
        items.append(("wasteland: deadly", ("swatch", style.WASTELAND)))
    for cls, name in _SHAPE_NAMES.items():
        if f"shape:{cls}" in drawn:
            items.append((name, ("shape", cls)))
    if "dot" in drawn:
        items.append(("dot: units there", ("dot", None)))
    if "territory" in drawn:
        items.append(("edge: owner's land", ("territory", None)))
    if "front" in drawn:
        items.append(("front line (war)", ("front", None)))
    if any(d.startswith("ghost:") for d in drawn):
        items.append(("hollow, ?: last seen", ("ghost", "land")))
    if "count" in drawn:
        items.append(("number: units there", ("count", "3")))
    if "stack" in drawn:
        items.append(("inf 4: 4 infantry", ("count", "4")))
    if "hp" in drawn:
        items.append(("hit points left", ("hp", 0.6)))
    if "supply" in drawn:
        items.append(("out of supply", ("supply", None)))
    if "order" in drawn:
        items.append(("standing order", ("order", None)))
    if "strike" in drawn:
        items.append(("queued attack", ("strike", None)))
    if "waypoint" in drawn:
        items.append(("city's waypoint", ("waypoint", None)))
    for ct in rules.cities:
        letter = style.DESIGNATION_LETTERS.get(ct.name, ct.name[:1].upper())
        items.append((ct.title.lower(), ("city", letter)))
    for kind in ("attack", "capture", "interception", "blast", "lost"):
        if f"marker:{kind}" in drawn:
            items.append((kind if kind != "lost" else "unit lost", ("marker", kind)))
    nations: list[tuple[str, RGB, RGB | None]] = []
    rank: dict[str, int] = {}
    for n in view.nations.values():
        if view.nation not in view.nations:  # the full view: no relations to show
            nations.append((n.name, style.parse_colour(n.colour), None))
            continue
        rel = "you" if n.id == view.nation else n.relation_to.replace("_", " ")
        if n.id != view.nation and n.relation_from != n.relation_to:
            rel += f" (they: {n.relation_from.replace('_', ' ')})"
        if n.out:
            rel += ", out"
        label = f"{n.name}: {rel}"
        rank[label] = list(style.RELATION_COLOURS).index(relation_of(view, n.id))
        ring = relation_ring(view, n.id, colours)
        nations.append((label, owner_colour(view, n.id, colours), ring))
    if rank:  # you first, then by relation, friends before foes
        nations.sort(key=lambda item: rank[item[0]])
    nations.append(("unowned", style.NEUTRAL, None))
    per_row = max(1, (width - 12) // _LEGEND_COL)
    per_row_nations = max(1, (width - 12) // _LEGEND_NATION_COL)
    rows = -(-len(items) // per_row) + -(-len(nations) // per_row_nations)
    height = rows * (_LEGEND_PX + 8) + 10
    return Legend(width, height, items, nations, per_row, per_row_nations)


def draw_legend(canvas: Canvas, legend: Legend, y0: int) -> None:
    draw = canvas.draw
    ink = canvas.ink
    bg = style.BACKGROUND
    s = _LEGEND_PX
    row_h = s + 8
    per_row = legend.per_row
    width, height = canvas.image.size
    draw.rectangle((0, y0, width - 1, height - 1), fill=ink(bg))  # over markers near the edge
    # what the signs mean: the same in every picture of a ruleset and width, drawn once
    paste(canvas.image, _legend_items(tuple(legend.items), per_row, width), 0, y0)
    base = y0 + 4 + (-(-len(legend.items) // per_row)) * row_h
    wide = _LEGEND_NATION_COL
    per_row_n = legend.per_row_nations
    for i, (label, colour, ring) in enumerate(legend.nations):
        x = 8 + (i % per_row_n) * wide
        y = base + (i // per_row_n) * row_h
        if ring is not None:  # the nation's colour inside its relation's ring, as on the map
            draw.rectangle((x, y + 1, x + s, y + 1 + s), fill=ink(ring), outline=ink(style.OUTLINE))
            draw.rectangle(
                (x + 3, y + 4, x + s - 3, y + s - 2), fill=ink(colour), outline=ink(style.OUTLINE)
            )
        else:
            draw.rectangle(
                (x, y + 1, x + s, y + 1 + s), fill=ink(colour), outline=ink(style.OUTLINE)
            )
        canvas.text((x + s + 5, y), label[:34], _LEGEND_PX, style.TEXT, bg)


@lru_cache(maxsize=16)
def _legend_items(
    items: tuple[tuple[str, tuple[str, object]], ...], per_row: int, width: int
) -> Image.Image:
    """The legend's signs (terrain, units, cities, markers) as indices of `fixed_palette`."""
    pal = fixed_palette()
    s = _LEGEND_PX
    row_h = s + 8
    image = Image.new(
        "L", (width, 4 + (-(-len(items) // per_row)) * row_h), pal.add(style.BACKGROUND)
    )
    canvas = Canvas(image, pal)
    draw = canvas.draw
    ink = canvas.ink
    bg = style.BACKGROUND
    y0 = 0
    for i, (label, (kind, arg)) in enumerate(items):
        x = 8 + (i % per_row) * _LEGEND_COL
        y = y0 + 4 + (i // per_row) * row_h
        box = (x, y + 1, x + s, y + 1 + s)
        if kind == "swatch":
            draw.rectangle(box, fill=ink(arg), outline=ink(style.LEGEND_OUTLINE))  # type: ignore[arg-type]
        elif kind in ("shape", "ghost"):
            draw.rectangle(box, fill=ink(style.LAND))
            unit_shape(
                canvas,
                str(arg),
                (x + 2, y + 3, x + s - 2, y + s - 1),
                ink(style.LEGEND_UNIT),
                ink(style.OUTLINE),
                ghost=kind == "ghost",
            )
        elif kind == "city":
            draw.rectangle(box, fill=ink(style.NEUTRAL), outline=ink(style.OUTLINE))
            canvas.text(
                (x + s / 2, y + 1 + s / 2),
                str(arg),
                11,
                (0, 0, 0),
                style.NEUTRAL,
                anchor="mm",
                clip=(x + 1, y + 2, x + s, y + 1 + s),
            )
        elif kind == "marker":
            draw.ellipse(box, outline=ink(style.MARKER_COLOURS[str(arg)]), width=2)
        elif kind == "dot":
            draw.rectangle(box, fill=ink(style.LAND))
            draw.ellipse(
                (x + 3, y + 4, x + s - 3, y + s - 2),
                fill=ink(style.LEGEND_UNIT),
                outline=ink(style.OUTLINE),
            )
        elif kind == "territory":
            draw.rectangle(box, fill=ink(style.LAND))
            draw.rectangle(box, outline=ink(style.TERRITORY_SAMPLE), width=2)
        elif kind == "front":
            draw.rectangle(box, fill=ink(style.LAND))
            draw.line(
                (x + s // 2, y + 1, x + s // 2, y + 1 + s),
                fill=ink(style.RELATION_COLOURS["war"]),
                width=3,
            )
        elif kind == "count":
            canvas.text((x + s / 2, y + 1 + s / 2), str(arg), _LEGEND_PX, style.TEXT, bg, "mm")
        elif kind == "hp":
            draw.rectangle(box, fill=ink(style.LAND))
            hp_bar(canvas, x + 1, y + s - 3, x + s - 1, 3, float(arg))  # type: ignore[arg-type]
        elif kind == "supply":
            draw.rectangle(box, fill=ink(style.LAND))
            no_supply(canvas, x + 2, y + 3, s - 3)
        elif kind == "order":
            draw.line((x, y + s - 1, x + s - 3, y + 4), fill=ink(style.OUTLINE), width=4)
            draw.line((x, y + s - 1, x + s - 3, y + 4), fill=ink(style.ORDER_LINE), width=2)
        elif kind == "strike":
            draw.line((x, y + s - 1, x + s - 5, y + 5), fill=ink(style.OUTLINE), width=4)
            draw.line((x, y + s - 1, x + s - 5, y + 5), fill=ink(style.STRIKE_LINE), width=2)
            for ink_, w in ((style.OUTLINE, 4), (style.STRIKE_LINE, 2)):
                draw.line((x + s - 9, y + 1, x + s - 1, y + 9), fill=ink(ink_), width=w)
                draw.line((x + s - 9, y + 9, x + s - 1, y + 1), fill=ink(ink_), width=w)
        elif kind == "waypoint":
            for ink_, w in ((style.OUTLINE, 4), (style.ORDER_LINE, 2)):
                draw.line((x, y + s - 1, x + 4, y + s - 5), fill=ink(ink_), width=w)
                draw.line((x + 7, y + s - 8, x + 10, y + s - 11), fill=ink(ink_), width=w)
            mx, my, r = x + s - 4, y + 4, 4
            draw.polygon(
                [(mx, my - r), (mx + r, my), (mx, my + r), (mx - r, my)],
                fill=ink(style.ORDER_LINE),
                outline=ink(style.OUTLINE),
            )
        canvas.text((x + s + 5, y), label, _LEGEND_PX, style.TEXT, bg)
    assert len(pal) == len(fixed_palette()), "the legend's signs need no other colour"
    return image
