"""The state of one game: map, cities, units, nations, clock and dice.

Plain data with a few bookkeeping helpers (a square -> units index, per-nation counters).
No rules live here; the systems in engine/ read and change this state.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.strategic.rules import Ruleset
from engine.strategic.rules import load as load_ruleset
from engine.strategic.world.geometry import Grid
from engine.strategic.world.rng import Rng
from engine.strategic.world.sightindex import SightIndex
from engine.strategic.world.spatial import TileIndex
from engine.strategic.world.supplyindex import SupplyCache, SupplyIndex

WATER = 0
LAND = 1
WASTE = 2  # a devastated city: nobody may enter, attack or take it
MIXED = 255  # `World.owner_at`: units of more than one owner on the square


@dataclass(slots=True)
class Unit:
    id: int
    type: str
    owner: str
    sq: int
    hp: int
    mobility: int
    ammo: int
    fuel: int
    built: int  # build sequence number: higher is more recently built
    born: int  # tick it was built: its 4-hourly updates are counted from here
    carried_by: int | None = None
    order: int | None = None  # standing move order: target square
    route: list[int] | None = None  # the rest of the order's path, kept while it stays open
    # the order's pace: mobility it spends at most at an update (ships sailing together go at
    # the pace of the slowest); None: all it has
    pace: int | None = None
    strike: bool = False  # the order is an attack on its square, made once in range

    def to_row(self) -> list:
        row = [
            self.id,
            self.type,
            self.owner,
            self.sq,
            self.hp,
            self.mobility,
            self.ammo,
            self.fuel,
            self.built,
            self.born,
            self.carried_by,
            self.order,
            self.route,
        ]
        if self.pace is not None or self.strike:  # rows of older snapshots have neither
            row += [self.pace, self.strike]
        return row

    def set_order(
        self,
        goal: int | None,
        route: list[int] | None = None,
        *,
        pace: int | None = None,
        strike: bool = False,
    ) -> None:
        self.order = goal
        self.route = route if goal is not None else None
        self.pace = pace if goal is not None else None
        self.strike = strike and goal is not None

    @classmethod
    def from_row(cls, row: list) -> Unit:
        return cls(*row)


@dataclass(slots=True)
class City:
    sq: int
    owner: str | None  # None: neutral
    designation: str
    build: str | None = None
    progress: int = 0  # ticks spent on the current build
    next_build: str | None = None
    name: str = ""
    # the last finished build was skipped for lack of power and nothing changed since (the
    # owner is told once, not at every finished build)
    skipped: bool = False
    # where each unit it builds is sent (a standing move order), None: nowhere; cleared when
    # its build changes or it changes hands (original game)
    waypoint: int | None = None
    # a city back from a wasteland (ruleset total-war): its output in % (builds take 100/output
    # times as long), and the most investment may bring it back to (what it produced before)
    output: int = 100
    output_cap: int = 100

    def to_row(self) -> list:
        row = [
            self.sq,
            self.owner,
            self.designation,
            self.build,
            self.progress,
            self.next_build,
            self.name,
        ]
        # rows of older snapshots have none of these: they default to False, None and 100
        recovering = self.output != 100 or self.output_cap != 100
        if self.skipped or self.waypoint is not None or recovering:
            row.append(self.skipped)
        if self.waypoint is not None or recovering:
            row.append(self.waypoint)
        if recovering:
            row += [self.output, self.output_cap]
        return row

    @classmethod
    def from_row(cls, row: list) -> City:
        return cls(*row)


@dataclass(slots=True)
class Nation:
    id: str
    name: str
    colour: str
    tech: float = 0.0
    cp: int = 0
    relations: dict[str, str] = field(default_factory=dict)  # my relation towards each other nation
    player: str | None = None  # who plays it (a Discord user id, "ai", ...)
    out: bool = False
    leader: str = ""  # its leader's name and title, as founded (engine.strategic.founding)
    title: str = ""

    def to_dict(self) -> dict:
        data = {
            "id": self.id,
            "name": self.name,
            "colour": self.colour,
            "tech": self.tech,
            "cp": self.cp,
            "relations": dict(sorted(self.relations.items())),
            "player": self.player,
            "out": self.out,
        }
        if self.leader:  # kept only when founded with one: older worlds hash as they did
            data["leader"], data["title"] = self.leader, self.title
        return data

    @classmethod
    def from_dict(cls, d: dict) -> Nation:
        return cls(**d)


@dataclass(slots=True)
class PendingRelation:
    due_tick: int
    nation: str
    other: str
    level: str


@dataclass(slots=True)
class Wasteland:
    """A city an ICBM hit (ruleset total-war): nobody's until `returns`, then its former
    owner's again, as the city it was, at a fraction of what it produced (`output`)."""

    owner: str
    designation: str
    name: str
    returns: int  # the tick it returns
    output: int  # what the city produced when hit, in %

    def to_row(self) -> list:
        return [self.owner, self.designation, self.name, self.returns, self.output]


