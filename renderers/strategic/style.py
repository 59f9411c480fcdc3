"""The colours, sizes and names of a Strategic Initiative map: terrain and fog, markers,
relations, units' signs, cities' letters, units' short names, the size of a square. The kit's
colours and font (`renderers/style.py`) are here too, so a map's code reads one style.

The colours a player must tell apart (terrain, fog, unowned cities, markers, the relation
colours and the nations' palette, `engine/interface/colours.py`) stay at least 18 apart in
CIEDE2000 (`renderers/colour.py`, `tests/renderers/test_palette.py`)."""

from __future__ import annotations

from renderers import style as kit
from renderers.style import BACKGROUND as BACKGROUND
from renderers.style import NEUTRAL as NEUTRAL
from renderers.style import OUTLINE as OUTLINE
from renderers.style import TEXT as TEXT
from renderers.style import TEXT_DIM as TEXT_DIM
from renderers.style import font as font
from renderers.style import parse_colour as parse_colour
from renderers.style import text_on as text_on

# terrain colours, indexed by View.terrain (0 never seen, 1 + WATER/LAND/WASTE), plus coast
NEVER_SEEN = (18, 20, 26)
WATER = (38, 84, 150)
LAND = (96, 150, 72)
COAST = (186, 176, 110)  # land next to water: where ships can reach
WASTE = (92, 80, 72)
WASTELAND = (150, 64, 120)  # a city an ICBM hit, for a while (ruleset total-war)
GRID_LINE = (0, 0, 0)
REMEMBERED_DIM = 0.55  # squares known but not in sight now are drawn at this brightness

MARKER_COLOURS = {
    "attack": (255, 255, 255),  # a ring with ticks: a cross-hair
    "capture": kit.CAPTURE,
    "interception": (0, 240, 255),
    "blast": kit.CLASH,
    "lost": kit.LOST,
}
UNKNOWN_MARKER = (255, 0, 0)  # a marker of a kind not above
MARKER_HALO = (255, 255, 255)  # under the dark markers, so they read on dark water and fog
HALOED_MARKERS = frozenset({"lost"})

# a nation's relation to the viewer: the ring round its cities and units on the viewer's map
# (or their fill, with `colours="relation"`); the worse of the two directions counts (a nation
# at war with you is "war" whatever you think of it)
RELATION_COLOURS = {
    "you": kit.YOURS,
    "allied": (130, 120, 255),
    "friendly": (150, 255, 120),
    "neutral": (255, 170, 210),
    "war": (230, 0, 0),
}
# each level of a ruleset's diplomacy as one of the five (non-aggression is still neutral)
RELATION_OF_LEVEL = {
    "war": "war",
    "neutral": "neutral",
    "non_aggression": "neutral",
    "friendly": "friendly",
    "allied": "allied",
}
_RELATION_RANK = {"war": 0, "neutral": 1, "friendly": 2, "allied": 3}


def relation_group(relation_to: str, relation_from: str) -> str:
    """The relation colour's name for a nation: the worse of the two directions."""
    groups = (RELATION_OF_LEVEL.get(r, "neutral") for r in (relation_to, relation_from))
    return min(groups, key=lambda g: _RELATION_RANK[g])


TERRITORY_SAMPLE = (150, 150, 150)  # the legend's sample of tinted land (grey: any nation's)
HP_BAR = (255, 255, 255)  # hit points left, over OUTLINE for what is lost
ORDER_LINE = (240, 240, 240)  # a standing order: from the unit to where it goes
STRIKE_LINE = (255, 80, 80)  # a queued attack: from the unit to the square it will attack
NO_SUPPLY = (255, 255, 255)  # the "!" on a black badge: out of supply
LEGEND_OUTLINE = (90, 90, 90)  # round the legend's swatches
LEGEND_UNIT = (200, 200, 200)  # the legend's unit shapes

DESIGNATION_LETTERS = {
    "fort": "F",
    "port": "P",
    "airport": "A",
    "tech": "T",
    "base": "B",
    "city": "C",
}

# short names for unit types on zoomed pictures
UNIT_SHORT = {
    "infantry": "inf",
    "tank": "tank",
    "engineer": "eng",
    "anti_tank": "at",
    "transport": "trn",
    "supply_ship": "sup",
    "patrol_boat": "pb",
    "destroyer": "dd",
    "battleship": "bb",
    "submarine": "sub",
    "carrier": "cv",
    "cruiser": "ca",
    "zeppelin": "zep",
    "fighter": "ftr",
    "cargo_plane": "cgo",
    "heavy_bomber": "hb",
    "naval_bomber": "nb",
    "helicopter": "heli",
    "satellite": "sat",
    "icbm_1": "icbm1",
    "icbm_2": "icbm2",
    "icbm_3": "icbm3",
}


def short_name(type_name: str) -> str:
    return UNIT_SHORT.get(type_name, type_name[:4])


def grid_line_array(pixels):
    """Grid lines: three quarters of the brightness under them (integer arithmetic)."""
    return (pixels >> 1) + (pixels >> 2)


def grid_line(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple((v >> 1) + (v >> 2) for v in colour)  # type: ignore[return-value]


def dim(colour: tuple[int, int, int], factor: float = REMEMBERED_DIM) -> tuple[int, int, int]:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def cell_size(width: int, height: int, target: int = 1600) -> int:
    """Pixels per square of a full-map picture: about `target` pixels across, 5 to 20 a square."""
    return max(5, min(20, target // max(width, height)))
