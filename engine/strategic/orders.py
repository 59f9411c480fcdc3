"""`apply(world, nation, command) -> events`: validate a command completely, then carry it out.

Every handler first checks everything (ownership, rules, command points) and raises
`CommandError` with a reason the nation may read; only then does it change the world.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import CommandError
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.rules.models import MovesOn, UnitType
from engine.strategic.systems import (
    cession,
    combat,
    diplomacy,
    economy,
    icbm_parts,
    launch,
    strike,
    transport,
    wasteland,
)
from engine.strategic.systems.endgame import collapse, eliminate
from engine.strategic.systems.interception import Interception
from engine.strategic.systems.interdiction import Interdiction
from engine.strategic.systems.movement import (
    MoveContext,
    fleet_squares,
    follow,
    is_ship,
    path_cost,
    plan_move,
    walk,
)
from engine.strategic.systems.sight import Knowledge, Sight, show
from engine.strategic.words import article
from engine.strategic.world import LAND, WATER, City, Unit, World


def apply(world: World, nation: str, command: cmd.Command) -> list[ev.Event]:
    if nation not in world.nations:
        raise CommandError(f"there is no nation {nation!r} in this game")
    if world.ended:
        raise CommandError("the game is over")
    if not world.started:
        raise CommandError("the game has not started yet")
    if world.nations[nation].out:
        raise CommandError("your nation is out of the game")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise CommandError(f"unknown command {command.kind!r}")
    before = world.nations[nation].cp
    events = handler(world, nation, command)
    spent = before - world.nations[nation].cp
    if spent > 0:
        events.append(
            ev.PointsSpent(
                tick=world.tick,
                to=[nation],
                nation=nation,
                spent=spent,
                left=world.nations[nation].cp,
            )
        )
    events += eliminate(world)
    world.sight_index.settle()
    return events


# --- helpers ------------------------------------------------------------------------------


def _square(world: World, xy: tuple[int, int]) -> int:
    x, y = xy
    if not (0 <= x < world.width and 0 <= y < world.height):
        raise CommandError(
            f"{x},{y} is off the map (x 0-{world.width - 1}, y 0-{world.height - 1})"
        )
    return world.grid.index(x, y)


def _own_city(world: World, nation: str, xy: tuple[int, int]) -> City:
    sq = _square(world, xy)
    city = world.cities.get(sq)
    if city is None or city.owner != nation:
        raise CommandError(f"you have no city at {xy[0]},{xy[1]}")
    return city


def _own_unit(world: World, nation: str, uid: int) -> Unit:
    unit = world.units.get(uid)
    if unit is None or unit.owner != nation:
        raise CommandError(f"you have no unit {uid}")
    return unit


def _unit_type(world: World, name: str) -> UnitType:
    ut = world.rules.unit.get(name)
    if ut is None:
        known = ", ".join(u.name for u in world.rules.units)
        raise CommandError(f"there is no unit type {name!r} in this ruleset ({known})")
    return ut


def _charge(world: World, nation: str, cost: int, what: str) -> None:
    """Check that the nation can pay (call before changing anything)."""
    have = world.nations[nation].cp
    if have < cost:
        raise CommandError(f"{what} costs {cost} command points; you have {have}")


def _pay(world: World, nation: str, cost: int) -> None:
    world.nations[nation].cp -= cost


def _check_buildable(
    world: World, nation: str, city: City, ut: UnitType, *, tech_margin: int
) -> None:
    rules = world.rules
    ct = rules.city[ut.built_in]
    if not ct.builds_units:
        raise CommandError(f"{ut.title} is not built in cities")
    if ct.needs_coast and not world.is_coastal(city.sq):
        raise CommandError(
            f"{ut.title} is built in a {ct.title.lower()}, and only a city next to water can be one"
        )
    tech = world.nations[nation].tech
    if ut.tech > tech + tech_margin:
        if tech_margin == 0:
            raise CommandError(f"{ut.title} needs tech {ut.tech}; your tech is {tech:.2f}")
        raise CommandError(
            f"{ut.title} needs tech {ut.tech}; a next build may need up to {tech_margin} more "
            f"than your tech, which is {tech:.2f}"
        )


# --- city orders ------------------------------------------------------------------------------


def _set_build(world: World, nation: str, c: cmd.SetBuild) -> list[ev.Event]:
    city = _own_city(world, nation, c.city)
    ut = _unit_type(world, c.unit)
    _check_buildable(world, nation, city, ut, tech_margin=0)
    if city.build == ut.name:
        raise CommandError(f"this city is already building {ut.title}")
    cost = world.rules.command_points.costs.city_orders
    _charge(world, nation, cost, "a city order")
    economy.set_build(world, city, ut)
    _pay(world, nation, cost)
    return [economy.city_changed(world, city)]


def _set_next_build(world: World, nation: str, c: cmd.SetNextBuild) -> list[ev.Event]:
    city = _own_city(world, nation, c.city)
    if c.unit is not None:
        ut = _unit_type(world, c.unit)
        _check_buildable(world, nation, city, ut, tech_margin=world.rules.tech.next_build_margin)
    cost = world.rules.command_points.costs.city_orders
    _charge(world, nation, cost, "a city order")
    city.next_build = c.unit
    _pay(world, nation, cost)
    return [economy.city_changed(world, city)]


def _set_waypoint(world: World, nation: str, c: cmd.SetWaypoint) -> list[ev.Event]:
    city = _own_city(world, nation, c.city)
    if c.to is None:
        if city.waypoint is None:
            raise CommandError(f"the city at {c.city[0]},{c.city[1]} has no waypoint")
        goal = None
    else:
        goal = _square(world, c.to)  # any square: what lies there is the nation's to find out
        if goal == city.sq:
            raise CommandError("a waypoint is a square away from the city")
        if goal == city.waypoint:
            raise CommandError(f"the city at {c.city[0]},{c.city[1]} sends its units there already")
    cost = world.rules.command_points.costs.city_orders
    _charge(world, nation, cost, "a city order")
    city.waypoint = goal
    _pay(world, nation, cost)
    return []


def _designate(world: World, nation: str, c: cmd.Designate) -> list[ev.Event]:
    rules = world.rules
    city = _own_city(world, nation, c.city)
    ct = rules.city.get(c.designation)
    if ct is None:
        raise CommandError(
            f"a city can be {', '.join(n for n, t in rules.city.items() if t.designatable)}; not {c.designation!r}"
        )
    if not ct.designatable:
        how = [u.title for u in rules.units if u.becomes == ct.name]
        hint = f" (build {how[0]} to make one)" if how else ""
        raise CommandError(f"a city cannot be designated {ct.title.lower()} directly{hint}")
    if ct.needs_coast and not world.is_coastal(city.sq):
        raise CommandError(f"only a city next to water can be a {ct.title.lower()}")
    if city.designation == ct.name:
        raise CommandError(f"this city is already a {ct.title.lower()}")
    # With nothing the tech allows yet, the city holds the designation and builds nothing.
    build = economy.default_build(world, ct.name, world.nations[nation].tech)
    cost = rules.command_points.costs.city_orders
    _charge(world, nation, cost, "a city order")
    city.designation = ct.name
    economy.set_build(world, city, rules.unit[build] if build else None)
    world.cities_changed(city.owner)  # it sees and supplies as its new designation does
    _pay(world, nation, cost)
    return [economy.city_changed(world, city)]


# --- moves --------------------------------------------------------------------------------------


def _move(world: World, nation: str, c: cmd.Move) -> list[ev.Event]:
    goal = _square(world, c.to)
    if len(set(c.units)) != len(c.units):
        raise CommandError("a unit is listed twice")
    units = [_own_unit(world, nation, uid) for uid in c.units]
    rules = world.rules
    ships = [u for u in units if is_ship(rules.unit[u.type]) and u.carried_by is None]
    fleet = {s.id for s in ships} if len(ships) > 1 else set()
    ctx = MoveContext(world, nation)
    plans: list[tuple[Unit, list[int]]] = []
    goals: dict[int, int] = {}  # a fleet's ships: each its own sea square near the goal
    for unit in units:
        ut = rules.unit[unit.type]
        if ut.moves_on == MovesOn.NONE:
            raise CommandError(f"unit {unit.id} ({ut.title}) does not move; it is launched")
        if unit.sq == goal and unit.id not in fleet:
            raise CommandError(f"unit {unit.id} ({ut.title}) is already at {c.to[0]},{c.to[1]}")
        if unit.id in fleet:
            continue
        path = plan_move(world, ctx, unit, goal)
        if path is None:
            raise CommandError(_no_path_reason(world, unit, ut, goal, c.to))
        plans.append((unit, path))
    pace = None
    if fleet:
        squares = _fleet(world, ctx, ships, goal, c.to)
        for ship in ships:
            goals[ship.id], path = squares[ship.id]
            plans.append((ship, path))
        # they sail together, at the pace of the slowest: now, as far as the slowest can go;
        # at their updates, as far as the slowest gains
        pace = min(rules.unit[s.type].mobility for s in ships)
    cost = rules.command_points.costs.move
    _charge(world, nation, cost, "a move")
    _pay(world, nation, cost)
    out: list[ev.Event] = []
    arrived: list[int] = []
    ordered: list[int] = []
    hooks = (Interception(world), Interdiction(world))
    now = min((s.mobility for s in ships), default=0)
    listed = {uid: i for i, uid in enumerate(c.units)}
    plans.sort(key=lambda p: listed[p[0].id])  # as listed (the goal's ship first)
    for unit, path in _escorts_first(world, plans):
        if unit.id not in world.units:
            continue
        if unit.id in goals:
            unit.set_order(None)
            result = walk(world, ctx, unit, path, hooks=hooks, goal=goals[unit.id], budget=now)
            if result.arrived or result.stopped:
                unit.set_order(None)
            else:
                unit.set_order(goals[unit.id], result.rest, pace=pace)
        else:
            result = follow(world, ctx, unit, goal, path, hooks=hooks)
        out.extend(result.events)
        ctx.invalidate_sight()
        if result.arrived:
            arrived.append(unit.id)
        elif unit.order is not None:
            ordered.append(unit.id)
    out.insert(
        0,
        ev.UnitsMoved(
            tick=world.tick,
            to=[nation],
            nation=nation,
            units=list(c.units),
            to_square=world.grid.label(goal),
            arrived=arrived,
            ordered=ordered,
        ),
    )
    return out


def _fleet(
    world: World, ctx: MoveContext, ships: list[Unit], goal: int, xy: tuple[int, int]
) -> dict[int, tuple[int, list[int]]]:
    """Each ship's square and path near the goal (one ship a sea square), or why not."""
    rules = world.rules
    rings = 1  # as few as the fleet needs (a square for each ship and as many to spare)
    while (2 * rings + 1) ** 2 < 2 * len(ships) and rings < rules.mobility.fleet_spread:
        rings += 1
    ships = sorted(ships, key=lambda s: s.sq != goal)  # one there already keeps the goal
    found = fleet_squares(world, ctx, ships, goal, rings=rings)
    if isinstance(found, int):
        ship = world.units[found]
        ut = rules.unit[ship.type]
        if found == ships[0].id:  # the goal itself: as for a ship sailing alone
            raise CommandError(_no_path_reason(world, ship, ut, goal, xy))
        raise CommandError(
            f"unit {ship.id} ({ut.title}) finds no sea square it knows a way to within {rings} "
            f"of {xy[0]},{xy[1]} (one ship a sea square): send fewer ships there"
        )
    return found


