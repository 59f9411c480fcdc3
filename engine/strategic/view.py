"""The fog of war: `view_for(world, nation)` is everything a nation may know now, and the only
way game state reaches a player (pictures, lists, autocomplete, replies all read a View).

What is in it:
- the nation's own units and cities in full, and its own numbers (tech, command points, power);
- other nations' names, colours and relations, nothing of their tech, points or builds;
- squares in sight now (its team's units, cities, radar, satellites: engine/strategic/world/sightindex.py);
- foreign units seen now (subs only by sub-seeing units), shown by a reveal, or passed on by a
  nation that shares its sightings; units carried inside a foreign carrier are not seen;
- ghosts: foreign units remembered where they were last seen (24 hours, subs 8) while that
  square is not in sight now;
- terrain and cities as last seen on every square it ever saw (`World.known`,
  `World.city_memory`), the current picture where it sees now.

Reading a view changes nothing in the world.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from engine.strategic.eta import arrival_tick
from engine.strategic.founding import styled
from engine.strategic.rules.models import UnitClass
from engine.strategic.systems.economy import (
    CityCounts,
    city_counts,
    cp_regen,
    power,
    power_limit,
)
from engine.strategic.systems.supply import SupplyMap
from engine.strategic.world import World

NEVER_SEEN = 0  # in View.terrain; other values are 1 + the terrain (WATER, LAND, WASTE)

# A view's parts are plain slotted dataclasses, not frozen ones: a frozen dataclass is built
# ten times slower (each field set through `object.__setattr__`), and a view holds thousands
# of them late in a game. Each view is a fresh copy that no other reader shares; they are read,
# never changed.


@dataclass(slots=True, unsafe_hash=True)
class UnitView:
    id: int
    type: str
    owner: str
    sq: int
    hp: int | None  # None for ghosts
    seen: str  # "own", "now" or "memory"
    seen_tick: int
    # the owner's team only (None for foreign units)
    mobility: int | None = None
    ammo: int | None = None
    fuel: int | None = None
    order: int | None = None
    carried_by: int | None = None
    built_tick: int | None = None
    # own units only: False when a land or sea unit that needs supply is out of it (it heals
    # less, pays more to move, `systems/supply.py`); None when supply does not apply (aircraft,
    # which refuel instead, and units that need none) or the unit is not the nation's own
    supplied: bool | None = None
    strike: bool = False  # own units: the standing order is an attack on its square
    pace: int | None = None  # own units: mobility the order spends at most an update (a fleet)
    # own units on a standing order: the tick it should arrive (`engine.strategic.eta`)
    arrives: int | None = None


@dataclass(slots=True, unsafe_hash=True)
class CityView:
    sq: int
    owner: str | None
    designation: str
    seen: str  # "own", "now" or "memory"
    # own cities only
    name: str = ""
    build: str | None = None
    progress: int | None = None
    next_build: str | None = None
    skipped: bool = False  # its last finished build was skipped for lack of power
    waypoint: int | None = None  # where each unit it builds is sent
    output: int = 100  # own cities back from a wasteland: their output in % (total-war)
    output_cap: int = 100  # ...and the most investment may bring it back to


@dataclass(slots=True, unsafe_hash=True)
class NationView:
    id: str
    name: str
    colour: str
    player: str | None
    out: bool
    relation_to: str  # this nation's relation towards it
    relation_from: str  # its relation towards this nation
    leader: str = ""  # its leader and the leader's title, public (engine.strategic.founding)
    title: str = ""

    @property
    def styled(self) -> str:
        """How others name it: "Avalon (President Ada)", or its name when it has no leader."""
        return styled(self.name, self.leader, self.title)


@dataclass(slots=True, unsafe_hash=True)
class Status:
    tech: float
    cp: int
    cp_regen: int  # per game hour (gained a tick at a time)
    power: int
    power_limit: int
    cities: int
    units: int


@dataclass(slots=True, unsafe_hash=True)
class PendingView:
    due_tick: int
    nation: str
    other: str
    level: str


@dataclass(frozen=True, slots=True)
class View:
    nation: str
    ruleset: str
    tick: int
    clock: str
    end_tick: int
    width: int
    height: int
    status: Status
    nations: dict[str, NationView]
    terrain: np.ndarray = field(repr=False)  # flat uint8: NEVER_SEEN or 1 + terrain
    visible: np.ndarray = field(repr=False)  # flat bool: in sight now
    cities: dict[int, CityView]
    units: list[UnitView]
    satellites: list[int]
    pending: list[PendingView]
    # the nation's capital: the first square of the home it was given at its start (None for
    # a world without homes, and in the moderators' full view)
    home: int | None = None
    # ruleset total-war: the wastelands it sees now or once owned as cities (square -> the
    # tick each returns), and the world's ecological meter and its collapse threshold (public)
    wastelands: dict[int, int] = field(default_factory=dict)
    ecology: int | None = None
    collapse_at: int | None = None

    def label(self, sq: int) -> str:
        return f"{sq % self.width},{sq // self.width}"

    def own_units(self) -> list[UnitView]:
        return [u for u in self.units if u.seen == "own"]

    def foreign_units(self) -> list[UnitView]:
        return [u for u in self.units if u.seen != "own"]

    def units_at(self, sq: int) -> list[UnitView]:
        return [u for u in self.units if u.sq == sq]

    def unit(self, uid: int) -> UnitView | None:
        return next((u for u in self.units if u.id == uid), None)

    def own_cities(self) -> list[CityView]:
        return [c for c in self.cities.values() if c.seen == "own"]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: everything in the view, squares as "x,y" labels."""
        return {
            "nation": self.nation,
            "ruleset": self.ruleset,
            "tick": self.tick,
            "clock": self.clock,
            "end_tick": self.end_tick,
            "width": self.width,
            "height": self.height,
            "status": _asdict(self.status),
            "nations": {k: _asdict(v) for k, v in sorted(self.nations.items())},
            "terrain": self.terrain.tobytes().hex(),
            "visible": np.packbits(self.visible).tobytes().hex(),
            "cities": [
                {**_asdict(c), "sq": self.label(c.sq)} for _, c in sorted(self.cities.items())
            ],
            "units": [
                {
                    **_asdict(u),
                    "sq": self.label(u.sq),
                    "order": None if u.order is None else self.label(u.order),
                }
                for u in sorted(self.units, key=lambda u: u.id)
            ],
            "satellites": [self.label(sq) for sq in self.satellites],
            "pending": [_asdict(p) for p in self.pending],
        }


