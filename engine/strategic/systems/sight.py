"""What a nation sees: its team's current sight (units, cities, satellites: engine/strategic/world/sightindex.py),
what friends pass on, and what it remembers (enemy units seen in the last 24 hours, subs 8).

This is the current-sight part of the fog of war; the view filter builds on it.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from engine.strategic import events as ev
from engine.strategic.world import Unit, World


class Ghost(NamedTuple):
    """A foreign unit as the nation remembers it."""

    unit: int
    type: str
    owner: str


class Sight:
    """What one nation sees now."""

    def __init__(self, world: World, nation: str) -> None:
        self.world = world
        self.nation = nation
        self.index = world.sight_index
        self.sharers = world.team(nation)
        # nations whose sightings reach this one (they pass theirs on to it)
        self.informants = world.informants(nation)
        self._remembered: set[int] | None = None  # `remembered_squares`
        self._ghosts_at: dict[int, list[Ghost]] = {}
        self._grids: tuple[list, list] | None = None

    def sees_square(self, sq: int) -> bool:
        return self.index.covers(self.nation, sq)

    def sees_unit(self, unit: Unit) -> bool:
        """Seen now (by the team or a nation passing its sightings on), or shown (reveals).
        A unit remembered where it was last seen is a ghost (`ghosts_at`), judged by that memory
        alone: whether it is really still there is what the nation does not know."""
        if unit.owner in self.sharers:
            return True
        return any(self.index.sees_unit(n, unit) for n in self.informants)

    def remembered_squares(self) -> set[int]:
        """Squares where the nation remembers a foreign unit (within the memory period): where
        ghosts may be (`ghosts_at` says which are). Only the squares: what is remembered on
        one is read by `_remembered_at` (a path search asks for the squares of the whole map,
        a few of them for what is there)."""
        if self._remembered is None:
            world = self.world
            key = (world.tick, world.memory_version.get(self.nation, 0), self.sharers)
            cached = world.remembered_cache.get(self.nation)
            if cached is not None and cached[0] == key:
                self._remembered = cached[1]
                return self._remembered
            squares: set[int] = set()
            memory = world.sightings.get(self.nation)
            if memory:
                stealthy = world.rules.stealthy
                per_hour = world.ticks_per_hour
                since = world.tick - world.rules.sighting.memory_hours * per_hour
                sub_since = world.tick - world.rules.sighting.sub_memory_hours * per_hour
                sharers = self.sharers
                # a friend's is not a foreign unit; one seen too long ago is forgotten
                # (`World.remembered`)
                squares = {
                    sq
                    for when, sq, type_name, owner in memory.values()
                    if owner not in sharers
                    and when >= (sub_since if type_name in stealthy else since)
                }
            self._remembered = squares
            world.remembered_cache[self.nation] = (key, squares)
        return self._remembered

    def _remembered_at(self, sq: int) -> list[tuple[int, str, str]]:
        """The foreign units the nation remembers on the square (within the memory period), as
        (unit, type, owner) by unit, read from the world's index of memories by square."""
        if self._remembered is not None and sq not in self._remembered:
            return []
        world = self.world
        ids = world.memory_at.get(self.nation, {}).get(sq)
        if not ids:
            return []
        memory = world.sightings.get(self.nation, {})
        stealthy = world.rules.stealthy
        per_hour = world.ticks_per_hour
        since = world.tick - world.rules.sighting.memory_hours * per_hour
        sub_since = world.tick - world.rules.sighting.sub_memory_hours * per_hour
        out = []
        for uid in sorted(ids):
            entry = memory.get(uid)
            if entry is None or entry[1] != sq:
                continue  # remembered elsewhere since (or forgotten)
            when, _, type_name, owner = entry
            if owner in self.sharers:
                continue  # a friend's
            if when < (sub_since if type_name in stealthy else since):
                continue  # forgotten (`World.remembered`)
            out.append((uid, type_name, owner))
        return out

    def remembers_at(self, sq: int) -> bool:
        """Whether the nation may remember a foreign unit on the square (False: `ghosts_at`
        finds none there), read from the same memories as `ghosts_at` (or its answer)."""
        if sq in self._ghosts_at:
            return bool(self._ghosts_at[sq])
        if self._remembered is not None:
            return sq in self._remembered
        return bool(self.world.memory_at.get(self.nation, {}).get(sq))

    def ghosts_at(self, sq: int) -> list[Ghost]:
        """The ghosts on one square: foreign units the nation remembers (24 hours, subs 8)
        there, where it does not watch now, and not seen now elsewhere (the view's rule)."""
        cached = self._ghosts_at.get(sq)
        if cached is not None:
            return cached
        found: list[Ghost] = []
        entries = self._remembered_at(sq)
        if entries:
            world = self.world
            stealthy = world.rules.stealthy
            reveals = world.reveals
            tick = world.tick
            for uid, type_name, owner in entries:
                if self._watched(sq, type_name in stealthy):
                    continue  # watched now: it would show if it were there
                unit = world.units.get(uid)
                if unit is not None:
                    if reveals and any(reveals.get((n, uid), -1) >= tick for n in self.informants):
                        continue  # shown: seen now
                    if unit.carried_by is None and self._watched(unit.sq, unit.type in stealthy):
                        continue  # seen now elsewhere
                found.append(Ghost(uid, type_name, owner))
            found.sort()
        self._ghosts_at[sq] = found
        return found

    def _watched(self, sq: int, sub: bool) -> bool:
        """Whether a square is covered by the sight that reaches this nation (the view's
        masks, read a square at a time)."""
        if self._grids is None:
            index = self.index
            index.settle_static()
            members = sorted({m for n in self.informants for m in self.world.team(n)})
            self._grids = (
                [index.counts[m].reshape(-1) for m in members if m in index.counts],
                [index.sub_counts[m].reshape(-1) for m in members if m in index.sub_counts],
            )
        return any(g[sq] > 0 for g in self._grids[1 if sub else 0])

    def sees_foreign_at(self, sq: int) -> bool:
        """Whether the nation knows of a unit of a nation outside its team on the square: one
        it sees there now, or a ghost."""
        if self.ghosts_at(sq):
            return True
        return any(
            u.owner not in self.sharers and self.sees_unit(u) for u in self.world.units_at(sq)
        )

    def mask(self):
        """Every square the nation sees now, as a flat numpy bool array."""
        return self.index.mask(self.nation)


