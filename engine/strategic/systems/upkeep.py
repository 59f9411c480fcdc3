"""The 4-hourly unit update: mobility, healing, then standing move orders (free of CP)."""

from __future__ import annotations

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitClass
from engine.strategic.systems.interception import Interception
from engine.strategic.systems.interdiction import Interdiction
from engine.strategic.systems.movement import MoveContext, follow, plan_move, refuel, route_open
from engine.strategic.systems.strike import run_queued
from engine.strategic.systems.supply import SupplyMap, can_refuel_at
from engine.strategic.world import Unit, World


def heal_amount(world: World, unit: Unit, supply: SupplyMap) -> int:
    rules = world.rules
    ut = rules.unit[unit.type]
    healing = rules.healing
    city = world.cities.get(unit.sq)
    if city is not None and city.owner in world.team(unit.owner):
        pct, cap = healing.in_city_percent, 100
    else:
        if ut.unit_class == UnitClass.AIR:
            supplied = can_refuel_at(world, unit, unit.sq)
        else:
            supplied = (
                not ut.needs_supply
                or ut.unit_class == UnitClass.TECH
                or supply.square_supplied(ut.unit_class, unit.sq)
            )
        if not supplied:
            return 0
        pct, cap = healing.in_supply_percent, healing.in_supply_cap_percent
    ceiling = ut.hp * cap // 100
    if unit.hp >= ceiling:
        return 0
    gain = max(1, ut.hp * pct // 100)
    return min(gain, ceiling - unit.hp)


def due_units(world: World) -> list[Unit]:
    """Units whose 4-hourly update falls on this tick: every period counted from when each was
    built (as in the original game), which also spreads the work evenly over the ticks."""
    bucket = world.phases.get(world.tick % world.rules.ticks_per_unit_update)
    if not bucket:
        return []
    return [world.units[uid] for uid in sorted(bucket) if world.units[uid].born < world.tick]


def unit_update(world: World) -> list[ev.Event]:
    rules = world.rules
    cap = rules.mobility.cap_multiple
    supplies: dict[str, SupplyMap] = {}
    due = due_units(world)
    air = UnitClass.AIR
    for unit in due:
        ut = rules.unit[unit.type]
        unit.mobility = min(ut.mobility * cap, unit.mobility + ut.mobility)
        if ut.unit_class is air:
            refuel(world, unit)  # where it may refuel (airport, carrier...): ammo and fuel full
        if unit.hp >= ut.hp:
            continue
        supply = supplies.get(unit.owner)
        if supply is None:
            supply = supplies[unit.owner] = SupplyMap(world, unit.owner)
        gain = heal_amount(world, unit, supply)
        if gain:
            unit.hp += gain
    return run_orders(world, [u.id for u in due if u.order is not None])


def run_orders(world: World, unit_ids: list[int]) -> list[ev.Event]:
    out: list[ev.Event] = []
    contexts: dict[str, MoveContext] = {}
    for uid in unit_ids:
        unit = world.units.get(uid)
        if unit is None or unit.order is None:
            continue
        ctx = contexts.get(unit.owner)
        if ctx is None:
            ctx = contexts[unit.owner] = MoveContext(world, unit.owner)
        if unit.strike:  # an attack queued: made once in range
            out.extend(run_queued(world, ctx, unit))
            ctx.invalidate_sight()
            continue
        target = unit.order
        path = unit.route if route_open(world, ctx, unit) else plan_move(world, ctx, unit, target)
        label = world.grid.label(target)
        if path is None:
            unit.set_order(None)
            out.append(
                ev.OrderCancelled(
                    tick=world.tick,
                    to=[unit.owner],
                    nation=unit.owner,
                    unit=unit.id,
                    square=label,
                    reason="no way there any more",
                )
            )
            continue
        result = follow(
            world,
            ctx,
            unit,
            target,
            path,
            hooks=(Interception(world), Interdiction(world)),
            pace=unit.pace,
        )
        out.extend(result.events)
        ctx.invalidate_sight()
        if result.arrived:
            out.append(
                ev.OrderCompleted(
                    tick=world.tick, to=[unit.owner], nation=unit.owner, unit=unit.id, square=label
                )
            )
    return out