_FIELDS: dict[type, tuple[str, ...]] = {}


def _asdict(part: Any) -> dict[str, Any]:
    """`dataclasses.asdict` of a view's part, whose fields are all plain values (numbers,
    strings, None): the same dict, without `asdict`'s deep copy of each value."""
    names = _FIELDS.get(type(part))
    if names is None:
        names = _FIELDS[type(part)] = tuple(f.name for f in fields(part))
    return {name: getattr(part, name) for name in names}


def view_for(world: World, nation: str) -> View:
    if nation not in world.nations:
        raise KeyError(nation)
    index = world.sight_index
    index.settle()  # a no-op after any command or tick (the engine settles at their end)
    team = world.team(nation)
    me = world.nations[nation]
    size = world.grid.size

    visible = index.mask(nation)
    sub_visible = index.mask(nation, sub=True)
    # nations passing their sightings on to this one (allies, friends in some rulesets) pass on
    # everything they see, their own allies' sight included
    informants = [n for n in world.informants(nation) if n != nation]
    unit_seen = visible.copy()
    unit_sub_seen = sub_visible.copy()
    for other in informants:
        unit_seen |= index.mask(other)
        unit_sub_seen |= index.mask(other, sub=True)

    terrain_now = world.terrain_array()
    known = world.known.get(nation)
    if known is None:
        known = np.zeros(size, dtype=np.uint8)
    terrain = np.where(visible, terrain_now + 1, known).astype(np.uint8)

    units: list[UnitView] = []
    listed: set[int] = set()
    supply = SupplyMap(world, nation, many=True)
    # the nation's supply grid of each class its units ask about, read once (nothing changes
    # while a view is made: each unit's square read from it is `square_supplied`'s answer)
    supplied_grids: dict[UnitClass, np.ndarray] = {}
    rules = world.rules
    tick = world.tick
    for uid in sorted(world.owned.get(nation, ())):
        u = world.units[uid]
        ut = rules.unit[u.type]
        supplied = None
        cls = ut.unit_class
        if ut.needs_supply and (cls is UnitClass.LAND or cls is UnitClass.SEA):
            grid = supplied_grids.get(cls)
            if grid is None:
                grid = supplied_grids[cls] = supply.grid(cls)
            supplied = bool(grid[u.sq])
        units.append(
            UnitView(
                u.id,
                u.type,
                u.owner,
                u.sq,
                u.hp,
                "own",
                tick,
                u.mobility,
                u.ammo,
                u.fuel,
                u.order,
                u.carried_by,
                u.born,
                supplied,
                u.strike,
                u.pace,
                arrival_tick(world, u, supply) if u.order is not None else None,
            )
        )
        listed.add(uid)

    def foreign_now(u) -> UnitView:
        return UnitView(u.id, u.type, u.owner, u.sq, u.hp, "now", world.tick)

    stealthy = world.rules.stealthy
    occupied = np.frombuffer(world.occupied, dtype=np.uint8).astype(bool)
    candidates = np.flatnonzero(unit_seen & occupied)
    found: list = []
    for sq in candidates.tolist():
        for uid in world.at[sq]:
            u = world.units[uid]
            if u.owner == nation:
                continue
            if u.carried_by is not None and u.owner not in team:
                continue  # inside a foreign carrier
            if u.type in stealthy and u.owner not in team and not unit_sub_seen[sq]:
                continue
            found.append(u)
    told = {nation, *informants}
    for (who, uid), until in world.reveals.items():
        if who in told and until >= world.tick and uid in world.units:
            found.append(world.units[uid])
    for u in sorted(found, key=lambda u: u.id):
        if u.id not in listed:
            listed.add(u.id)
            units.append(foreign_now(u))

    # ghosts: remembered where last seen, while that square is not watched now
    memory_hours = world.rules.sighting.memory_hours
    sub_hours = world.rules.sighting.sub_memory_hours
    per_hour = world.ticks_per_hour
    for uid, (tick, sq, type_name, owner) in sorted(world.sightings.get(nation, {}).items()):
        if uid in listed or owner in team:
            continue
        sub = type_name in stealthy
        if world.tick - tick > (sub_hours if sub else memory_hours) * per_hour:
            continue
        if (unit_sub_seen if sub else unit_seen)[sq]:
            continue  # watched now: it would show if it were there
        listed.add(uid)
        units.append(UnitView(uid, type_name, owner, sq, None, "memory", tick))

    cities: dict[int, CityView] = {}
    memory = world.city_memory.get(nation, {})
    for sq, (owner, designation) in memory.items():
        if not visible[sq]:
            cities[sq] = CityView(sq, owner, designation, "memory")
    own_cities = []
    for sq, city in world.cities.items():
        if city.owner == nation:
            own_cities.append(city)
            cities[sq] = CityView(
                sq,
                city.owner,
                city.designation,
                "own",
                city.name,
                city.build,
                city.progress,
                city.next_build,
                city.skipped,
                city.waypoint,
                city.output,
                city.output_cap,
            )
        elif visible[sq]:
            cities[sq] = CityView(sq, city.owner, city.designation, "now")

    nations = {
        n.id: NationView(
            n.id,
            n.name,
            n.colour,
            n.player,
            n.out,
            world.relation(nation, n.id),
            world.relation(n.id, nation),
            n.leader,
            n.title,
        )
        for n in world.nations.values()
    }
    own_units = len(world.owned.get(nation, ()))
    counts = city_counts(world, own_cities).get(nation, CityCounts())
    status = Status(
        tech=me.tech,
        cp=me.cp,
        cp_regen=cp_regen(world, nation, counts) * world.ticks_per_hour if world.started else 0,
        power=power(world, nation),
        power_limit=power_limit(world, nation, counts),
        cities=len(own_cities),
        units=own_units,
    )
    return View(
        nation=nation,
        ruleset=world.rules.name,
        tick=world.tick,
        clock=world.clock(),
        end_tick=world.end_tick,
        width=world.width,
        height=world.height,
        status=status,
        nations=nations,
        terrain=terrain,
        visible=visible,
        cities=cities,
        units=units,
        satellites=[sq for owner, sq in world.satellites if owner == nation],
        pending=[
            PendingView(p.due_tick, p.nation, p.other, p.level)
            for p in world.pending
            if nation in (p.nation, p.other)
        ],
        home=next(
            (
                slot[0]
                for slot, owner in zip(world.slots, world.slot_owner, strict=False)
                if owner == nation and slot
            ),
            None,
        ),
        wastelands={
            sq: w.returns
            for sq, w in sorted(world.wastelands.items())
            if visible[sq] or w.owner == nation
        },
        **_ecology(world),
    )


