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
        self.sources = sources

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
