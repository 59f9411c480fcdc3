"""The colours a player must tell apart stay apart, measured in CIEDE2000 (`renderers/colour.py`).

Thresholds: the complaints this palette answers measured 10.6 (the blue nation's ships on
water), 13.9 (crimson against the attack marker) and 16.1 (orange against the interception
marker): all under 18, so anything a unit or city is drawn in keeps at least 18 from the terrain
under it, the fog, the unowned cities, the markers and the other relation colours. Two nations are
also told apart by the legend and by relation, and the palette has 18 of them: they keep 14
between each other (the closest pairs of the old palette, pink/lavender 15.0 and cream/apricot
14.1, drew no complaint)."""

from __future__ import annotations

import itertools

from bot.games.strategic.side import DEFAULT_NATIONS
from engine.interface import colours
from engine.interface.colours import PALETTE
from engine.strategic.kind import MAX_NATIONS
from engine.supplylines.mapgen import MAX_PLAYERS
from renderers.colour import delta_e, distance
from renderers.strategic import style

APART = 18.0
NATIONS_APART = 14.0
FIRST = 18  # the first colours, given to games of up to 18 nations, keep NATIONS_APART
# the first 8 (every seat of a Supply Lines game, of a Strategic Initiative game of the default
# size) keep FEW_APART: red and orange, 18.4 apart, were hard to tell apart at 550 pixels
FEW, FEW_APART = 8, 25.0
ALL_APART = 12.5  # every colour of a game of up to 32 nations

FIXED = {
    "water": style.WATER,
    "land": style.LAND,
    "coast": style.COAST,
    "waste": style.WASTE,
    "never seen": style.NEVER_SEEN,
    "unowned city": style.NEUTRAL,
    **{f"{k} marker": v for k, v in style.MARKER_COLOURS.items()},
}


def closest(colours: dict[str, tuple[int, int, int]]) -> tuple[float, str, str]:
    return min(
        (distance(a, b), x, y) for (x, a), (y, b) in itertools.combinations(colours.items(), 2)
    )


def test_the_colour_difference_is_ciede2000() -> None:
    # Sharma, Wu and Dalal's test data (pairs 1, 7, 17 and 25)
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]
    for one, other, want in pairs:
        assert abs(delta_e(one, other) - want) < 1e-4
        assert abs(delta_e(other, one) - want) < 1e-4
    assert distance((0, 0, 0), (255, 255, 255)) == distance((255, 255, 255), (0, 0, 0)) > 99


def test_terrain_fog_markers_and_relation_colours_stay_apart() -> None:
    colours = {**FIXED, **{f"{k} relation": v for k, v in style.RELATION_COLOURS.items()}}
    gap, one, other = closest(colours)
    assert gap >= APART, f"{one} and {other} are {gap:.1f} apart"


def test_every_nation_colour_stands_off_the_map_and_from_the_others() -> None:
    nations = {name: style.parse_colour(hexa) for name, hexa in PALETTE.items()}
    for name, colour in nations.items():
        for what, other in FIXED.items():
            gap = distance(colour, other)
            assert gap >= APART, f"{name} is {gap:.1f} from {what}"
    gap, first, second = closest(dict(list(nations.items())[:FIRST]))
    assert gap >= NATIONS_APART, f"{first} and {second} are {gap:.1f} apart"
    gap, first, second = closest(nations)
    assert gap >= ALL_APART, f"{first} and {second} are {gap:.1f} apart"


def test_the_colours_of_a_game_of_up_to_eight_are_far_apart() -> None:
    assert FEW >= MAX_PLAYERS and FEW >= DEFAULT_NATIONS
    first = [style.parse_colour(hexa) for hexa in list(PALETTE.values())[:FEW]]
    joined: list[str] = []
    for _ in range(FEW):  # what the joiners of a game get, one after another
        joined.append(colours.default_colour(joined))
    assert [style.parse_colour(c) for c in joined] == first
    for (i, one), (j, other) in itertools.combinations(enumerate(first), 2):
        gap = distance(one, other)
        assert gap >= FEW_APART, f"{list(PALETTE)[i]} and {list(PALETTE)[j]} are {gap:.1f} apart"


def test_the_largest_game_gives_every_nation_a_colour_of_its_own() -> None:
    taken: list[str] = []
    for _ in range(MAX_NATIONS):
        colour = colours.default_colour(taken)
        assert colour != colours.FALLBACK and colour not in taken
        taken.append(colour)
    assert len(set(taken)) == MAX_NATIONS


def test_the_old_colours_that_players_could_not_see_would_fail() -> None:
    old_blue, old_red, old_orange = (0x43, 0x63, 0xD8), (0xE6, 0x19, 0x4B), (0xF5, 0x82, 0x31)
    assert distance(old_blue, (38, 84, 150)) < APART  # the old water
    assert distance(old_red, (255, 64, 48)) < APART  # the old attack marker
    assert distance(old_orange, (255, 170, 0)) < APART  # the old interception marker
    assert distance((0xFF, 0x2D, 0x5A), (0xFF, 0x3C, 0x00)) < FEW_APART  # session 13's red, orange


def test_a_colour_taken_before_the_palette_changed_still_counts_as_its_name() -> None:
    """A lobby open across the change: its first joiner got the old red; the next joiner gets
    blue, not today's red (4 apart from the old one), and the old red is still "red"."""
    old_red = "#ff2d5a"
    assert distance(style.parse_colour(old_red), style.parse_colour(PALETTE["red"])) < 10
    assert colours.default_colour([old_red]) == PALETTE["blue"]
    assert colours.name_of(old_red) == "red" == colours.name_of(PALETTE["red"])
    assert colours.name_of("#123456") is None
    for hexa, name in colours.FORMERLY.items():
        assert name in PALETTE and hexa != PALETTE[name]