def _escorts_first(
    world: World, plans: list[tuple[Unit, list[int]]]
) -> list[tuple[Unit, list[int]]]:
    """Fighters fly first, so they meet the interceptors before the bombers behind them."""
    rules = world.rules
    return sorted(plans, key=lambda p: not rules.unit[p[0].type].intercepts)


def _no_path_reason(world: World, unit: Unit, ut: UnitType, goal: int, xy: tuple[int, int]) -> str:
    """Why a move has no path, in terms of what the nation knows: a square it never saw and
    does not see now gets no reason at all (its terrain and city stay hidden)."""
    where = f"{xy[0]},{xy[1]}"
    name = f"unit {unit.id} ({ut.title})"
    distance = world.grid.distance(unit.sq, goal)
    if ut.needs_fuel and distance > unit.fuel:
        return f"{name} has fuel for {unit.fuel} squares; {where} is {distance} away"
    known = Knowledge(world, unit.owner)
    terrain = known.terrain(goal)
    if terrain is None:
        return f"{name} has no known way to {where}"
    there = known.foreign_unit_at(goal)
    if there is not None:
        owner, type_name = there
        title = world.rules.unit[type_name].title.lower()
        hint = "; attack it with /attack" if combat.at_war(world, unit.owner, owner) else ""
        return (
            f"{name} cannot move onto {where}: {world.nations[owner].name}'s {title} is there "
            f"as far as you know{hint}"
        )
    city_owner = known.city_owner(goal)
    if city_owner is not False and city_owner not in world.team(unit.owner):
        return f"{name} cannot move into the city at {where}; cities are taken by capture"
    if ut.moves_on == MovesOn.SEA and terrain == LAND and city_owner is False:
        return f"{name} sails on water, and {where} is land"
    if ut.moves_on == MovesOn.LAND and terrain == WATER and city_owner is False:
        return f"{name} moves on land, and {where} is water"
    return f"{name} has no known way to {where}"