class World:
    """One game's complete state. `rules` is loaded from the ruleset name, never serialised."""

    def __init__(
        self,
        ruleset: str | Ruleset,
        width: int,
        height: int,
        *,
        seed: int = 0,
        terrain: bytearray | None = None,
        length_days: int | None = None,
    ) -> None:
        self.rules: Ruleset = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.grid = Grid(width, height)
        self.terrain = terrain if terrain is not None else bytearray(width * height)
        if len(self.terrain) != self.grid.size:
            raise ValueError("terrain does not match the map size")
        self.cities: dict[int, City] = {}
        self.units: dict[int, Unit] = {}
        self.nations: dict[str, Nation] = {}
        self.pending: list[PendingRelation] = []
        self.satellites: list[tuple[str, int]] = []  # launched: (owner, square)
        # ruleset total-war (seed 002): wastelands by square (see Wasteland), the world's
        # ecological damage, and when each ICBM part last arrived where it stands (moved, or
        # changed hands; a part never moved arrived when it was built: `Unit.born`)
        self.wastelands: dict[int, Wasteland] = {}
        self.ecology = 0
        self.part_moved: dict[int, int] = {}
        # units shown to a nation beyond its sight: (nation, unit id) -> tick the reveal ends
        self.reveals: dict[tuple[str, int], int] = {}
        # what each nation last saw of foreign units: nation -> unit id -> [tick, square, type, owner]
        self.sightings: dict[str, dict[int, list]] = {}
        # what each nation has seen of the map: per square 0 (never seen) or 1 + the terrain
        # as it was when last seen; and the cities as last seen: nation -> square -> [owner,
        # designation] (kept up to date as sight leaves squares: engine/strategic/world/sightindex.py)
        self.known: dict[str, np.ndarray] = {}
        self.city_memory: dict[str, dict[int, list]] = {}
        # the enemies each nation was told are near its cities, until they are seen there no
        # more: nation -> city square -> enemy nations (engine/strategic/systems/threats.py)
        self.warned: dict[str, dict[int, list[str]]] = {}
        self.tick = 0
        self.seed = seed
        self.rng = Rng(seed)
        self.next_unit_id = 1
        self.next_built = 1
        self.length_days = length_days or self.rules.time.default_length_days
        self.ended = False
        self.started = False
        # home positions from the map generator: each slot's home city squares, and who holds it
        self.slots: list[list[int]] = []
        self.slot_owner: list[str | None] = []
        # derived indexes and caches, rebuilt on load
        self.at: dict[int, list[int]] = {}
        self.occupied = bytearray(width * height)  # 1 where `at` has units (for hot loops)
        # per square, who owns its units: 0 none, an owner's code (`owner_code`) when they are
        # all that owner's, MIXED when owners differ (a walk's look for foreign units round
        # the mover reads a row of it at once)
        self.owner_at = bytearray(width * height)
        self._owner_codes: dict[str, int] = {}
        self.code_owner: list[str | None] = [None] * 256  # `owner_code`'s nation by code
        self.phases: dict[int, set[int]] = {}  # born % update period -> unit ids
        self.suppliers: dict[str, set[int]] = {}  # nation -> ids of its units that supply
        self.owned: dict[str, set[int]] = {}  # nation -> ids of its units
        # units that react to movers near them, by tile: fighters that intercept, and units
        # that interdict ships (ships, coastal tanks, naval bombers)
        self.interceptors = TileIndex(width, height)
        self.interdictors = TileIndex(width, height)
        self._reactive = {
            ut.name: ([self.interceptors] if ut.intercepts else [])
            + (
                [self.interdictors]
                if ut.interdict_radius is not None and (ut.attack or 0) > 0
                else []
            )
            for ut in self.rules.units
        }
        self._capital: dict[str, int] = {}
        self._capital_ids: dict[str, set[int]] = {}  # per nation, its capital units
        self._power_hours: dict[str, int] = {}
        self._teams: dict[str, frozenset[str]] = {}
        self._sharers: dict[str, frozenset[str]] = {}
        self._informants: dict[str, list[str]] = {}
        # per nation: a count of the changes to its memory of units (`remember`), and where it
        # remembers foreign units, keyed by (tick, that count, its team) (`Sight`)
        self.memory_version: dict[str, int] = {}
        # per nation: square -> ids of units it remembers there (may hold stale ids: readers
        # check `sightings`)
        self.memory_at: dict[str, dict[int, set[int]]] = {}
        self.remembered_cache: dict[str, tuple[tuple, set[int]]] = {}
        self.supply_cache = SupplyCache()
        self.map_version = 0  # bumped whenever terrain or the set of city squares changes
        self.radar_units: set[int] = set()  # units that see by radar (their sight grows with tech)
        self.static_sight_version = 0  # bumped when cities, tech levels or satellites change
        self._loading = False
        self.sight_index = SightIndex(self)
        self.supply_index = SupplyIndex(self)

    # --- squares ---------------------------------------------------------------------------

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    def is_land(self, sq: int) -> bool:
        return self.terrain[sq] == LAND

    def is_water(self, sq: int) -> bool:
        return self.terrain[sq] == WATER

    def is_coastal(self, sq: int) -> bool:
        return any(self.terrain[n] == WATER for n in self.grid.neighbours(sq))

    def units_at(self, sq: int) -> list[Unit]:
        """Units on a square, oldest id first (never the index's insertion order, which a
        reload does not keep)."""
        ids = self.at.get(sq)
        if not ids:
            return []
        return [self.units[i] for i in sorted(ids)]

    # --- units -------------------------------------------------------------------------------

    def add_unit(
        self,
        type_name: str,
        owner: str,
        sq: int,
        *,
        hp: int | None = None,
        mobility: int | None = None,
        ammo: int | None = None,
        fuel: int | None = None,
        carried_by: int | None = None,
        unit_id: int | None = None,
        born: int | None = None,
    ) -> Unit:
        ut = self.rules.unit[type_name]
        uid = unit_id if unit_id is not None else self.next_unit_id
        if uid in self.units:
            raise ValueError(f"unit id {uid} is taken")
        self.next_unit_id = max(self.next_unit_id, uid + 1)
        unit = Unit(
            id=uid,
            type=type_name,
            owner=owner,
            sq=sq,
            hp=ut.hp if hp is None else hp,
            mobility=ut.mobility * self.rules.mobility.new_unit_multiple
            if mobility is None
            else mobility,
            ammo=(ut.ammo or 0) if ammo is None else ammo,
            fuel=(ut.full_fuel if ut.needs_fuel else 0) if fuel is None else fuel,
            built=self.next_built,
            born=self.tick if born is None else born,
            carried_by=carried_by,
        )
        self.next_built += 1
        self._index(unit)
        return unit

    def _index(self, unit: Unit) -> None:
        self.units[unit.id] = unit
        self._place(unit.id, unit.sq)
        if self.rules.unit[unit.type].sight is None:
            self.radar_units.add(unit.id)
        if not self._loading:
            self.sight_index.unit_placed(unit)
        self.phases.setdefault(unit.born % self.rules.ticks_per_unit_update, set()).add(unit.id)
        self.owned.setdefault(unit.owner, set()).add(unit.id)
        ut = self.rules.unit[unit.type]
        if ut.supplies_land or ut.supplies_sea:
            self.suppliers.setdefault(unit.owner, set()).add(unit.id)
        for index in self._reactive[unit.type]:
            index.add(unit.id, unit.sq, unit.owner)
        self._count(unit, +1)
        if not self._loading:  # (a world loaded builds its supply index at once)
            self.unit_changed(unit)

    def remove_unit(self, unit: Unit) -> None:
        """Remove a unit; what it carried stays on the square, uncarried (callers decide
        whether cargo dies with its carrier)."""
        self.sight_index.unit_leaving(unit, vanishing=True)
        self.sight_index.unit_removed(unit)
        del self.units[unit.id]
        self.radar_units.discard(unit.id)
        if self.part_moved:
            self.part_moved.pop(unit.id, None)
        self._unplace(unit.id, unit.sq)
        if self.reveals:
            for key in [k for k in self.reveals if k[1] == unit.id]:
                del self.reveals[key]
        self.phases[unit.born % self.rules.ticks_per_unit_update].discard(unit.id)
        self.suppliers.get(unit.owner, set()).discard(unit.id)
        self.owned[unit.owner].discard(unit.id)
        for index in self._reactive[unit.type]:
            index.remove(unit.id, unit.sq, unit.owner)
        self._count(unit, -1)
        self.unit_changed(unit)
        for cargo in self.cargo_of(unit):
            cargo.carried_by = None

    def move_unit(self, unit: Unit, sq: int) -> None:
        """Move a unit (and everything it carries) to a square."""
        if sq == unit.sq:
            return
        cargo = self.cargo_of(unit)
        self.sight_index.unit_leaving(unit)
        self._unplace(unit.id, unit.sq)
        for index in self._reactive[unit.type]:
            index.move(unit.id, unit.sq, sq, unit.owner)
        unit.sq = sq
        self._place(unit.id, sq)
        self.sight_index.unit_moved(unit)
        self.unit_changed(unit)
        if self.rules.icbm is not None and self.rules.unit[unit.type].icbm_part is not None:
            self.part_moved[unit.id] = self.tick
        for passenger in cargo:
            self.move_unit(passenger, sq)

    def transfer_unit(self, unit: Unit, owner: str) -> None:
        """Hand a unit to another nation where it stands (a cession): every index that knows
        the owner follows (sight, supply, counters); its standing order is dropped. What it
        carries is the caller's to hand over too."""
        if owner == unit.owner:
            return
        self.sight_index.unit_leaving(unit, vanishing=True)
        self.sight_index.unit_removed(unit)
        self.owned[unit.owner].discard(unit.id)
        supplier = unit.id in self.suppliers.get(unit.owner, ())
        self.suppliers.get(unit.owner, set()).discard(unit.id)
        self._count(unit, -1)
        self.unit_changed(unit)  # the old owner's supply caches
        for index in self._reactive[unit.type]:
            index.remove(unit.id, unit.sq, unit.owner)
            index.add(unit.id, unit.sq, owner)
        unit.owner = owner
        self._owners_changed(unit.sq)
        unit.set_order(None)
        if self.rules.icbm is not None and self.rules.unit[unit.type].icbm_part is not None:
            self.part_moved[unit.id] = self.tick  # a new owner's part waits out the hour
        self.owned.setdefault(owner, set()).add(unit.id)
        if supplier:
            self.suppliers.setdefault(owner, set()).add(unit.id)
        self._count(unit, +1)
        self.sight_index.unit_placed(unit)
        self.unit_changed(unit)  # the supply index's stamp and the new owner's caches

    def _place(self, uid: int, sq: int) -> None:
        ids = self.at.get(sq)
        code = self.owner_code(self.units[uid].owner)
        if ids is None:
            self.at[sq] = [uid]
            self.occupied[sq] = 1
            self.owner_at[sq] = code
        else:
            ids.append(uid)
            if self.owner_at[sq] != code:
                self.owner_at[sq] = MIXED

    def _unplace(self, uid: int, sq: int) -> None:
        ids = self.at[sq]
        ids.remove(uid)
        if not ids:
            del self.at[sq]
            self.occupied[sq] = 0
            self.owner_at[sq] = 0
        else:
            self._owners_changed(sq)

    def _owners_changed(self, sq: int) -> None:
        """Work `owner_at` out again for a square that still has units."""
        units = self.at[sq]
        owner = self.units[units[0]].owner
        same = all(self.units[i].owner == owner for i in units)
        self.owner_at[sq] = self.owner_code(owner) if same else MIXED

    def owner_code_of(self, nation: str) -> int | None:
        """The nation's code in `owner_at` if it has one (none: it never had a unit on the
        map), without giving it one."""
        return self._owner_codes.get(nation)

    def owner_code(self, nation: str) -> int:
        """The nation's code in `owner_at` (1-254, given on first use; MIXED past 254
        owners, which only makes the look slower)."""
        code = self._owner_codes.get(nation)
        if code is None:
            code = self._owner_codes[nation] = min(len(self._owner_codes) + 1, MIXED)
            if code != MIXED:
                self.code_owner[code] = nation
        return code

    # --- cache invalidation: call after changing what supply or teams depend on --------------

    def unit_changed(self, unit: Unit) -> None:
        """A unit appeared, vanished, moved or changed its ammo: its owner's supply may differ."""
        ut = self.rules.unit[unit.type]
        if ut.supplies_land or ut.supplies_sea:
            self.supply_index.unit_changed(unit)
            # the nation's whole grids (its cities' part stays)
            self.supply_cache.drop_nation(unit.owner, keep_suffix="-cities")

    def cities_changed(self, *owners: str | None) -> None:
        """Cities of these owners changed owner or designation (no owners given: any city):
        the supply of those nations and their allies may differ, and what cities see."""
        self.static_sight_version += 1
        if not owners:
            self.supply_cache.clear()
            return
        affected: set[str] = set()
        for owner in owners:
            if owner is not None and owner in self.nations:
                affected |= self.team(owner)
        for key in [k for k in self.supply_cache if k[0] in affected]:
            del self.supply_cache[key]

    def radar_radius(self, nation: str) -> int:
        """The nation's radar range (tech centres' sight), which carriers with radar share."""
        radar = next((c for c in self.rules.cities if c.radar is not None and c.builds_units), None)
        return radar.sight_at(self.nations[nation].tech) if radar else 1

    def sight_sharers(self, nation: str) -> frozenset[str]:
        """The nation and the nations it passes its sightings on to (allies; friends where the
        ruleset says so)."""
        cached = self._sharers.get(nation)
        if cached is not None:
            return cached
        share = self.rules.diplomacy.shares_sightings
        out = {nation}
        for other in self.nations:
            if other != nation:
                level = self.relation(nation, other)
                if level in share and self.relation(other, nation) == level:
                    out.add(other)
        self._sharers[nation] = frozenset(out)
        return self._sharers[nation]

    def informants(self, nation: str) -> list[str]:
        """The nations that pass their sightings on to this one, itself included (sorted)."""
        cached = self._informants.get(nation)
        if cached is None:
            cached = self._informants[nation] = sorted(
                n for n in self.nations if nation in self.sight_sharers(n)
            )
        return cached

    def remember(self, nation: str, unit: Unit) -> None:
        seen = self.sightings.setdefault(nation, {})
        where = self.memory_at.setdefault(nation, {})
        old = seen.get(unit.id)
        entry = [self.tick, unit.sq, unit.type, unit.owner]
        if old == entry:
            return  # remembered just so already (a watcher that moves sees it again)
        if old is not None and old[1] != unit.sq and old[1] in where:
            where[old[1]].discard(unit.id)
        seen[unit.id] = entry
        where.setdefault(unit.sq, set()).add(unit.id)
        self.memory_version[nation] = self.memory_version.get(nation, 0) + 1

    def _index_memory(self) -> None:
        self.memory_at = {}
        for nation, seen in self.sightings.items():
            where = self.memory_at[nation] = {}
            for uid, entry in seen.items():
                where.setdefault(entry[1], set()).add(uid)

    def remembered(self, nation: str, unit_id: int) -> list | None:
        """What the nation remembers of a unit, if it saw it recently enough."""
        entry = self.sightings.get(nation, {}).get(unit_id)
        if entry is None:
            return None
        ut = self.rules.unit.get(entry[2])
        hours = (
            self.rules.sighting.sub_memory_hours
            if ut and ut.stealth
            else self.rules.sighting.memory_hours
        )
        return entry if self.tick - entry[0] <= hours * self.ticks_per_hour else None

    def forget_old_sightings(self) -> None:
        self.remembered_cache.clear()
        for nation, seen in self.sightings.items():
            self.sightings[nation] = {
                u: e for u, e in seen.items() if self.remembered(nation, u) is not None
            }
        self._index_memory()

    def reveal(self, nation: str, unit: Unit) -> int:
        """Show a unit to a nation for the ruleset's memory (subs: the shorter sub memory);
        returns the tick the reveal ends."""
        ut = self.rules.unit[unit.type]
        hours = (
            self.rules.sighting.sub_memory_hours if ut.stealth else self.rules.sighting.memory_hours
        )
        until = self.tick + hours * self.ticks_per_hour
        key = (nation, unit.id)
        self.reveals[key] = max(until, self.reveals.get(key, 0))
        return self.reveals[key]

    def terrain_array(self) -> np.ndarray:
        """The terrain as a flat numpy array sharing memory with `terrain`."""
        return np.frombuffer(self.terrain, dtype=np.uint8)

    def known_of(self, nation: str) -> np.ndarray:
        known = self.known.get(nation)
        if known is None:
            known = self.known[nation] = np.zeros(self.grid.size, dtype=np.uint8)
        return known

    def note_seen(self, nations: frozenset[str] | set[str], squares: np.ndarray) -> None:
        """These nations saw these squares (flat indexes) until now: remember their terrain
        and cities as they are."""
        if not self.started or len(squares) == 0:
            return
        seen_terrain = self.terrain_array()[squares] + 1
        cities = self.cities
        if len(cities) < len(squares):  # the squares that are cities, in the squares' order
            keys = np.fromiter(cities, dtype=np.intp, count=len(cities))
            in_cities = squares[np.isin(squares, keys)].tolist()
        else:
            in_cities = [sq for sq in squares.tolist() if sq in cities]
        seen: set[int] | None = None
        for nation in nations:
            if nation not in self.nations:
                continue
            self.known_of(nation)[squares] = seen_terrain
            memory = self.city_memory.setdefault(nation, {})
            for sq in in_cities:
                city = cities[sq]
                memory[sq] = [city.owner, city.designation]
            if len(memory) > len(in_cities):
                # cities remembered that are no more (destroyed): forgotten where seen now
                vanished = [sq for sq in memory if sq not in cities]
                if vanished:
                    if seen is None:
                        seen = set(squares.tolist())
                    for sq in vanished:
                        if sq in seen:
                            del memory[sq]

    def map_changed(self) -> None:
        """Terrain or the set of city squares changed."""
        self.map_version += 1
        self.cities_changed()

    def set_relation(self, nation: str, other: str, level: str) -> None:
        if self.started and nation in self.nations and other in self.nations:
            self.sight_index.settle()
            # what allies saw together stays known to each when the alliance changes (each
            # keeps what it saw itself: its own team's sight, not an ally's other allies')
            for member in (nation, other):
                for seer in sorted(self.team(member)):
                    if len(self.team(seer)) > 1:
                        self.note_seen({seer}, np.flatnonzero(self.sight_index.mask(seer)))
        self.nations[nation].relations[other] = level
        self._relations_changed()
        self.supply_cache.clear()

    def cargo_of(self, unit: Unit) -> list[Unit]:
        ids = self.at.get(unit.sq)
        if ids is not None and len(ids) == 1 and ids[0] == unit.id:
            return []  # alone on its square (most moves)
        return [u for u in self.units_at(unit.sq) if u.carried_by == unit.id]

    def _count(self, unit: Unit, sign: int) -> None:
        ut = self.rules.unit[unit.type]
        if ut.capital:
            self._capital[unit.owner] = self._capital.get(unit.owner, 0) + sign
            ids = self._capital_ids.setdefault(unit.owner, set())
            if sign > 0:
                ids.add(unit.id)
            else:
                ids.discard(unit.id)
        if ut.counts_for_power:
            self._power_hours[unit.owner] = (
                self._power_hours.get(unit.owner, 0) + sign * ut.cost_hours
            )

    def capital_ships(self, nation: str) -> int:
        return self._capital.get(nation, 0)

    def capital_ids(self, nation: str) -> set[int]:
        """The ids of the nation's capital units (the world's own set: read it, never change
        it)."""
        return self._capital_ids.get(nation, set())

    def power_hours(self, nation: str) -> int:
        return self._power_hours.get(nation, 0)

    # --- cities and nations ------------------------------------------------------------------

    def cities_of(self, nation: str) -> list[City]:
        return [c for c in self.cities.values() if c.owner == nation]

    def units_of(self, nation: str) -> list[Unit]:
        """The nation's units, oldest id first."""
        return [self.units[i] for i in sorted(self.owned.get(nation, ()))]

    def relation(self, a: str, b: str) -> str:
        """a's relation towards b ("me" for a nation towards itself)."""
        if a == b:
            return "me"
        return self.nations[a].relations.get(b, self.rules.diplomacy.start)

    def mutual(self, a: str, b: str, level: str) -> bool:
        return self.relation(a, b) == level and self.relation(b, a) == level

    def _relations_changed(self) -> None:
        self._teams.clear()
        self._sharers.clear()
        self._informants.clear()

    def team(self, nation: str) -> frozenset[str]:
        """The nation and its mutual allies: they share supply, refuelling and squares."""
        team = self._teams.get(nation)
        if team is None:
            team = frozenset(
                {nation}
                | {o for o in self.nations if o != nation and self.mutual(nation, o, "allied")}
            )
            self._teams[nation] = team
        return team

    def add_nation(
        self, nation_id: str, name: str, colour: str, *, player: str | None = None
    ) -> Nation:
        if nation_id in self.nations:
            raise ValueError(f"nation {nation_id!r} exists")
        nation = Nation(
            id=nation_id,
            name=name,
            colour=colour,
            cp=self.rules.command_points.start,
            player=player,
        )
        self.nations[nation_id] = nation
        self._relations_changed()
        return nation

    def remove_nation(self, nation_id: str) -> None:
        self.sight_index.settle()
        del self.nations[nation_id]
        self.known.pop(nation_id, None)
        self.city_memory.pop(nation_id, None)
        self.warned.pop(nation_id, None)
        self.sightings.pop(nation_id, None)
        self.memory_at.pop(nation_id, None)
        self.remembered_cache.clear()
        for other in self.nations.values():
            other.relations.pop(nation_id, None)
        self._relations_changed()
        self.supply_cache.clear()

    # --- time ---------------------------------------------------------------------------------

    @property
    def ticks_per_hour(self) -> int:
        return self.rules.ticks_per_hour

    @property
    def end_tick(self) -> int:
        return self.length_days * self.rules.ticks_per_day

    def clock(self, tick: int | None = None) -> str:
        """Game time as 'day D hh:mm' (day 1 starts at tick 0)."""
        return self.rules.clock(self.tick if tick is None else tick)

    # --- serialisation --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        self.sight_index.settle()  # a no-op after any command or tick
        return {
            "format": 1,
            "ruleset": self.rules.name,
            "width": self.width,
            "height": self.height,
            "terrain": self.terrain.hex(),
            "tick": self.tick,
            "seed": self.seed,
            "rng": self.rng.state,
            "next_unit_id": self.next_unit_id,
            "next_built": self.next_built,
            "length_days": self.length_days,
            "ended": self.ended,
            "started": self.started,
            "slots": self.slots,
            "slot_owner": self.slot_owner,
            "nations": [n.to_dict() for n in self.nations.values()],
            "cities": [c.to_row() for c in sorted(self.cities.values(), key=lambda c: c.sq)],
            "units": [u.to_row() for u in sorted(self.units.values(), key=lambda u: u.id)],
            "pending": [[p.due_tick, p.nation, p.other, p.level] for p in self.pending],
            "satellites": [list(s) for s in self.satellites],
            "reveals": sorted([n, u, t] for (n, u), t in self.reveals.items()),
            "sightings": {
                n: {str(u): e for u, e in sorted(d.items())}
                for n, d in sorted(self.sightings.items())
                if d
            },
            "known": {n: _pack(k) for n, k in sorted(self.known.items())},
            "city_memory": {
                n: {str(sq): e for sq, e in sorted(m.items())}
                for n, m in sorted(self.city_memory.items())
                if m
            },
            **self._seed_002_dict(),
        } | (  # (absent when empty: older snapshots have none)
            {
                "warned": {
                    n: {str(sq): list(e) for sq, e in sorted(m.items())}
                    for n, m in sorted(self.warned.items())
                }
            }
            if self.warned
            else {}
        )

    def _seed_002_dict(self) -> dict[str, Any]:
        """Ruleset total-war's state, only when there is some (other games' snapshots and
        hashes stay as they were)."""
        out: dict[str, Any] = {}
        if self.wastelands:
            out["wastelands"] = {str(sq): w.to_row() for sq, w in sorted(self.wastelands.items())}
        if self.ecology:
            out["ecology"] = self.ecology
        if self.part_moved:
            out["part_moved"] = {str(u): t for u, t in sorted(self.part_moved.items())}
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any], rules: Ruleset | None = None) -> World:
        world = cls(
            rules or d["ruleset"],
            d["width"],
            d["height"],
            seed=d["seed"],
            terrain=bytearray.fromhex(d["terrain"]),
            length_days=d["length_days"],
        )
        world.tick = d["tick"]
        world.rng.state = d["rng"]
        world.next_unit_id = d["next_unit_id"]
        world.next_built = d["next_built"]
        world.ended = d["ended"]
        world.started = d["started"]
        world.slots = [list(s) for s in d["slots"]]
        world.slot_owner = list(d["slot_owner"])
        for nd in d["nations"]:
            world.nations[nd["id"]] = Nation.from_dict(nd)
        for row in d["cities"]:
            city = City.from_row(row)
            world.cities[city.sq] = city
        world._loading = True
        for row in d["units"]:
            world._index(Unit.from_row(row))
        world._loading = False
        world.pending = [PendingRelation(*p) for p in d["pending"]]
        world.satellites = [(owner, sq) for owner, sq in d["satellites"]]
        # the indexes built at once from the units (and the sight of cities, satellites and
        # radar stamped as the saved world had them stamped at its last settle: stamping them
        # later, in the middle of the next command or tick, would miss the sight they lose
        # meanwhile, and a restart must not change what nations remember)
        world.sight_index = SightIndex(world)
        world.supply_index = SupplyIndex(world)
        world.reveals = {(n, u): t for n, u, t in d["reveals"]}
        world.sightings = {
            n: {int(u): list(e) for u, e in entries.items()}
            for n, entries in d["sightings"].items()
        }
        world._index_memory()
        world.known = {n: _unpack(v, world.grid.size) for n, v in d.get("known", {}).items()}
        world.city_memory = {
            n: {int(sq): list(e) for sq, e in m.items()}
            for n, m in d.get("city_memory", {}).items()
        }
        world.wastelands = {int(sq): Wasteland(*row) for sq, row in d.get("wastelands", {}).items()}
        world.ecology = d.get("ecology", 0)
        world.part_moved = {int(u): t for u, t in d.get("part_moved", {}).items()}
        world.warned = {
            n: {int(sq): list(e) for sq, e in m.items()} for n, m in d.get("warned", {}).items()
        }
        world.sight_index.settle()  # (a no-op: nothing was left to remember, nothing restamped)
        return world

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    def hash(self) -> str:
        """A digest of the whole state: equal worlds have equal hashes."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()


def _pack(array: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(array.tobytes(), 6)).decode()


def _unpack(text: str, size: int) -> np.ndarray:
    array = np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype=np.uint8).copy()
    if array.size != size:
        raise ValueError("known-map data does not match the map size")
    return array