def observers(world: World, sq: int, unit: Unit | None = None) -> set[str]:
    """Nations that see a square right now, directly or through nations that pass their
    sightings on to them. With `unit` (standing on the square): the nations that see that
    unit, under the sight rules (a submarine only by sub-sight or when shown; cargo inside a
    carrier only by its owner's team)."""
    index = world.sight_index
    if unit is not None and unit.carried_by is not None:
        return set(world.team(unit.owner))  # nobody passes on what is inside a carrier
    if unit is not None:
        return with_sharers(world, index.seers(unit))
    return with_sharers(world, {n for n in world.nations if index.covers(n, sq)})


def witnesses(world: World, *units: Unit) -> set[str]:
    """Nations that see every one of these units (an event naming them all may be told to
    them), besides the units' owners who always know."""
    seers: set[str] | None = None
    for unit in units:
        mine = observers(world, unit.sq, unit)
        seers = mine if seers is None else seers & mine
    return (seers or set()) | {u.owner for u in units}


def with_sharers(world: World, seers: set[str]) -> set[str]:
    out = set(seers)
    for seer in seers:
        out |= world.sight_sharers(seer)
    return out


class Knowledge:
    """What a nation knows of squares: as they are where it sees now, else as it last saw
    them (`World.known`, `World.city_memory`), else nothing. Refusals of orders are worded
    from this, so that they tell nothing the nation's view does not show."""

    def __init__(self, world: World, nation: str) -> None:
        self.world = world
        self.nation = nation

    def sees(self, sq: int) -> bool:
        return self.world.sight_index.covers(self.nation, sq)

    def terrain(self, sq: int) -> int | None:
        """The square's terrain (LAND, WATER, WASTE), or None if the nation never saw it."""
        if self.sees(sq):
            return self.world.terrain[sq]
        known = self.world.known.get(self.nation)
        value = int(known[sq]) if known is not None else 0
        return value - 1 if value else None

    def city_owner(self, sq: int) -> str | None | Literal[False]:
        """The owner of the city the nation knows there (None: neutral), False: none known."""
        if self.sees(sq):
            city = self.world.cities.get(sq)
            return False if city is None else city.owner
        memory = self.world.city_memory.get(self.nation, {}).get(sq)
        return False if memory is None else memory[0]

    def foreign_unit_at(self, sq: int) -> tuple[str, str] | None:
        """(owner, type) of a foreign unit the nation knows on the square: one it sees there
        now, else one it remembers there (a ghost); None if it knows of none."""
        sight = Sight(self.world, self.nation)
        for unit in self.world.units_at(sq):
            if (
                unit.owner not in sight.sharers
                and unit.carried_by is None
                and sight.sees_unit(unit)
            ):
                return unit.owner, unit.type
        ghosts = sight.ghosts_at(sq)
        return (ghosts[0].owner, ghosts[0].type) if ghosts else None


class SightCache:
    """`Sight` per nation, built on first use; clear it once the world has changed."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._sights: dict[str, Sight] = {}

    def sees(self, nation: str, unit: Unit) -> bool:
        sight = self._sights.get(nation)
        if sight is None:
            sight = self._sights[nation] = Sight(self.world, nation)
        return sight.sees_unit(unit)

    def clear(self) -> None:
        self._sights.clear()


def show(world: World, nation: str, unit: Unit) -> list[ev.Event]:
    """Show a unit to a nation for the memory period; a hidden sub says so (`SubSighted`)."""
    until = world.reveal(nation, unit)
    if not world.rules.unit[unit.type].stealth:
        return []
    return [
        ev.SubSighted(
            tick=world.tick,
            to=[nation],
            nation=nation,
            owner=unit.owner,
            unit=unit.id,
            square=world.grid.label(unit.sq),
            until_tick=until,
        )
    ]