def _attack(world: World, nation: str, c: cmd.Attack) -> list[ev.Event]:
    rules = world.rules
    target = _square(world, c.target)
    where = f"{c.target[0]},{c.target[1]}"
    if len(set(c.units)) != len(c.units):
        raise CommandError("a unit is listed twice")
    units = [_own_unit(world, nation, uid) for uid in c.units]
    known = strike.known_target(world, nation, target)
    if isinstance(known, str):
        raise CommandError(known)
    capture = known.capture
    ctx = MoveContext(world, nation)
    plans: list[tuple[Unit, list[int]]] = []
    queued: set[int] = set()  # short of mobility now: they go on, and attack once in range
    for unit in units:
        ut = rules.unit[unit.type]
        name = f"unit {unit.id} ({ut.title})"
        if unit.carried_by is not None and not (
            capture and world.grid.distance(unit.sq, target) == 1
        ):
            raise CommandError(
                f"{name} is being carried (carried units only take an empty city next to them)"
            )
        if ut.moves_on == MovesOn.NONE:
            raise CommandError(f"{name} does not fight; it is launched")
        why = strike.can_attack(world, unit, known, target)
        if why is not None:
            raise CommandError(why)
        path = plan_move(world, ctx, unit, target, approach=True)
        if path is None:
            raise CommandError(f"{name} has no known way to get next to {where}")
        need = path_cost(world, ctx, unit, path) + 1
        if unit.mobility < need:
            if not c.queue:
                raise CommandError(
                    f"{name} needs {need} mobility to reach {where} and attack; it has "
                    f"{unit.mobility} (queue:true: it goes on and attacks once in range)"
                )
            queued.add(unit.id)
        plans.append((unit, path))
    cost = rules.command_points.costs.capture if capture else rules.command_points.costs.attack
    _charge(world, nation, cost, "taking a city" if capture else "an attack")
    _pay(world, nation, cost)
    out: list[ev.Event] = []
    hooks = (Interception(world), Interdiction(world))
    together: list[Unit] = []  # seed 002: those next to a defended square fight one battle
    # ships attacking together each take a square of their own next to the target (a ship
    # that finds its square taken on the way plans again to another)
    for unit, path in _escorts_first(world, plans):
        if unit.id not in world.units:
            continue
        if unit.id in queued:  # as far as it can now; the rest at its updates
            unit.set_order(None)
            if path:
                result = walk(world, ctx, unit, path, hooks=hooks, goal=target, approach=True)
                out.extend(result.events)
                ctx.invalidate_sight()
                if unit.id not in world.units or result.stopped:
                    continue
                unit.set_order(target, result.rest, strike=True)
            else:
                unit.set_order(target, [], strike=True)
            continue
        city_now = world.cities.get(target)
        if capture and (city_now is None or city_now.owner == nation):
            break  # taken already by an earlier unit of this command (or gone, devastated)
        if path:
            result = walk(world, ctx, unit, path, hooks=hooks, goal=target, approach=True)
            out.extend(result.events)
            ctx.invalidate_sight()
            unit.set_order(None)
            if unit.id not in world.units or not result.arrived:
                continue
        if world.grid.distance(unit.sq, target) != 1:
            continue
        if rules.battle is not None and combat.defenders_at(world, nation, target):
            together.append(unit)
            continue
        events, given_up, capture = strike.strike(
            world, unit, target, capture=capture, moved=bool(path)
        )
        out.extend(events)
        if given_up:
            break
    if together:
        out.extend(strike.fight(world, together, target))
    return out


