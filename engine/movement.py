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

import numpy as np

from . import events as ev
from .rules.models import MovesOn, UnitClass, UnitType
from .sight import Sight, show
from .supply import SupplyMap, can_refuel_at
from .transport import carrier_with_room, pick_up, settle
from .world import LAND, WASTE, WATER, Unit, World


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

    def invalidate_sight(self) -> None:
        """After a unit moved, what the nation sees may differ (supply grids invalidate
        themselves in the world's cache)."""
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
    if world.terrain[sq] == WASTE:
        return False
    if world.is_land(sq):
        return mode in (MovesOn.LAND, MovesOn.AIR, MovesOn.LAND_AND_SEA)
    # water without a city
    if mode == MovesOn.AIR:
        return True
    if mode == MovesOn.LAND:
        return carrier_with_room(world, unit, sq) is not None  # boarding a transport
    if mode in (MovesOn.SEA, MovesOn.LAND_AND_SEA):
        rules = world.rules
        # stacking with the team's own ships; foreign ships are obstacles only when seen
        # (known_foreign) or bumped into, so a hidden sub never shapes a path
        return not any(
            is_ship(rules.unit[o.type])
            and o.id != unit.id
            and o.carried_by is None
            and o.owner in ctx.team
            for o in world.units_at(sq)
        )
    return False


def boards(world: World, ut: UnitType, sq: int) -> bool:
    """A land unit stepping onto water boards a transport there: that ends its path."""
    return ut.moves_on == MovesOn.LAND and world.is_water(sq) and sq not in world.cities


def step_cost(world: World, ctx: MoveContext, ut: UnitType, from_sq: int) -> int:
    if ut.unit_class == UnitClass.AIR or not ut.needs_supply or ut.unit_class == UnitClass.TECH:
        return 1
    if ctx.supply.square_supplied(ut.unit_class, from_sq):
        return 1
    return world.rules.supply.out_of_supply_step_cost


def find_path(
    world: World,
    ctx: MoveContext,
    unit: Unit,
    goal: int,
    *,
    limit: int | None = None,
    approach: bool = False,
) -> list[int] | None:
    """Cheapest path from the unit's square to `goal` (excluded start, included goal), or None.
    With `approach`, the cheapest path to any square next to `goal` (to attack it).

    A* with the Chebyshev distance as heuristic (every step costs at least 1), ties broken
    towards the deeper node. `limit` caps the path cost (air units: their fuel)."""
    grid = world.grid
    ut = world.rules.unit[unit.type]
    start = unit.sq
    if approach:
        if grid.distance(start, goal) == 1:
            return []
        goals = {
            n
            for n in grid.neighbours(goal)
            if n != start
            and can_enter(world, ctx, unit, ut, n)
            and not _known_foreign(world, ctx, n)
        }
        if not goals:
            return None
    else:
        if start == goal:
            return []
        if not can_enter(world, ctx, unit, ut, goal) or _known_foreign(world, ctx, goal):
            return None
        goals = {goal}
    reach = 1 if approach else 0
    w, h = grid.width, grid.height
    gx, gy = goal % w, goal // w
    table = grid.neighbour_table
    state = _entry_states(world, ut)
    costs = _step_costs(world, ctx, ut)
    # Out of supply a step costs more. Every square closer to the goal than the goal's distance
    # to the nearest supplied square is out of supply, so the last steps of any path cost at
    # least that much: a consistent lower bound that keeps A* from flooding the open sea.
    deep, surcharge = 0, 0
    if costs is not None:
        surcharge = world.rules.supply.out_of_supply_step_cost - 1
        deep = max(0, ctx.supply.depth(ut.unit_class, goal) - 1 - reach)
    infinity = 1 << 30
    best = [infinity] * grid.size
    best[start] = 0
    came: dict[int, int] = {}
    # heap entries are single ints: f, then deeper first (G_MAX - g), then the square
    heap: list[int] = [(grid.distance(start, goal) << _F_SHIFT) | (_G_MAX << _SQ_BITS) | start]
    push, pop = heapq.heappush, heapq.heappop
    cap = min(_G_MAX, infinity if limit is None else limit)
    sq_mask = (1 << _SQ_BITS) - 1
    g_mask = (1 << _G_BITS) - 1
    while heap:
        key = pop(heap)
        sq = key & sq_mask
        g = _G_MAX - ((key >> _SQ_BITS) & g_mask)
        if sq in goals:
            path = [sq]
            while sq in came:
                sq = came[sq]
                path.append(sq)
            path.pop()
            path.reverse()
            return path
        if g > best[sq]:
            continue
        ng = g + (costs[sq] if costs is not None else 1)
        if ng > cap:
            continue
        deeper = (_G_MAX - ng) << _SQ_BITS
        for nb in table[sq]:
            if ng >= best[nb]:
                continue
            st = state[nb]
            if st != _OPEN:
                if st == _BLOCKED:
                    continue
                ok = (
                    can_enter(world, ctx, unit, ut, nb)
                    and (nb in goals or not _known_foreign(world, ctx, nb))
                    and (nb in goals or not boards(world, ut, nb))
                )
                state[nb] = _OPEN if ok else _BLOCKED
                if not ok:
                    continue
            best[nb] = ng
            came[nb] = sq
            dx = nb % w - gx
            dy = nb // w - gy
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            if w - dx < dx:
                dx = w - dx
            if h - dy < dy:
                dy = h - dy
            estimate = (dx if dx > dy else dy) - reach
            if estimate > 0:
                estimate += surcharge * (estimate if estimate < deep else deep)
            else:
                estimate = 0
            push(heap, ((ng + estimate) << _F_SHIFT) | deeper | nb)
    return None


