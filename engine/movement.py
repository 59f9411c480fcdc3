"""Movement: where a unit may go, the cheapest path on the torus, and walking it.

Each step costs 1 mobility, or the ruleset's out-of-supply cost when the unit is out of supply
on the square it leaves. Air units pay 1 mobility and 1 fuel a step and refuel where they may.
A unit without enough mobility walks as far as it can and keeps a standing order that the
4-hourly update carries on. Paths avoid foreign units the nation can see; a unit that bumps into
one it could not see stops in front of it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

from . import events as ev
from .rules.models import MovesOn, UnitClass, UnitType
from .sight import Sight
from .supply import SupplyMap, can_refuel_at
from .world import Unit, World


@dataclass
class MoveContext:
    """Per-command caches: a nation's supply grids and current sight."""

    world: World
    nation: str
    _supply: SupplyMap | None = None
    _sight: Sight | None = None
    team: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.team = self.world.team(self.nation)

    @property
    def supply(self) -> SupplyMap:
        if self._supply is None:
            self._supply = SupplyMap(self.world, self.nation)
        return self._supply

    @property
    def sight(self) -> Sight:
        if self._sight is None:
            self._sight = Sight(self.world, self.nation)
        return self._sight

    def invalidate(self) -> None:
        self._supply = None
        self._sight = None


def is_ship(ut: UnitType) -> bool:
    return ut.unit_class == UnitClass.SEA


def can_enter(world: World, ctx: MoveContext, unit: Unit, ut: UnitType, sq: int) -> bool:
    """Terrain, cities and ship stacking (foreign units are checked separately)."""
    mode = ut.moves_on
    if mode == MovesOn.NONE:
        return False
    city = world.cities.get(sq)
    if city is not None:
        if city.owner not in ctx.team:
            return False  # neutral and foreign cities are taken by capture, not by moving
        if mode in (MovesOn.LAND, MovesOn.AIR, MovesOn.LAND_AND_SEA):
            return True
        ct = world.rules.city[city.designation]
        return ct.ship_passage and world.is_coastal(sq)
    if world.is_land(sq):
        return mode in (MovesOn.LAND, MovesOn.AIR, MovesOn.LAND_AND_SEA)
    # water without a city
    if mode == MovesOn.AIR:
        return True
    if mode in (MovesOn.SEA, MovesOn.LAND_AND_SEA):
        rules = world.rules
        return not any(
            is_ship(rules.unit[o.type]) and o.id != unit.id and o.carried_by is None
            for o in world.units_at(sq)
        )
    return False


def step_cost(world: World, ctx: MoveContext, ut: UnitType, from_sq: int) -> int:
    if ut.unit_class == UnitClass.AIR or not ut.needs_supply or ut.unit_class == UnitClass.TECH:
        return 1
    if ctx.supply.square_supplied(ut.unit_class, from_sq):
        return 1
    return world.rules.supply.out_of_supply_step_cost


def find_path(world: World, ctx: MoveContext, unit: Unit, goal: int, *, limit: int | None = None) -> list[int] | None:
    """Cheapest path from the unit's square to `goal` (excluded start, included goal), or None.

    `limit` caps the path cost (air units: their fuel)."""
    grid = world.grid
    ut = world.rules.unit[unit.type]
    start = unit.sq
    if start == goal:
        return []
    if not can_enter(world, ctx, unit, ut, goal) or _known_foreign(world, ctx, goal):
        return None
    dist = grid.distance
    neighbours = grid.neighbours
    best: dict[int, int] = {start: 0}
    came: dict[int, int] = {}
    heap: list[tuple[int, int, int]] = [(dist(start, goal), 0, start)]
    enter_ok: dict[int, bool] = {}
    while heap:
        _, g, sq = heapq.heappop(heap)
        if sq == goal:
            path = [sq]
            while sq in came:
                sq = came[sq]
                path.append(sq)
            path.pop()
            path.reverse()
            return path
        if g > best.get(sq, 1 << 30):
            continue
        cost = step_cost(world, ctx, ut, sq)
        ng = g + cost
        if limit is not None and ng > limit:
            continue
        for nb in neighbours(sq):
            if ng >= best.get(nb, 1 << 30):
                continue
            ok = enter_ok.get(nb)
            if ok is None:
                ok = can_enter(world, ctx, unit, ut, nb) and (nb == goal or not _known_foreign(world, ctx, nb))
                enter_ok[nb] = ok
            if not ok:
                continue
            best[nb] = ng
            came[nb] = sq
            heapq.heappush(heap, (ng + dist(nb, goal), ng, nb))
    return None


def _known_foreign(world: World, ctx: MoveContext, sq: int) -> bool:
    ids = world.at.get(sq)
    if not ids:
        return False
    if all(world.units[i].owner in ctx.team for i in ids):
        return False
    return ctx.sight.sees_foreign_at(sq)


def _foreign_at(world: World, ctx: MoveContext, sq: int) -> bool:
    ids = world.at.get(sq)
    return bool(ids) and any(world.units[i].owner not in ctx.team for i in ids)


StepHook = Callable[[World, Unit, int], list[ev.Event] | None]


@dataclass
class WalkResult:
    arrived: bool
    stopped: bool  # stopped early (blocked, intercepted, ...): the order is dropped
    events: list[ev.Event]


def walk(world: World, ctx: MoveContext, unit: Unit, path: list[int], *, hooks: tuple[StepHook, ...] = ()) -> WalkResult:
    """Walk a path as far as mobility (and fuel) allow. Hooks run after each step and may
    stop the walk by returning events with a truthy `stop` (interception, interdiction)."""
    ut = world.rules.unit[unit.type]
    air = ut.unit_class == UnitClass.AIR
    out: list[ev.Event] = []
    for sq in path:
        cost = step_cost(world, ctx, ut, unit.sq)
        if unit.mobility < cost:
            return WalkResult(False, False, out)
        if air and ut.needs_fuel and unit.fuel < 1:
            return WalkResult(False, True, out)
        if _foreign_at(world, ctx, sq):
            out.append(
                ev.MoveBlocked(
                    tick=world.tick, to=[unit.owner], nation=unit.owner, unit=unit.id,
                    square=world.grid.label(unit.sq), blocked_at=world.grid.label(sq),
                )
            )
            return WalkResult(False, True, out)
        unit.mobility -= cost
        if air and ut.needs_fuel:
            unit.fuel -= 1
        world.move_unit(unit, sq)
        for hook in hooks:
            stop = hook(world, unit, sq)
            if stop:
                out.extend(stop)
                return WalkResult(sq == path[-1], True, out)
    if air:
        refuel(world, unit)
    return WalkResult(True, False, out)


def refuel(world: World, unit: Unit) -> None:
    ut = world.rules.unit[unit.type]
    if ut.unit_class == UnitClass.AIR and can_refuel_at(world, unit, unit.sq):
        if ut.needs_fuel:
            unit.fuel = ut.full_fuel
        if ut.ammo:
            unit.ammo = ut.ammo


def plan_move(world: World, ctx: MoveContext, unit: Unit, goal: int) -> list[int] | None:
    """The path a unit would take towards `goal` now, or None if it cannot get there."""
    ut = world.rules.unit[unit.type]
    limit = unit.fuel if (ut.unit_class == UnitClass.AIR and ut.needs_fuel) else None
    return find_path(world, ctx, unit, goal, limit=limit)