def _relation(world: World, nation: str, c: cmd.SetRelation) -> list[ev.Event]:
    cost = world.rules.command_points.costs.diplomacy
    _charge(world, nation, cost, "diplomacy")
    out = diplomacy.set_relation(world, nation, c.other, c.level)
    _pay(world, nation, cost)
    return out


def _launch(world: World, nation: str, c: cmd.Launch) -> list[ev.Event]:
    rules = world.rules
    unit = _own_unit(world, nation, c.unit)
    ut = rules.unit[unit.type]
    target = _square(world, c.target)
    name = f"unit {unit.id} ({ut.title})"
    if not ut.launchable:
        raise CommandError(f"{name} cannot be launched")
    if ut.icbm_part is not None and rules.icbm is not None:
        return _launch_parts(world, nation, unit, target)
    if not launch.can_launch_from(world, unit):
        raise CommandError(
            f"{name} is launched from a {rules.city[ut.built_in].title.lower()} of yours or from what carries it"
        )
    distance = world.grid.distance(unit.sq, target)
    if distance > unit.mobility:
        raise CommandError(
            f"{name} reaches {unit.mobility} squares; {c.target[0]},{c.target[1]} is {distance} away"
        )
    icbm = ut.blast_radius is not None
    cost = (
        rules.command_points.costs.launch_icbm
        if icbm
        else rules.command_points.costs.launch_satellite
    )
    _charge(world, nation, cost, "launching an ICBM" if icbm else "launching a satellite")
    _pay(world, nation, cost)
    if icbm:
        return launch.launch_icbm(world, unit, target)
    return launch.launch_satellite(world, unit, target)


