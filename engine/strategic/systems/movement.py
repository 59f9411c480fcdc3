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

from engine.strategic import events as ev
from engine.strategic.rules.models import MovesOn, UnitClass, UnitType
from engine.strategic.systems.sight import Sight, show
from engine.strategic.systems.supply import SupplyMap, can_refuel_at
from engine.strategic.systems.transport import carrier_with_room, pick_up, settle
from engine.strategic.world import LAND, MIXED, WASTE, WATER, Unit, World


@dataclass
class MoveContext:
    """Per-command caches: a nation's supply grids, current sight and known map."""

    world: World
    nation: str
    _supply: SupplyMap | None = None
    _sight: Sight | None = None
    _visible: np.ndarray | None = None
    _known: np.ndarray | None = None
    _visible_bytes: bytes | None = None
    _known_bytes: bytes | None = None
    team: frozenset[str] = field(default_factory=frozenset)  # set from the world after init

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

    @property
    def visible(self) -> np.ndarray:
        """The squares the nation sees now (flat bool array)."""
        if self._visible is None:
            self._visible = self.world.sight_index.mask(self.nation)
        return self._visible

    @property
    def known(self) -> np.ndarray:
        """The terrain as the nation knows it, flat: terrain + 1 where it sees or saw the
        square, 0 where it never did."""
        if self._known is None:
            world = self.world
            before = world.known.get(self.nation)
            if before is None:
                before = np.zeros(world.grid.size, dtype=np.uint8)
            # `where(visible, terrain + 1, before)` as arithmetic on bytes (exact modulo 256):
            # a few times faster than `np.where` on a patchy mask of the whole map
            seen = world.terrain_array() + np.uint8(1)
            self._known = before + self.visible * (seen - before)
        return self._known

    @property
    def visible_bytes(self) -> bytes:
        """`visible` as bytes (1 where seen), for reading a square at a time."""
        if self._visible_bytes is None:
            self._visible_bytes = self.visible.tobytes()
        return self._visible_bytes

    @property
    def known_bytes(self) -> bytes:
        """`known` as bytes, for reading a square at a time."""
        if self._known_bytes is None:
            self._known_bytes = self.known.tobytes()
        return self._known_bytes

    def sees_now(self, squares: list[int]) -> list[bool]:
        """`visible` at these squares, without working out the whole map when it is not yet:
        the squares read from the sight index (each grid once for them all) as `visible`
        would read them now."""
        if self._visible is not None:
            return self._visible[squares].tolist()
        return self.world.sight_index.covers_all(self.nation, squares)

    def known_unseen(self, sq: int) -> int:
        """`known[sq]` for a square `sees_now` said the nation does not see (what it saw there
        last), read a square at a time while nothing of the map is worked out yet."""
        if self._known is not None or self._visible is not None:
            return int(self.known[sq])
        before = self.world.known.get(self.nation)
        return 0 if before is None else int(before[sq])

    def invalidate_sight(self) -> None:
        """After a unit moved, what the nation sees may differ (supply grids invalidate
        themselves in the world's cache)."""
        self._sight = None
        self._visible = None
        self._known = None
        self._visible_bytes = None
        self._known_bytes = None


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
    # what is left is MovesOn.SEA or MovesOn.LAND_AND_SEA (NONE, AIR and LAND returned above):
    # stacking with the team's own ships; foreign ships are obstacles only when seen
    # (known_foreign) or bumped into, so a hidden sub never shapes a path
    rules = world.rules
    return not any(
        is_ship(rules.unit[o.type])
        and o.id != unit.id
        and o.carried_by is None
        and o.owner in ctx.team
        for o in world.units_at(sq)
    )


