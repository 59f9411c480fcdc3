"""What a nation sees right now: the sight sources of its units and cities and its allies'.

This is the current-sight part of the fog of war; remembered sightings and the full view
filter build on it.
"""

from __future__ import annotations

from .world import Unit, World


class Sight:
    """Current sight of a nation (and of the nations that share sight with it)."""

    def __init__(self, world: World, nation: str) -> None:
        self.world = world
        self.nation = nation
        self.sharers = world.team(nation)
        rules = world.rules
        sources: list[tuple[int, int, int]] = []  # (square, radius, sub radius)
        for owner in sorted(self.sharers):
            for unit in world.units_of(owner):
                ut = rules.unit[unit.type]
                radius = ut.sight if ut.sight is not None else self._radar(unit.owner)
                sources.append((unit.sq, radius, ut.sees_subs))
        for city in world.cities.values():
            if city.owner in self.sharers:
                ct = rules.city[city.designation]
                sources.append((city.sq, ct.sight_at(world.nations[city.owner].tech), 0))
        satellite_sight = max((u.satellite_sight or 0 for u in rules.units), default=0)
        for owner, sq in world.satellites:
            if owner in self.sharers:
                sources.append((sq, satellite_sight, 0))
        self.sources = sources

    def mask(self):
        """Every square the nation sees now, as a flat numpy bool array."""
        import numpy as np

        from .supply import dilate

        world = self.world
        by_radius: dict[int, list[int]] = {}
        for sq, radius, _ in self.sources:
            by_radius.setdefault(radius, []).append(sq)
        seen = np.zeros(world.grid.size, dtype=bool)
        for radius, squares in by_radius.items():
            m = np.zeros(world.grid.size, dtype=bool)
            m[squares] = True
            seen |= dilate(m.reshape(world.height, world.width), radius).reshape(-1)
        return seen

    def _radar(self, owner: str) -> int:
        tech_city = self.world.rules.city.get("tech")
        tech = self.world.nations[owner].tech
        return tech_city.sight_at(tech) if tech_city else 1

    def sees_square(self, sq: int) -> bool:
        dist = self.world.grid.distance
        return any(dist(src, sq) <= r for src, r, _ in self.sources)

    def sees_unit(self, unit: Unit) -> bool:
        if unit.owner in self.sharers:
            return True
        if self.world.reveals.get((self.nation, unit.id), -1) >= self.world.tick:
            return True
        ut = self.world.rules.unit[unit.type]
        dist = self.world.grid.distance
        if ut.stealth:
            return any(dist(src, unit.sq) <= s for src, _, s in self.sources if s > 0)
        return self.sees_square(unit.sq)

    def sees_foreign_at(self, sq: int) -> bool:
        """Whether the nation sees any unit of a nation outside its team on the square."""
        return any(
            u.owner not in self.sharers and self.sees_unit(u) for u in self.world.units_at(sq)
        )


def observers(world: World, sq: int) -> set[str]:
    """Nations that see a square right now (through their own units and cities or those of
    nations that share sight with them)."""
    rules = world.rules
    grid = world.grid
    seers: set[str] = set()
    radar_city = rules.city.get("tech")
    max_tech = max((n.tech for n in world.nations.values()), default=0.0)
    radar = radar_city.sight_at(max_tech) if radar_city else 1
    reach = max([radar] + [ut.sight or 0 for ut in rules.units])
    for near in grid.within(sq, reach):
        ids = world.at.get(near)
        if not ids:
            continue
        d = grid.distance(near, sq)
        for uid in ids:
            unit = world.units[uid]
            if unit.owner in seers:
                continue
            ut = rules.unit[unit.type]
            sight = (
                ut.sight
                if ut.sight is not None
                else (radar_city.sight_at(world.nations[unit.owner].tech) if radar_city else 1)
            )
            if d <= sight:
                seers.add(unit.owner)
    for city in world.cities.values():
        if city.owner is not None and city.owner not in seers:
            ct = rules.city[city.designation]
            if grid.distance(city.sq, sq) <= ct.sight_at(world.nations[city.owner].tech):
                seers.add(city.owner)
    return with_sharers(world, seers)


def with_sharers(world: World, seers: set[str]) -> set[str]:
    """Add the nations that learn what these nations see (allies; friends where the ruleset
    shares sightings between friends)."""
    share = world.rules.diplomacy.shares_sightings
    out = set(seers)
    for nation in world.nations:
        if nation in out:
            continue
        for seer in seers:
            level = world.relation(nation, seer)
            if level in share and world.relation(seer, nation) == level:
                out.add(nation)
                break
    return out