def _launch_parts(world: World, nation: str, unit: Unit, target: int) -> list[ev.Event]:
    """A two-part ICBM (ruleset total-war): the part named and the best ready part of the other
    kind beside it, in a city of the nation, at any square."""
    rules = world.rules
    ut = rules.unit[unit.type]
    name = f"unit {unit.id} ({ut.title})"
    city = world.cities.get(unit.sq)
    if unit.carried_by is not None or city is None or city.owner != nation:
        raise CommandError(f"{name} launches standing in a city of yours, not carried")
    other = "warhead" if ut.icbm_part == "base" else "missile base"
    found = icbm_parts.partners(world, unit)
    if not found:
        raise CommandError(
            f"a launch needs a missile base and a warhead in the same city; "
            f"you have no {other} at {world.grid.label(unit.sq)}"
        )
    why = icbm_parts.not_ready(world, unit)
    if why is not None:
        raise CommandError(why)
    ready = [u for u in found if icbm_parts.not_ready(world, u) is None]
    if not ready:
        raise CommandError(str(icbm_parts.not_ready(world, found[0])))
    cost = rules.command_points.costs.launch_icbm
    _charge(world, nation, cost, "launching an ICBM")
    _pay(world, nation, cost)
    base, warhead = (unit, ready[0]) if ut.icbm_part == "base" else (ready[0], unit)
    out = icbm_parts.launch(world, base, warhead, target)
    if wasteland.collapsed(world):
        out.extend(collapse(world))
    return out


def _invest(world: World, nation: str, c: cmd.Invest) -> list[ev.Event]:
    city = _own_city(world, nation, c.city)
    restore = wasteland.check_invest(world, city, c.points)
    _charge(world, nation, restore * world.rules.wastelands.invest_points, "this investment")  # type: ignore[union-attr]
    return wasteland.invest(world, nation, city, restore)