def block_cause(
    world: World, ctx: MoveContext, unit: Unit, ut: UnitType, sq: int, *, foreign: bool
) -> str:
    """Why a unit could not step onto `sq`, as its nation may know it (`MoveBlocked.cause`):
    a foreign unit it bumped into (which shows itself); else, only where the nation sees the
    square now, a city not its team's, its team's ship filling the sea square, or terrain the
    unit cannot go on; "" when the nation cannot tell."""
    if foreign:
        return "unit"
    if not Sight(world, ctx.nation).sees_square(sq):
        return ""
    city = world.cities.get(sq)
    if city is not None:
        return "city" if city.owner not in ctx.team else "terrain"
    if (
        not world.is_land(sq)
        and world.terrain[sq] != WASTE
        and ut.moves_on in (MovesOn.SEA, MovesOn.LAND_AND_SEA)
    ):
        return "ship"
    return "terrain"


def may_enter(
    world: World,
    ctx: MoveContext,
    unit: Unit,
    ut: UnitType,
    sq: int,
    *,
    seen: bool | None = None,
) -> bool:
    """`can_enter` as the nation knows the square: as it is where the nation sees it; as last
    seen elsewhere (a remembered city is foreign or neutral: taken by capture, not entered);
    and a square it never saw might be anything, so a path may try it.

    `seen`: whether the nation sees the square now, read by the caller (`MoveContext.sees_now`),
    and its known terrain then read a square at a time (`known_unseen`) when the context has not
    worked out its maps yet; only for a caller that changes nothing before the context is
    worked out or thrown away (`route_open`)."""
    if ctx.visible_bytes[sq] if seen is None else seen:
        return can_enter(world, ctx, unit, ut, sq)
    mode = ut.moves_on
    if mode == MovesOn.NONE or sq in world.city_memory.get(ctx.nation, ()):
        return False
    value = ctx.known_bytes[sq] if seen is None else ctx.known_unseen(sq)
    if value == 0:
        return True
    terrain = value - 1
    if terrain == LAND:
        return mode in (MovesOn.LAND, MovesOn.AIR, MovesOn.LAND_AND_SEA)
    if terrain == WATER:
        # a transport of its own to board would be in sight
        return mode in (MovesOn.SEA, MovesOn.AIR, MovesOn.LAND_AND_SEA)
    return False  # waste


def boards(world: World, ut: UnitType, sq: int) -> bool:
    """A land unit stepping onto water boards a transport there: that ends its path."""
    return ut.moves_on == MovesOn.LAND and world.is_water(sq) and sq not in world.cities


def step_cost(world: World, ctx: MoveContext, ut: UnitType, from_sq: int) -> int:
    if ut.unit_class == UnitClass.AIR or not ut.needs_supply or ut.unit_class == UnitClass.TECH:
        return 1
    if ctx.supply.square_supplied(ut.unit_class, from_sq):
        return 1
    return world.rules.supply.out_of_supply_step_cost


