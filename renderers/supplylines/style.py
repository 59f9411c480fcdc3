"""Supply Lines' colours (the rest are the kit's, `renderers.style`), the shapes structures
are drawn as, the units' letters on badges, and the picture's proportions: given for a picture
of `BASE` pixels, scaled by `px`."""

from __future__ import annotations

from renderers import style

ROAD = (84, 90, 104)
CONFLICT = style.CLASH  # bursts and bump-backs
CAPTURE = style.CAPTURE
LOST = style.LOST
IMMOBILE = (235, 30, 30)
SHORT = (255, 70, 70)  # "!": a network short of supply lines
QUESTION = style.YOURS  # "?": a supply choice to make
PIP = (0, 0, 0)
PIP_EDGE = (255, 255, 255)
BADGE_DARK = (16, 16, 20)
LEGEND_INK = (230, 230, 230)  # the legend's signs on a moderator's picture
HEADER_LINE = (60, 64, 74)
# the shape a structure type is drawn as (`draw_shape`); other types are hexagons
SHAPES = {"city": "circle", "home": "house", "refinery": "diamond", "base": "square"}
SHAPE_NAMES = {
    "circle": "city",
    "house": "home city",
    "diamond": "refinery",
    "square": "military base",
}
# a unit type's letter on badges ("3i 1T"); other types: their first letter
UNIT_LETTERS = {"infantry": "i", "tank": "T"}
BASE = 900  # the picture's size (pixels square) that the drawing's proportions are given for


def unit_letter(type_: str) -> str:
    return UNIT_LETTERS.get(type_, type_[:1] or "?")


def counts_text(counts: dict[str, int]) -> str:
    """{"infantry": 3, "tank": 1} -> "3i 1T" (in the order given)."""
    return " ".join(f"{n}{unit_letter(t)}" for t, n in counts.items() if n > 0)


def px(layout_scale: float, n: float) -> int:
    return max(1, round(n * layout_scale))