def _board(world: World, nation: str, c: cmd.Board) -> list[ev.Event]:
    carrier = _own_unit(world, nation, c.carrier)
    rules = world.rules
    ct = rules.unit[carrier.type]
    if ct.capacity <= 0:
        raise CommandError(f"unit {carrier.id} ({ct.title}) carries nothing")
    if len(set(c.units)) != len(c.units) or carrier.id in c.units:
        raise CommandError("list each unit once, and not the carrier itself")
    units = [_own_unit(world, nation, uid) for uid in c.units]
    weight = transport.load(world, carrier)
    for unit in units:
        ut = rules.unit[unit.type]
        name = f"unit {unit.id} ({ut.title})"
        if unit.sq != carrier.sq:
            raise CommandError(f"{name} is not on the square of unit {carrier.id}")
        if unit.carried_by is not None:
            raise CommandError(f"{name} is already aboard unit {unit.carried_by}")
        if not transport.can_carry(world, carrier, unit):
            raise CommandError(f"{article(ct.title)} cannot carry {article(ut.title)}")
        weight += ut.weight
    if weight > ct.capacity:
        raise CommandError(f"a {ct.title} carries {ct.capacity}; that would be {weight}")
    for unit in units:
        unit.carried_by = carrier.id
    return []


def _cancel_orders(world: World, nation: str, c: cmd.CancelOrders) -> list[ev.Event]:
    units = [_own_unit(world, nation, uid) for uid in c.units]
    if not any(u.order is not None for u in units):
        raise CommandError("none of these units has a standing order")
    for unit in units:
        unit.set_order(None)
    return []


# --- engineers ------------------------------------------------------------------------------------


def _engineer(world: World, nation: str, uid: int, flag: str, what: str) -> tuple[Unit, UnitType]:
    unit = _own_unit(world, nation, uid)
    ut = world.rules.unit[unit.type]
    if not getattr(ut, flag):
        raise CommandError(f"unit {unit.id} ({ut.title}) cannot {what}; engineers can")
    if unit.carried_by is not None:
        raise CommandError(f"unit {unit.id} ({ut.title}) is being carried")
    return unit, ut


def _build_city(world: World, nation: str, c: cmd.BuildCity) -> list[ev.Event]:
    rules = world.rules
    unit, ut = _engineer(world, nation, c.unit, "builds_cities", "build cities")
    sq = unit.sq
    where = world.grid.label(sq)
    if sq in world.cities:
        raise CommandError(f"there is already a city at {where}")
    if sq in world.wastelands:
        raise CommandError(f"{where} is a wasteland; nothing can be founded there")
    if world.is_water(sq):
        if not rules.engineer.build_city_on_water:
            raise CommandError("a new city must be founded on land")
        if not any(
            world.terrain[n] == LAND or n in world.cities for n in world.grid.neighbours(sq)
        ):
            raise CommandError("a city on water must be next to land")
    for n in world.grid.neighbours(sq):
        other = world.cities.get(n)
        if other is None or other.owner is None or other.owner == nation:
            continue
        if (
            rules.engineer.city_blocked_by == "other_player"
            or world.relation(nation, other.owner) == rules.diplomacy.war
        ):
            who = (
                "another nation's"
                if rules.engineer.city_blocked_by == "other_player"
                else "an enemy"
            )
            raise CommandError(f"a new city may not be next to {who} city ({world.grid.label(n)})")
    need = rules.engineer.build_city_mobility
    if unit.mobility < need:
        raise CommandError(
            f"founding a city takes {need} mobility; unit {unit.id} has {unit.mobility}"
        )
    cost = rules.command_points.costs.build_city
    _charge(world, nation, cost, "founding a city")
    _pay(world, nation, cost)
    unit.mobility -= need
    world.terrain[sq] = LAND
    designation = rules.capture.new_designation
    world.cities[sq] = City(
        sq=sq,
        owner=nation,
        designation=designation,
        build=economy.default_build(world, designation, world.nations[nation].tech),
    )
    world.map_changed()
    return [ev.CityFounded(tick=world.tick, to=[nation], nation=nation, city=where)]