def _ecology(world: World) -> dict[str, int]:
    rules = world.rules.wastelands
    return {} if rules is None else {"ecology": world.ecology, "collapse_at": rules.collapse_at}


def full_view(world: World) -> View:
    """Everything, for moderators and the end-of-game timelapse: every square in sight, every
    unit and city as it is (never shown to a player during a game)."""
    size = world.grid.size
    units = [
        UnitView(u.id, u.type, u.owner, u.sq, u.hp, "now", world.tick, carried_by=u.carried_by)
        for u in sorted(world.units.values(), key=lambda u: u.id)
    ]
    cities = {
        sq: CityView(sq, c.owner, c.designation, "now", c.name)
        for sq, c in sorted(world.cities.items())
    }
    nations = {
        n.id: NationView(
            n.id, n.name, n.colour, n.player, n.out, "neutral", "neutral", n.leader, n.title
        )
        for n in world.nations.values()
    }
    return View(
        nation="",
        ruleset=world.rules.name,
        tick=world.tick,
        clock=world.clock(),
        end_tick=world.end_tick,
        width=world.width,
        height=world.height,
        status=Status(0.0, 0, 0, 0, 0, len(world.cities), len(world.units)),
        nations=nations,
        terrain=(world.terrain_array() + 1).astype(np.uint8),
        visible=np.ones(size, dtype=bool),
        cities=cities,
        units=units,
        satellites=[sq for _, sq in world.satellites],
        pending=[],
        wastelands={sq: w.returns for sq, w in sorted(world.wastelands.items())},
        **_ecology(world),
    )
