"""Enemies near a nation's cities: at every tick, the units of nations at war with it that it
sees within the ruleset's `sighting.threat_radius` of one of its cities (docs/RULES.md
"Enemies near your cities").

A nation is told once per threat (`EnemiesSighted`, per city and enemy nation): the world keeps
what it was told (`World.warned`, saved with the world, so neither a replay nor a restart tells
it twice or forgets it), and forgets it at the first tick the nation sees none of that enemy's
units near the city any more (they left, died, or went out of its sight): when they come back,
it is told again. What it cannot see it is never told of.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from engine.strategic import events as ev
from engine.strategic.world import MIXED, Unit, World
from engine.strategic.world.geometry import Grid


def enemies_near_cities(world: World) -> list[ev.Event]:
    """The threats begun this tick (`EnemiesSighted`, per nation, city and enemy), and
    `World.warned` brought up to date. Cost: nothing while nobody is at war; else, per nation
    at war, one look at all its cities' windows in `World.owner_at`."""
    radius = world.rules.sighting.threat_radius
    if radius is None or (not world.warned and not _any_war(world)):
        return []
    cities: dict[str, list[int]] = {}
    for city in world.cities.values():
        if city.owner is not None:
            cities.setdefault(city.owner, []).append(city.sq)
    grid = world.grid
    index = world.sight_index
    at, units = world.at, world.units
    # who owns each square's units (`World.owner_at`), read in place: a city's window is
    # looked at where its squares' codes are an enemy's, or mixed (any owners: their units
    # are read below, and only the enemies' kept), instead of the enemies' squares gathered
    # from all their units every tick
    owners = np.frombuffer(world.owner_at, dtype=np.uint8)
    out: list[ev.Event] = []
    warned: dict[str, dict[int, list[str]]] = {}
    at_war = _at_war(world)
    for nation in sorted(world.nations):
        enemies = sorted(at_war[nation])
        if not enemies or world.nations[nation].out or nation not in cities:
            continue
        wanted = np.zeros(256, dtype=bool)
        wanted[MIXED] = True
        for enemy in enemies:
            code = world.owner_code_of(enemy)
            if code is not None:  # (none: it never had a unit on the map)
                wanted[code] = True
        own = tuple(sorted(cities[nation]))
        windows = _windows(grid.width, grid.height, own, radius)
        informants = world.informants(nation)
        told = world.warned.get(nation, {})
        marked = wanted[owners[windows]]  # per city, per square of its window
        for row in np.flatnonzero(marked.any(axis=1)).tolist():
            sq = own[row]
            near: dict[str, list[tuple[int, int, Unit]]] = {}
            window = windows[row]
            for square in np.unique(window[marked[row]]).tolist():
                for uid in at.get(square, ()):
                    unit = units[uid]
                    if unit.owner in enemies and any(index.sees_unit(n, unit) for n in informants):
                        near.setdefault(unit.owner, []).append(
                            (grid.distance(sq, square), unit.id, unit)
                        )
            if not near:
                continue
            warned.setdefault(nation, {})[sq] = sorted(near)
            before = told.get(sq, [])
            for enemy in sorted(near):
                if enemy in before:
                    continue
                out.append(
                    ev.EnemiesSighted(
                        tick=world.tick,
                        to=[nation],
                        nation=nation,
                        city=grid.label(sq),
                        enemy=enemy,
                        units=[
                            {"unit": u.id, "type": u.type, "square": grid.label(u.sq)}
                            for _, _, u in sorted(near[enemy], key=lambda t: t[:2])
                        ],
                    )
                )
    world.warned = warned
    return out


def _at_war(world: World) -> dict[str, set[str]]:
    """Per nation, the nations at war with it or it with them (`World.relation` either way),
    read from the relations set rather than asked of every pair."""
    war = world.rules.diplomacy.war
    nations = world.nations
    if world.rules.diplomacy.start == war:  # unset relations are war: every pair is asked
        return {
            n: {
                o for o in nations if o != n and war in (world.relation(n, o), world.relation(o, n))
            }
            for n in nations
        }
    out: dict[str, set[str]] = {n: set() for n in nations}
    for n, nation in nations.items():
        for other, level in nation.relations.items():
            if level == war and other != n and other in nations:
                out[n].add(other)
                out[other].add(n)
    return out


def _any_war(world: World) -> bool:
    war = world.rules.diplomacy.war
    return any(war in n.relations.values() for n in world.nations.values())


@lru_cache(maxsize=4096)
def _windows(width: int, height: int, cities: tuple[int, ...], radius: int) -> np.ndarray:
    """Per city, the squares within `radius` of it (`Grid.within`), one row each (a map
    narrower than the window repeats a square to fill the row). A nation's cities change
    rarely: the same rows serve tick after tick."""
    grid = Grid(width, height)
    rows = [grid.within(sq, radius) for sq in cities]
    size = (2 * radius + 1) ** 2
    return np.array([row + [row[0]] * (size - len(row)) for row in rows], dtype=np.intp)