def _switch_terrain(world: World, nation: str, c: cmd.SwitchTerrain) -> list[ev.Event]:
    rules = world.rules
    unit, ut = _engineer(world, nation, c.unit, "switches_terrain", "switch terrain")
    sq = unit.sq
    where = world.grid.label(sq)
    if sq in world.cities:
        raise CommandError("a city's square cannot be switched")
    others = [u for u in world.units_at(sq) if not rules.unit[u.type].switches_terrain]
    # the refusal counts only what the nation sees there (a hidden sub is found below)
    sight = Sight(world, nation)
    hidden = [u for u in others if u.carried_by is None and not sight.sees_unit(u)]
    if any(u not in hidden and u.carried_by not in {h.id for h in hidden} for u in others):
        raise CommandError(f"only engineers may be on a square being switched ({where})")
    neighbours = world.grid.neighbours(sq)
    if world.is_land(sq):
        if not any(world.terrain[n] == WATER and n not in world.cities for n in neighbours):
            raise CommandError("water can only be made next to water")
        new, name = WATER, "water"
    else:
        if not any(world.terrain[n] == LAND for n in neighbours):
            raise CommandError("land can only be made next to land")
        new, name = LAND, "land"
    need = rules.engineer.switch_terrain_mobility
    if unit.mobility < need:
        raise CommandError(
            f"switching terrain takes {need} mobility; unit {unit.id} has {unit.mobility}"
        )
    cost = rules.command_points.costs.switch_terrain
    _charge(world, nation, cost, "switching terrain")
    if hidden:
        # the engineer finds what it could not see (as a move bumping into it): shown to the
        # nation, nothing switched, nothing spent
        found: list[ev.Event] = []
        for other in hidden:
            found.extend(show(world, nation, other))
        return found
    _pay(world, nation, cost)
    unit.mobility -= need
    world.terrain[sq] = new
    world.map_changed()
    return [
        ev.TerrainSwitched(tick=world.tick, to=[nation], nation=nation, square=where, terrain=name)
    ]


# --- disband and cede ---------------------------------------------------------------------------


def _listed_units(world: World, nation: str, ids: list[int]) -> list[Unit]:
    if len(set(ids)) != len(ids):
        raise CommandError("a unit is listed twice")
    return [_own_unit(world, nation, uid) for uid in ids]


def _disband(world: World, nation: str, c: cmd.Disband) -> list[ev.Event]:
    units = _listed_units(world, nation, c.units)
    cession.check_disband(world, units)
    cost = world.rules.command_points.costs.disband
    _charge(world, nation, cost, "disbanding")
    _pay(world, nation, cost)
    return cession.disband(world, nation, units)


def _cede_units(world: World, nation: str, c: cmd.CedeUnits) -> list[ev.Event]:
    cession.check_receiver(world, nation, c.receiver)
    units = cession.check_cede_units(world, c.receiver, _listed_units(world, nation, c.units))
    cost = world.rules.command_points.costs.cede
    _charge(world, nation, cost, "ceding")
    _pay(world, nation, cost)
    return cession.cede_units(world, nation, c.receiver, units)


def _cede_city(world: World, nation: str, c: cmd.CedeCity) -> list[ev.Event]:
    city = _own_city(world, nation, c.city)
    cession.check_receiver(world, nation, c.receiver)
    cession.check_cede_city(world, c.receiver, city)
    cost = world.rules.command_points.costs.cede
    _charge(world, nation, cost, "ceding")
    _pay(world, nation, cost)
    return cession.cede_city(world, nation, c.receiver, city)


Handler = Callable[[World, str, cmd.Command], list[ev.Event]]

_HANDLERS: dict[type, Handler] = {
    cmd.SetBuild: _set_build,  # type: ignore[dict-item]
    cmd.SetNextBuild: _set_next_build,  # type: ignore[dict-item]
    cmd.Designate: _designate,  # type: ignore[dict-item]
    cmd.SetWaypoint: _set_waypoint,  # type: ignore[dict-item]
    cmd.Move: _move,  # type: ignore[dict-item]
    cmd.Attack: _attack,  # type: ignore[dict-item]
    cmd.SetRelation: _relation,  # type: ignore[dict-item]
    cmd.CancelOrders: _cancel_orders,  # type: ignore[dict-item]
    cmd.Board: _board,  # type: ignore[dict-item]
    cmd.Launch: _launch,  # type: ignore[dict-item]
    cmd.BuildCity: _build_city,  # type: ignore[dict-item]
    cmd.SwitchTerrain: _switch_terrain,  # type: ignore[dict-item]
    cmd.Disband: _disband,  # type: ignore[dict-item]
    cmd.CedeUnits: _cede_units,  # type: ignore[dict-item]
    cmd.CedeCity: _cede_city,  # type: ignore[dict-item]
    cmd.Invest: _invest,  # type: ignore[dict-item]
}
