"""Caldera's star map: the tiles placed round Earth (`StarMap`, keyed "q,r": `hexes`), placing a
drawn tile with the seed's rule that no planet or asteroid system lies next to a planet,
scouting (the event table's tile set drawn and placed), what moving costs (the seed's distance
table), the cheapest cost between places and every place within an engine's range, and the
minerals a tile yields in a turn (the seed's minerals table, times the number of players).

The tables are the ruleset's (`rules.MapRules`: the `[map]` section of
data/rulesets/caldera/standard.toml); the code holds only the mechanisms.

    rules = engine.caldera.rules.load().map
    m = new_map()                                             # Earth alone, zone 1
    unexplored(m)                                             # ["0,-1", "1,-1", ...]
    scout(m, rules, "0,-1", "A", draw, tiles, zone=1, turn=1) # draw: tile set -> card id
    reachable(m, rules, "0,0", 6)                             # {"0,-1": 1, ...}
    tile_minerals(m.tiles["0,-1"], rules, players=2)

Decisions where the seed is silent (the project's own, written in docs/RULES-CALDERA.md,
"The star map"):
- "Put a C tile between": the C tile goes where the ship scouted, and the drawn planet or
  asteroid system one step further out, on an unplaced place next to it that breaks no rule:
  straight on away from the first tile it may not lie next to, else the first such place
  north, then clockwise. With no such place the drawn tile is not placed (`Scouted.unplaced`: the
  caller discards it) and the C tile stays.
- The rule holds both ways: a planet is not placed next to an asteroid system either.
- Moving into a tile costs its layer's cost from the table: the nebula columns when the tile
  is a nebula or its asteroids lie in one, the half-nebula column when an empty tile is entered
  from an empty tile; multipliers never add up. Entering Earth costs as a first-layer tile.
  Beyond the table's last layer the pattern goes on (the ruleset's `MapRules.distance`).
- Unexplored space (an unplaced place next to the map) costs its layer's plain cost to enter
  and is an end point: a ship ends its move there, it does not pass through.
- Earth yields the planet minerals of its zone (1); empty space and nebulas yield nothing; an
  asteroid system yields the sum of its asteroids; beyond the table's last zone a tile yields
  the last zone's minerals (`MapRules.minerals_of`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from engine.caldera import hexes
from engine.caldera.rules import MapRules
from engine.caldera.tiles import Face, Kind, Size, TileSet

EARTH = hexes.key(hexes.EARTH)


class Tile(Face):
    """A tile on the map: what it shows, the zone current when it was placed, the tile card it
    came from (None: Earth), the turn it was placed in and who scouted it (a captain's or an
    NPC's id; None: Earth, or revealed by a new zone), who controls it and whose base it holds
    (an NPC's id), for the rules that need them."""

    zone: int = Field(ge=1)
    card: str | None = None
    turn: int = 0
    scouted_by: str | None = None
    controller: str | None = None
    base: str | None = None


class StarMap(BaseModel):
    """The tiles placed, by key "q,r" (at first Earth alone, zone 1)."""

    model_config = ConfigDict(extra="forbid")

    tiles: dict[str, Tile] = Field(default_factory=lambda: {EARTH: Tile(kind=Kind.EARTH, zone=1)})

    def tile(self, place: str) -> Tile | None:
        return self.tiles.get(place)


class MapError(ValueError):
    """A place that cannot be scouted or placed; the message says why."""


def new_map(zone: int = 1) -> StarMap:
    """Earth alone, in the middle."""
    return StarMap(tiles={EARTH: Tile(kind=Kind.EARTH, zone=zone)})


def is_unexplored(starmap: StarMap, place: str) -> bool:
    """An unplaced place next to a placed tile: a ship may move there, and scouting places a
    tile there."""
    if place in starmap.tiles:
        return False
    h = hexes.parse(place)
    return any(hexes.key(n) in starmap.tiles for n in hexes.neighbours(h))


def unexplored(starmap: StarMap) -> list[str]:
    """Every unexplored place, in the seed's order (closest to Earth, north, clockwise)."""
    out = set()
    for place in starmap.tiles:
        for n in hexes.neighbours(hexes.parse(place)):
            k = hexes.key(n)
            if k not in starmap.tiles:
                out.add(k)
    return hexes.sorted_places(out)


def places(starmap: StarMap) -> list[str]:
    """Every placed tile, in the seed's order."""
    return hexes.sorted_places(starmap.tiles)


# --- placing --------------------------------------------------------------------------------


def _clashes(face: Face, other: Face) -> bool:
    """Whether the two may not lie next to each other: no planet or asteroid system next to a
    planet."""
    if face.is_planet:
        return other.is_planet or other.is_asteroids
    if face.is_asteroids:
        return other.is_planet
    return False


def clashes(starmap: StarMap, place: str, face: Face) -> list[str]:
    """The placed tiles next to `place` that `face` may not lie next to, north first, then
    clockwise."""
    out = []
    for n in hexes.neighbours(hexes.parse(place)):
        k = hexes.key(n)
        other = starmap.tiles.get(k)
        if other is not None and _clashes(face, other):
            out.append(k)
    return out


def place_tile(
    starmap: StarMap,
    place: str,
    face: Face,
    *,
    zone: int,
    card: str | None = None,
    turn: int = 0,
    by: str | None = None,
) -> Tile:
    """Put a tile on an unplaced place; a `MapError` if the place is taken or the tile would
    lie next to a planet it may not (`clashes`)."""
    if place in starmap.tiles:
        raise MapError(f"{place} already holds a tile")
    bad = clashes(starmap, place, face)
    if bad:
        other = starmap.tiles[bad[0]].kind.value
        raise MapError(f"a {face.kind.value} tile may not lie next to the {other} at {bad[0]}")
    tile = Tile(
        kind=face.kind,
        asteroids=list(face.asteroids),
        planet=face.planet,
        nebula=face.nebula,
        zone=zone,
        card=card,
        turn=turn,
        scouted_by=by,
    )
    starmap.tiles[place] = tile
    return tile


def beyond(starmap: StarMap, place: str, face: Face) -> str | None:
    """Where a tile that may not lie at `place` goes once a C tile is put there: an unplaced
    neighbour of `place` where it breaks no rule, straight on from the first tile it clashes
    with first, else the first such place north, then clockwise. None: no such place."""
    h = hexes.parse(place)
    bad = clashes(starmap, place, face)
    preferred = []
    if bad:
        b = hexes.parse(bad[0])
        preferred.append((2 * h[0] - b[0], 2 * h[1] - b[1]))
    for n in preferred + hexes.neighbours(h):
        k = hexes.key(n)
        if k in starmap.tiles or k == place:
            continue
        if not clashes(starmap, k, face):
            return k
    return None


@dataclass
class Scouted:
    """What scouting one place did: the tile set drawn from, the card drawn and where it was
    placed (None: nowhere it was allowed; `unplaced` then holds it for the caller to discard),
    the C card put between (at the scouted place) and every place a tile was put, in order."""

    place: str
    tile_set: str
    card: str
    at: str | None
    between: str | None = None
    placed: list[str] = field(default_factory=list)
    unplaced: str | None = None


def scout(
    starmap: StarMap,
    rules: MapRules,
    place: str,
    tile_set: str,
    draw: Callable[[str], str],
    tiles: TileSet,
    *,
    zone: int,
    turn: int = 0,
    by: str | None = None,
) -> Scouted:
    """Scout an unexplored place with the event table's tile set ("A", "B" or "C"): a card is
    drawn from that set's deck (`draw(set) -> card id`, the game's deck and chance) and placed
    there; a planet or asteroid system that may not lie there (next to a planet, or a planet
    next to an asteroid system) gets a tile of the set `rules.between_planets` (C) between:
    that tile here, the drawn tile one step further out (`beyond`)."""
    if not is_unexplored(starmap, place):
        if place in starmap.tiles:
            raise MapError(f"{place} is already scouted")
        raise MapError(f"{place} is not next to the known map")
    card_id = draw(tile_set)
    card = tiles.card(card_id)
    face = card.face()
    done = Scouted(place=place, tile_set=tile_set, card=card_id, at=place)
    if not clashes(starmap, place, face):
        place_tile(starmap, place, face, zone=zone, card=card_id, turn=turn, by=by)
        done.placed.append(place)
        return done
    further = beyond(starmap, place, face)
    between_id = draw(rules.between_planets)
    between = tiles.card(between_id)
    place_tile(starmap, place, between.face(), zone=zone, card=between_id, turn=turn, by=by)
    done.between = between_id
    done.placed.append(place)
    if further is None:
        done.at = None
        done.unplaced = card_id
        return done
    place_tile(starmap, further, face, zone=zone, card=card_id, turn=turn, by=by)
    done.at = further
    done.placed.append(further)
    return done


# --- moving ---------------------------------------------------------------------------------


def entering_cost(starmap: StarMap, rules: MapRules, frm: str, to: str) -> int | None:
    """What moving from `frm` into the tile next to it at `to` costs (the distance table);
    None when `to` is not next to `frm`, or is neither placed nor unexplored."""
    a, b = hexes.parse(frm), hexes.parse(to)
    if hexes.distance(a, b) != 1:
        return None
    row = rules.distance(max(1, hexes.layer(b)))  # Earth: as a first-layer tile
    target = starmap.tiles.get(to)
    if target is None:
        return row.step if is_unexplored(starmap, to) else None
    medium = target.medium
    source = starmap.tiles.get(frm)
    if target.kind == Kind.EMPTY and source is not None and source.kind == Kind.EMPTY:
        medium = Kind(rules.empty_to_empty)  # the seed: counted as half nebula
    if medium == Kind.FULL_NEBULA:
        return row.full_nebula
    if medium == Kind.HALF_NEBULA:
        return row.half_nebula
    return row.step


def costs_from(
    starmap: StarMap, rules: MapRules, start: str, budget: int | None = None
) -> dict[str, int]:
    """The cheapest cost from `start` to every place a ship there can reach (within `budget`
    when given), `start` itself at 0: placed tiles, and unexplored places as end points."""
    best = {start: 0}
    heap = [(0, hexes.key_order(start), start)]
    while heap:
        cost, _, place = heapq.heappop(heap)
        if cost > best.get(place, cost):
            continue
        if place != start and place not in starmap.tiles:
            continue  # unexplored: an end point
        for n in hexes.neighbours(hexes.parse(place)):
            k = hexes.key(n)
            step = entering_cost(starmap, rules, place, k)
            if step is None:
                continue
            total = cost + step
            if budget is not None and total > budget:
                continue
            if total < best.get(k, total + 1):
                best[k] = total
                heapq.heappush(heap, (total, hexes.key_order(k), k))
    return best


def cheapest(starmap: StarMap, rules: MapRules, frm: str, to: str) -> int | None:
    """The cheapest cost of a move from `frm` to `to`; None when no move gets there."""
    return costs_from(starmap, rules, frm).get(to)


def reachable(starmap: StarMap, rules: MapRules, start: str, engine_range: int) -> dict[str, int]:
    """Every place a ship at `start` with this engine range can move to, with its cost, in the
    seed's order (not `start` itself)."""
    costs = costs_from(starmap, rules, start, engine_range)
    return {k: costs[k] for k in hexes.sorted_places(costs) if k != start}


# --- mining ---------------------------------------------------------------------------------


def minerals(tile: Face, zone: int, rules: MapRules, players: int) -> int:
    """The most a turn of mining takes from this tile: its asteroids' (or its planet's, or
    Earth's, a planet) minerals in its zone, times the number of players."""
    if tile.kind in (Kind.PLANET, Kind.EARTH):
        return rules.minerals_of(zone, "planet", players)
    if tile.kind == Kind.ASTEROIDS:
        return sum(rules.minerals_of(zone, Size(s).value, players) for s in tile.asteroids)
    return 0


def tile_minerals(tile: Tile, rules: MapRules, players: int) -> int:
    """`minerals` of a placed tile, in the zone it was placed in."""
    return minerals(tile, tile.zone, rules, players)