_SQ_BITS = 20  # squares: maps up to 1,048,576 squares
_G_BITS = 16
_G_MAX = (1 << _G_BITS) - 1  # path costs beyond this are not searched
_F_SHIFT = _SQ_BITS + _G_BITS
_OPEN, _BLOCKED, _ASK = 1, 2, 0


def _entry_states(world: World, ut: UnitType) -> bytearray:
    """Per square: open by terrain alone, blocked by terrain, or to be asked (cities and
    occupied squares, decided by can_enter and what the nation sees)."""
    key = (ut.moves_on.value, world.map_version)
    base = world.path_cache.get(key)
    if base is None:
        allowed = {
            MovesOn.LAND: (LAND,),
            MovesOn.SEA: (WATER,),
            MovesOn.AIR: (LAND, WATER),
            MovesOn.LAND_AND_SEA: (LAND, WATER),
        }.get(ut.moves_on, ())
        terrain = np.frombuffer(bytes(world.terrain), dtype=np.uint8)
        base = np.full(terrain.shape, _BLOCKED, dtype=np.uint8)
        for value in allowed:
            base[terrain == value] = _OPEN
        if world.cities:
            base[np.fromiter(world.cities.keys(), dtype=np.int64, count=len(world.cities))] = _ASK
        world.path_cache = {k: v for k, v in world.path_cache.items() if k[1] == world.map_version}
        world.path_cache[key] = base
    state = base.copy()
    state[np.frombuffer(world.occupied, dtype=np.uint8) != 0] = _ASK
    return bytearray(state.tobytes())


def _step_costs(world: World, ctx: MoveContext, ut: UnitType) -> bytes | None:
    """Cost of a step from each square (by supply there), or None when every step costs 1."""
    if ut.unit_class == UnitClass.AIR or not ut.needs_supply or ut.unit_class == UnitClass.TECH:
        return None
    return ctx.supply.step_costs(ut.unit_class, world.rules.supply.out_of_supply_step_cost)


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
    walked: int = 0  # squares of the path walked


def walk(
    world: World, ctx: MoveContext, unit: Unit, path: list[int], *, hooks: tuple[StepHook, ...] = ()
) -> WalkResult:
    """Walk a path as far as mobility (and fuel) allow. Hooks run after each step and may
    stop the walk by returning events (interception, interdiction)."""
    ut = world.rules.unit[unit.type]
    air = ut.unit_class == UnitClass.AIR
    out: list[ev.Event] = []
    if path:
        pick_up(world, unit)
    for walked, sq in enumerate(path):
        cost = step_cost(world, ctx, ut, unit.sq)
        if unit.mobility < cost:
            return WalkResult(False, False, out, walked)
        if air and ut.needs_fuel and unit.fuel < 1:
            return WalkResult(False, True, out, walked)
        if _foreign_at(world, ctx, sq) or not can_enter(world, ctx, unit, ut, sq):
            for other in world.units_at(sq):
                if other.owner not in ctx.team:
                    out.extend(show(world, unit.owner, other))  # bumping into a unit shows it
            out.append(
                ev.MoveBlocked(
                    tick=world.tick,
                    to=[unit.owner],
                    nation=unit.owner,
                    unit=unit.id,
                    square=world.grid.label(unit.sq),
                    blocked_at=world.grid.label(sq),
                )
            )
            return WalkResult(False, True, out, walked)
        unit.mobility -= cost
        if air and ut.needs_fuel:
            unit.fuel -= 1
        unit.carried_by = None  # stepping off whatever carried it
        world.move_unit(unit, sq)
        for hook in hooks:
            stop = hook(world, unit, sq)
            if stop:
                out.extend(stop)
                if unit.id in world.units:
                    settle(world, unit)
                return WalkResult(False, True, out, walked + 1)
    if path:
        settle(world, unit)
    if air:
        refuel(world, unit)
    return WalkResult(True, False, out, len(path))


def follow(
    world: World,
    ctx: MoveContext,
    unit: Unit,
    goal: int,
    path: list[int],
    *,
    hooks: tuple[StepHook, ...] = (),
) -> WalkResult:
    """Walk towards `goal` along `path`; keep or drop the unit's standing order accordingly."""
    result = walk(world, ctx, unit, path, hooks=hooks)
    if result.arrived or result.stopped:
        unit.set_order(None)
    else:
        unit.set_order(goal, path[result.walked :])
    return result


def route_open(world: World, ctx: MoveContext, unit: Unit) -> bool:
    """Whether a standing order's remembered route is still open (terrain, cities, ships and
    foreign units the nation sees); if not, the route is planned anew."""
    route = unit.route
    if not route:
        return False
    ut = world.rules.unit[unit.type]
    goal = route[-1]
    for sq in route:
        if not can_enter(world, ctx, unit, ut, sq) or (
            sq != goal and _known_foreign(world, ctx, sq)
        ):
            return False
    return not (ut.unit_class == UnitClass.AIR and ut.needs_fuel and len(route) > unit.fuel)


def refuel(world: World, unit: Unit) -> None:
    ut = world.rules.unit[unit.type]
    if ut.unit_class == UnitClass.AIR and can_refuel_at(world, unit, unit.sq):
        if ut.needs_fuel:
            unit.fuel = ut.full_fuel
        if ut.ammo:
            unit.ammo = ut.ammo


def plan_move(
    world: World, ctx: MoveContext, unit: Unit, goal: int, *, approach: bool = False
) -> list[int] | None:
    """The path a unit would take towards `goal` now (with `approach`: to a square next to
    it), or None if it cannot get there."""
    ut = world.rules.unit[unit.type]
    limit = unit.fuel if (ut.unit_class == UnitClass.AIR and ut.needs_fuel) else None
    return find_path(world, ctx, unit, goal, limit=limit, approach=approach)
