"""What a picture reads from the game: its rules, each player's supply networks (their lines,
what their units need, where a network is short of lines, which networks send lines), the
players' seat order and colours, and the orders of owners and unit types that keep drawing
deterministic."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.interface.colours import PALETTE
from engine.supplylines import supply
from engine.supplylines.rules import Rules
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import State
from engine.supplylines.view import View
from renderers import style
from renderers.colour import distance, lab
from renderers.palette import RGB

# players' colours closer than this (CIEDE2000) are told apart on the board: the later seat is
# drawn in the palette colour farthest from the others (the nation palette keeps 14 apart,
# and red and orange, 18 apart, were hard to tell at 550 pixels)
APART = 25.0
LIGHT = 55.0  # the least CIE L* of a colour chosen instead


def rules_of(view: View) -> Rules:
    return load_rules(view.ruleset)


@dataclass(frozen=True)
class Supply:
    lines: dict[str, int]  # player -> lines of all their networks
    need: dict[str, int]  # player -> lines their units need
    # (player, structure) where a unit of the player is short of supply: left out of its
    # network's lines by the default choice (a network short of lines, but not every unit)
    short: frozenset[tuple[str, str]]
    feeding: frozenset[tuple[str, str]]  # (player, structure) in a network that sends lines


def supply_of(state: State, view: View) -> Supply:
    lines: dict[str, int] = {}
    need: dict[str, int] = {}
    short: set[tuple[str, str]] = set()
    at = {u.id: u.at for u in view.units}
    feeding: set[tuple[str, str]] = set()
    for p in seat_order(view):
        if view.players[p].out:
            continue
        lines[p] = need[p] = 0
        for network in supply.networks(state, p):
            lines[p] += network.lines
            need[p] += network.need
            if network.short and network.units:
                fed = set(supply.default_choice(state, network))
                short.update((p, at[i]) for i in network.units if i not in fed and i in at)
            if network.lines:
                feeding.update((p, s) for s in network.structures)
    return Supply(lines, need, frozenset(short), frozenset(feeding))


def seat_order(view: View) -> list[str]:
    return [p.id for p in sorted(view.players.values(), key=lambda p: (p.seat, p.id))]


def colour_of(view: View, owner: str | None) -> RGB:
    if owner is None or owner not in view.players:
        return style.NEUTRAL
    return player_colours(view)[owner]


def player_colours(view: View) -> dict[str, RGB]:
    """Each player's colour on the board: their own, unless it is closer than `APART` to an
    earlier seat's (then the palette colour farthest from all the others). The same in every
    picture of the game, whoever's view it is."""
    seats = tuple((p, view.players[p].colour) for p in seat_order(view))
    return dict(_told_apart(seats))


@lru_cache(maxsize=256)
def _told_apart(seats: tuple[tuple[str, str], ...]) -> tuple[tuple[str, RGB], ...]:
    fixed = [style.NEUTRAL, style.BACKGROUND]
    chosen = [style.parse_colour(c) for _, c in seats]
    kept: list[RGB] = []
    out = []
    for k, (pid, _) in enumerate(seats):
        colour = chosen[k]
        if any(distance(colour, other) < APART for other in kept):
            others = kept + chosen[k + 1 :] + fixed
            # (a light one: a dark colour sinks into the board's dark background)
            spare = [
                rgb
                for rgb in (style.parse_colour(c) for c in PALETTE.values())
                if lab(rgb)[0] >= LIGHT
            ]
            colour = max(spare, key=lambda c: (min(distance(c, o) for o in others), c))
        kept.append(colour)
        out.append((pid, colour))
    return tuple(out)


def owner_rank(view: View, owner: str) -> tuple[int, str]:
    player = view.players.get(owner)
    return (player.seat if player is not None else 10**6, owner)


def type_rank(rules: Rules, type_: str) -> tuple[int, str]:
    names = list(rules.units)
    return (names.index(type_) if type_ in names else len(names), type_)