def path_cost(world: World, ctx: MoveContext, unit: Unit, path: list[int]) -> int:
    """The mobility a unit spends walking `path` from its square."""
    ut = world.rules.unit[unit.type]
    total, here = 0, unit.sq
    for sq in path:
        total += step_cost(world, ctx, ut, here)
        here = sq
    return total


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
            and may_enter(world, ctx, unit, ut, n)
            and not _known_foreign(world, ctx, n)
        }
        if not goals:
            return None
    else:
        if start == goal:
            return []
        if not may_enter(world, ctx, unit, ut, goal) or _known_foreign(world, ctx, goal):
            return None
        goals = {goal}
    reach = 1 if approach else 0
    w, h = grid.width, grid.height
    gx, gy = goal % w, goal // w
    table = grid.neighbour_table
    entry = _EntryStates(world, ctx, ut)
    state, lut, known, asks = entry.state, entry.lut, entry.known, entry.asks
    visible, occupied, cities = ctx.visible_bytes, world.occupied, world.cities
    costs = _step_costs(world, ctx, ut)
    # Out of supply a step costs more. Every square closer to the goal than the goal's distance
    # to the nearest supplied square is out of supply, so the last steps of any path cost at
    # least that much: a consistent lower bound that keeps A* from flooding the open sea.
    deep, surcharge = 0, 0
    if costs is not None:
        surcharge = world.rules.supply.out_of_supply_step_cost - 1
        deep = max(0, ctx.supply.depth(ut.unit_class, goal) - 1 - reach)
    infinity = 1 << 30
    best = {start: 0}  # only the squares reached: most searches touch a few hundred
    best_of = best.get
    came: dict[int, int] = {}
    # heap entries are single ints: f, then deeper first (G_MAX - g), then the square
    heap: list[int] = [(grid.distance(start, goal) << _F_SHIFT) | (_G_MAX << _SQ_BITS) | start]
    push, pop = heapq.heappush, heapq.heappop
    cap = min(_G_MAX, infinity if limit is None else limit)
    sq_mask = (1 << _SQ_BITS) - 1
    g_mask = (1 << _G_BITS) - 1
    # a search still going after this many squares may be flooding everything reachable,
    # looking for a goal it cannot reach: that is asked of the whole map at once
    flood_check = _FLOOD_AFTER if limit is None else -1
    while heap:
        key = pop(heap)
        flood_check -= 1
        if flood_check == 0 and not _reachable(world, ctx, unit, ut, start, goals, entry):
            return None
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
            if ng >= best_of(nb, infinity):
                continue
            st = state[nb]
            if st != _OPEN:
                if st == _UNSET:  # first reached: as `_EntryStates` says
                    st = (
                        _ASK
                        if (visible[nb] and (occupied[nb] or nb in cities)) or nb in asks
                        else lut[known[nb]]
                    )
                    state[nb] = st
                if st == _BLOCKED:
                    continue
                if st == _ASK:
                    ok = (
                        may_enter(world, ctx, unit, ut, nb)
                        and (nb in goals or not _known_foreign(world, ctx, nb))
                        and (nb in goals or not (visible[nb] and boards(world, ut, nb)))
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
_OPEN, _BLOCKED, _ASK, _UNSET = 1, 2, 0, 3


_KNOWN_OPEN = {  # per way of moving: the known terrain (terrain + 1; 0 never seen) it may enter
    MovesOn.LAND: (0, LAND + 1),
    MovesOn.SEA: (0, WATER + 1),
    MovesOn.AIR: (0, LAND + 1, WATER + 1),
    MovesOn.LAND_AND_SEA: (0, LAND + 1, WATER + 1),
}


class _EntryStates:
    """Per square, as the nation knows it: open by terrain alone (`lut` of the known terrain),
    blocked by terrain, or to be asked (`may_enter`): cities and occupied squares in sight,
    remembered cities, ghosts and units shown (`asks`).

    `find_path` works a square out as the search first reaches it, from the world as it is
    during the search (which changes nothing): a search touches a few hundred squares, and
    the whole map at once cost more than most searches."""

    def __init__(self, world: World, ctx: MoveContext, ut: UnitType) -> None:
        self.state = bytearray([_UNSET]) * world.grid.size
        self.lut = _LUTS[ut.moves_on]
        self.known = ctx.known_bytes
        asks = set(world.city_memory.get(ctx.nation) or ())
        asks.update(ctx.sight.remembered_squares())  # a unit remembered there: a ghost?
        if world.reveals:  # units shown to the nation, wherever they are
            told = ctx.sight.informants
            for (nation, uid), until in world.reveals.items():
                if until >= world.tick and nation in told and uid in world.units:
                    asks.add(world.units[uid].sq)
        self.asks = asks


_FLOOD_AFTER = 2048  # squares a search takes before it asks whether a goal is reachable


def _reachable(
    world: World,
    ctx: MoveContext,
    unit: Unit,
    ut: UnitType,
    start: int,
    goals: set[int],
    entry: _EntryStates,
) -> bool:
    """Whether any goal is reachable from `start` through squares `find_path` would enter
    (whatever the cost): an unreachable goal makes A* take every square it can reach before
    it gives up, one at a time, while a flood over the whole map's arrays settles it at once.
    The squares to be asked are asked here as `find_path` would ask them (its answers kept)."""
    grid = world.grid
    size = grid.size
    state = entry.state
    current = np.frombuffer(bytes(state), dtype=np.uint8).copy()
    unset = current == _UNSET
    if unset.any():
        lut = np.frombuffer(entry.lut, dtype=np.uint8)
        first = lut[np.frombuffer(entry.known, dtype=np.uint8)]
        seen = np.frombuffer(ctx.visible_bytes, dtype=np.uint8) != 0
        ask = seen & (np.frombuffer(world.occupied, dtype=np.uint8) != 0)
        if world.cities:
            cities = np.fromiter(world.cities.keys(), dtype=np.int64, count=len(world.cities))
            ask[cities[seen[cities]]] = True
        if entry.asks:
            ask[np.fromiter(entry.asks, dtype=np.int64, count=len(entry.asks))] = True
        first[ask] = _ASK
        current[unset] = first[unset]
    visible = ctx.visible_bytes
    for sq in np.flatnonzero(current == _ASK).tolist():
        ok = (
            may_enter(world, ctx, unit, ut, sq)
            and (sq in goals or not _known_foreign(world, ctx, sq))
            and (sq in goals or not (visible[sq] and boards(world, ut, sq)))
        )
        current[sq] = state[sq] = _OPEN if ok else _BLOCKED
    open_flat = current == _OPEN
    open_flat[start] = True  # where it stands (a path through it starts there)
    passable = open_flat.reshape(grid.height, grid.width)

    def grow(area: np.ndarray) -> np.ndarray:
        """By a square in every direction (the map wraps), within the passable."""
        rows = area | np.roll(area, 1, 0) | np.roll(area, -1, 0)
        return (rows | np.roll(rows, 1, 1) | np.roll(rows, -1, 1)) & passable

    # Two floods in turn, one from where the unit stands and one from the goals it could
    # stand on: a step between two passable squares goes both ways, so they meet if and only
    # if a goal is reachable, and the first that stops growing without meeting the other has
    # taken its whole part of the map: no goal is reachable. A goal that cannot be reached
    # is most often in a small part of the map (an island, a pocket), taken in a few steps,
    # while the unit's part may be a continent.
    ahead = np.zeros((grid.height, grid.width), dtype=bool)
    ahead.flat[start] = True
    back = np.zeros(size, dtype=bool)
    back[list(goals)] = True
    floods = [ahead, back.reshape(grid.height, grid.width) & passable]
    counts = [1, int(np.count_nonzero(floods[1]))]
    if counts[1] == 0:
        return False  # no goal it could stand on
    while True:
        for side in (0, 1):
            grown = grow(floods[side])
            if (grown & floods[1 - side]).any():
                return True
            now = int(np.count_nonzero(grown))
            if now == counts[side]:
                return False
            floods[side], counts[side] = grown, now


_LUTS = {
    mode: bytes(_OPEN if v in _KNOWN_OPEN.get(mode, ()) else _BLOCKED for v in range(256))
    for mode in MovesOn
}


def _step_costs(world: World, ctx: MoveContext, ut: UnitType) -> bytes | None:
    """Cost of a step from each square (by supply there), or None when every step costs 1."""
    if ut.unit_class == UnitClass.AIR or not ut.needs_supply or ut.unit_class == UnitClass.TECH:
        return None
    return ctx.supply.step_costs(ut.unit_class, world.rules.supply.out_of_supply_step_cost)


def _known_foreign(world: World, ctx: MoveContext, sq: int) -> bool:
    """A foreign unit the nation knows of on the square: seen there now, or a ghost."""
    if _foreign_at(world, ctx, sq):
        return ctx.sight.sees_foreign_at(sq)
    # no unit outside the team there: a ghost, if anything
    if not world.sightings.get(ctx.nation):
        return False
    sight = ctx.sight
    # no memory of a foreign unit there: no ghost either (most squares of a route or a
    # search), without asking `ghosts_at` and the square's units
    if sight.sharers == ctx.team and not sight.remembers_at(sq):
        return False
    return sight.sees_foreign_at(sq)


def _foreign_at(world: World, ctx: MoveContext, sq: int) -> bool:
    """A unit outside the nation's team on the square (seen or not)."""
    code = world.owner_at[sq]
    if code == 0:
        return False  # no units
    if code != MIXED:  # all of one owner's (`World.owner_at`): no unit read
        return world.code_owner[code] not in ctx.team
    return any(world.units[i].owner not in ctx.team for i in world.at[sq])


StepHook = Callable[[World, Unit, int], list[ev.Event] | None]


@dataclass
class WalkResult:
    arrived: bool
    stopped: bool  # stopped early (blocked, intercepted, ...): the order is dropped
    events: list[ev.Event]
    rest: list[int] = field(default_factory=list)  # the route still ahead


_MAX_REPLANS = 32  # each one follows something new seen on the way, so this is a safety net


def walk(
    world: World,
    ctx: MoveContext,
    unit: Unit,
    path: list[int],
    *,
    hooks: tuple[StepHook, ...] = (),
    goal: int | None = None,
    approach: bool = False,
    budget: int | None = None,
) -> WalkResult:
    """Walk a path as far as mobility (and fuel) allow, spending at most `budget` mobility
    (ships sailing together: the pace of the slowest). Hooks run after each step and may
    stop the walk by returning events (interception, interdiction).

    Paths are planned on the map as the nation knows it, so a step may meet terrain or a city
    it could not see from afar: with a `goal` the unit plans again from where it stands, with
    what it sees now, and goes on (`approach`: to a square next to the goal). A foreign unit it
    bumps into stops it, and shows itself."""
    ut = world.rules.unit[unit.type]
    air = ut.unit_class == UnitClass.AIR
    out: list[ev.Event] = []
    if path:
        pick_up(world, unit)
    moved = False
    replans = 0
    path = list(path)
    i = 0
    left = unit.mobility if budget is None else min(budget, unit.mobility)
    while i < len(path):
        sq = path[i]
        cost = step_cost(world, ctx, ut, unit.sq)
        if left < cost:
            return WalkResult(False, False, out, path[i:])
        if air and ut.needs_fuel and unit.fuel < 1:
            return WalkResult(False, True, out, path[i:])
        foreign = _foreign_at(world, ctx, sq)
        blocked = foreign or not can_enter(world, ctx, unit, ut, sq)
        if blocked and not foreign and goal is not None and replans < _MAX_REPLANS:
            # what it saw on the way is remembered now (it would be at the end of the order),
            # so the new plan does not lead back through what it has already found
            world.sight_index.settle()
            ctx.invalidate_sight()  # it sees now what stands in the way
            again = plan_move(world, ctx, unit, goal, approach=approach)
            if again is not None:
                path, i, replans = again, 0, replans + 1
                continue
        if blocked:
            for other in world.units_at(sq):
                if other.owner not in ctx.team and other.carried_by is None:
                    out.extend(show(world, unit.owner, other))  # bumping into a unit shows it
            out.append(
                ev.MoveBlocked(
                    tick=world.tick,
                    to=[unit.owner],
                    nation=unit.owner,
                    unit=unit.id,
                    square=world.grid.label(unit.sq),
                    blocked_at=world.grid.label(sq),
                    cause=block_cause(world, ctx, unit, ut, sq, foreign=foreign),
                )
            )
            return WalkResult(False, True, out, [])
        unit.mobility -= cost
        left -= cost
        if air and ut.needs_fuel:
            unit.fuel -= 1
        world.move_unit(unit, sq)
        unit.carried_by = None  # stepped off whatever carried it (unseen inside it till now)
        moved = True
        i += 1
        for hook in hooks:
            stop = hook(world, unit, sq)
            if stop:
                out.extend(stop)
                if unit.id in world.units:
                    settle(world, unit)
                return WalkResult(False, True, out, [])
    if moved:
        settle(world, unit)
    if air:
        refuel(world, unit)
    return WalkResult(True, False, out, [])


def follow(
    world: World,
    ctx: MoveContext,
    unit: Unit,
    goal: int,
    path: list[int],
    *,
    hooks: tuple[StepHook, ...] = (),
    pace: int | None = None,
) -> WalkResult:
    """Walk towards `goal` along `path` (at most `pace` mobility); keep or drop the unit's
    standing order accordingly (it keeps its pace)."""
    result = walk(world, ctx, unit, path, hooks=hooks, goal=goal, budget=pace)
    if result.arrived or result.stopped:
        unit.set_order(None)
    else:
        unit.set_order(goal, result.rest, pace=pace)
    return result


def route_open(world: World, ctx: MoveContext, unit: Unit) -> bool:
    """Whether a standing order's remembered route is still open (terrain, cities, ships and
    foreign units the nation sees); if not, the route is planned anew."""
    route = unit.route
    if not route:
        return False
    ut = world.rules.unit[unit.type]
    goal = route[-1]
    # read at the route's squares only: the standing orders (`upkeep.run_orders`) walk an open
    # route at once and throw the context's maps away after the walk, or plan anew with the
    # world as it is now; the sight at all the squares at once (nothing changes here)
    for sq, seen in zip(route, ctx.sees_now(route), strict=True):
        if not may_enter(world, ctx, unit, ut, sq, seen=seen) or (
            sq != goal and _known_foreign(world, ctx, sq)
        ):
            return False
    return not (ut.unit_class == UnitClass.AIR and ut.needs_fuel and len(route) > unit.fuel)


def fleet_squares(
    world: World,
    ctx: MoveContext,
    ships: list[Unit],
    goal: int,
    *,
    rings: int,
    first_near: bool = False,
) -> dict[int, tuple[int, list[int]]] | int:
    """Where each ship of a fleet given one order sails, as the nation knows the sea: one
    ship a sea square, so the first takes `goal` (as a single ship would; with `first_near`
    it too may take the nearest free square) and each of the others the nearest square to it
    (within `rings`) it has a known way to; a port of the team holds them all. Returns ship
    id -> (its square, its path), or the id of a ship that finds no square."""
    grid = world.grid
    city = world.cities.get(goal)
    shared = city is not None and city.owner in ctx.team  # a port: several ships lie there
    near = sorted(grid.within(goal, rings), key=lambda sq: (grid.distance(sq, goal), sq))
    taken: set[int] = set()
    out: dict[int, tuple[int, list[int]]] = {}
    for i, ship in enumerate(ships):
        ut = world.rules.unit[ship.type]
        tries = [goal] if (i == 0 and not first_near) or shared else near
        attempts = 0
        for sq in tries:
            if sq in taken:
                continue
            if sq == ship.sq:
                path: list[int] | None = []
            elif not may_enter(world, ctx, ship, ut, sq) or _known_foreign(world, ctx, sq):
                continue
            else:
                attempts += 1
                path = plan_move(world, ctx, ship, sq)
            if path is not None:
                out[ship.id] = (sq, path)
                if not shared:
                    taken.add(sq)
                break
            if attempts >= _FLEET_TRIES:
                break
        if ship.id not in out:
            return ship.id
    return out


_FLEET_TRIES = 6  # paths a ship of a fleet plans at most to find its square


def refuel(world: World, unit: Unit) -> None:
    ut = world.rules.unit[unit.type]
    if ut.unit_class != UnitClass.AIR:
        return
    if (not ut.needs_fuel or unit.fuel == ut.full_fuel) and (not ut.ammo or unit.ammo == ut.ammo):
        return  # nothing to fill (most aircraft at rest): where it stands does not matter
    if can_refuel_at(world, unit, unit.sq):
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
