"""The star map's colours (the rest are the kit's, `renderers.style`) and proportions: given
for a picture `WIDTH` pixels wide (Discord shows it at about 550, where its smallest text is
still about 9 pixels high)."""

from __future__ import annotations

from renderers import style

WIDTH = 900
MAX_RADIUS = 72  # a hex's radius on a small map

GRID = (78, 86, 112)  # hex edges
SPACE = (14, 18, 44)  # empty space: deep blue
STAR = (190, 196, 230)  # the few stars in empty space
FOG = (66, 66, 70)  # unexplored space: grey, hatched
FOG_HATCH = (92, 92, 98)
FOG_MARK = (170, 170, 176)
HALF_NEBULA = (76, 46, 110)
FULL_NEBULA = (146, 58, 150)
EARTH_FILL = (22, 44, 86)
EARTH = (46, 120, 230)
EARTH_LAND = (70, 180, 90)
ROCK = (150, 128, 104)
ROCK_EDGE = (64, 52, 40)
PLANETS = {
    "earthlike": (60, 176, 84),
    "arid": (222, 168, 84),
    "cold": (176, 224, 244),
    "vulcan": (220, 62, 34),
}
PLANET_LETTERS = {"earthlike": "E", "arid": "A", "cold": "C", "vulcan": "V"}
ZONE_INK = (236, 236, 196)
BATTLE = style.CLASH
BADGE_EDGE = (0, 0, 0)
HEADER_LINE = (60, 64, 74)
# an asteroid's radius by size, as a part of the hex's radius
ROCK_SIZES = {"small": 0.11, "average": 0.16, "huge": 0.23}
