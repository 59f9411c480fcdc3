"""Attacks: what a nation knows it may attack on a square, one unit's attack once it stands
next to it, and attacks queued on units ("attack when in range"), carried out at their updates.

Everything here is decided on what the attacking nation knows: the units it sees on the square
now, else those it remembers there (ghosts), else a city as it knows it. A queued attack whose
target is no longer known there is cancelled, with a reason that tells nothing the nation does
not see.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitClass, UnitType
from engine.strategic.systems import battle, combat
from engine.strategic.systems.interception import Interception
from engine.strategic.systems.interdiction import Interdiction
from engine.strategic.systems.movement import MoveContext, path_cost, plan_move, walk
from engine.strategic.systems.sight import Knowledge, Sight
from engine.strategic.world import Unit, World


@dataclass(frozen=True)
class Target:
    """What the nation knows it may attack on a square: hostile units (their types), or a city
    to take (`capture`)."""

    capture: bool
    types: list[UnitType]


def known_target(world: World, nation: str, sq: int) -> Target | str:
    """The target as the nation knows it, or why there is none (a sentence it may read)."""
    rules = world.rules
    where = world.grid.label(sq)
    team = world.team(nation)
    sight = Sight(world, nation)
    # what the nation knows is there: units it sees now, else those it remembers there
    seen = [
        (u.owner, u.type)
        for u in world.units_at(sq)
        if u.owner not in team and u.carried_by is None and sight.sees_unit(u)
    ] or [(g.owner, g.type) for g in sight.ghosts_at(sq)]
    if seen:
        hostile = [(o, t) for o, t in seen if combat.at_war(world, nation, o)]
        if not hostile:
            return not_at_war(world, nation, seen[0][0])
        return Target(False, [rules.unit[t] for _, t in hostile])
    # a city as the nation knows it: seen now, or remembered (its owner as last seen)
    owner = Knowledge(world, nation).city_owner(sq)
    if owner is False or owner in team:
        return f"you see nothing to attack at {where}"
    if owner is not None and not combat.at_war(world, nation, owner):
        return not_at_war(world, nation, owner)
    return Target(True, [])


def not_at_war(world: World, nation: str, other: str) -> str:
    """Why the nation may not attack `other` yet: its war declared with notice starts later,
    or it has declared none."""
    name = world.nations[other].name
    war = world.rules.diplomacy.war
    due = [
        p.due_tick for p in world.pending if (p.nation, p.other, p.level) == (nation, other, war)
    ]
    if due:
        return f"your war on {name} starts at {world.rules.clock(min(due))}; attack then"
    return f"you are not at war with {name}; declare war first"


def can_attack(world: World, unit: Unit, target: Target, sq: int) -> str | None:
    """Why this unit cannot attack the target (None: it can), as in an attack order."""
    ut = world.rules.unit[unit.type]
    name = f"unit {unit.id} ({ut.title})"
    if target.capture:
        if ut.unit_class != UnitClass.LAND:
            return f"{name} cannot take a city; only land units can"
        if not ut.captures:
            return f"{name} cannot take a city"
        return None
    if not any(combat.can_hit(world, ut, sq, dt) for dt in target.types):
        return f"{name} cannot attack what is at {world.grid.label(sq)}"
    if unit.ammo < 1:
        return f"{name} has no ammunition"
    return None


def still_hostile(world: World, nation: str, target: int) -> bool:
    """A city attacked from memory, now seen up close: still one to take (neutral, or of a
    nation at war with this one)?"""
    city = world.cities.get(target)
    if city is None or city.owner in world.team(nation):
        return False
    return city.owner is None or combat.at_war(world, nation, city.owner)


def strike(
    world: World, unit: Unit, target: int, *, capture: bool, moved: bool
) -> tuple[list[ev.Event], bool, bool]:
    """One unit standing next to `target` attacks it (or takes the city there): its events,
    whether the attack was given up (nothing to attack there any more, no mobility left: an
    `OrderCancelled` says why), and whether it became the taking of an emptied city."""
    rules = world.rules
    nation = unit.owner
    where = world.grid.label(target)
    if capture and not still_hostile(world, nation, target):
        return [], True, capture  # seen up close, the city is not what was remembered
    ut = rules.unit[unit.type]
    takes_city = (
        ut.unit_class == UnitClass.LAND and ut.captures and still_hostile(world, nation, target)
    )
    defended = bool(combat.defenders_at(world, nation, target))
    why = None
    if not capture and not takes_city and not defended:
        # nothing hostile left there: beaten by an earlier unit, or gone since seen
        why = f"nothing to attack at {where} any more"
    elif not capture and takes_city and not defended:
        # an attack on units that have left the city: taking it costs what a capture does
        extra = rules.command_points.costs.capture - rules.command_points.costs.attack
        if world.nations[nation].cp < extra:
            why = f"the city at {where} is empty, and taking it costs {extra} more command points"
        else:
            world.nations[nation].cp -= extra
            capture = True
    if why is None and unit.mobility < combat.attack_cost(world, unit):
        why = f"not enough mobility left to attack {where}"
    if why is not None:
        cancelled = ev.OrderCancelled(
            tick=world.tick, to=[nation], nation=nation, unit=unit.id, square=where, reason=why
        )
        return [cancelled], True, capture
    if rules.battle is not None and defended:
        return battle.resolve_battle(world, [unit], target), False, capture
    return combat.resolve_attack(world, unit, target, moved=moved), False, capture


def fight(world: World, units: list[Unit], target: int) -> list[ev.Event]:
    """Seed 002 (a ruleset with battles): the units of one attack order that stand next to a
    defended square fight one battle together; then, if that emptied a hostile city, the
    first surviving land unit with the mobility left takes it (paying what a capture costs
    more than an attack, as any attack order on an emptied city does)."""
    nation = units[0].owner
    where = world.grid.label(target)
    out: list[ev.Event] = []
    able: list[Unit] = []
    for unit in units:
        if unit.mobility < combat.attack_cost(world, unit):
            out.append(
                ev.OrderCancelled(
                    tick=world.tick,
                    to=[nation],
                    nation=nation,
                    unit=unit.id,
                    square=where,
                    reason=f"not enough mobility left to attack {where}",
                )
            )
        else:
            able.append(unit)
    if not able:
        return out
    out.extend(battle.resolve_battle(world, able, target))
    if combat.defenders_at(world, nation, target) or not still_hostile(world, nation, target):
        return out
    for unit in able:
        if (
            unit.id in world.units
            and unit.carried_by is None
            and world.rules.unit[unit.type].unit_class == UnitClass.LAND
            and unit.mobility >= combat.attack_cost(world, unit)
        ):
            events, _, _ = strike(world, unit, target, capture=False, moved=True)
            out.extend(events)
            break
    return out


def run_queued(world: World, ctx: MoveContext, unit: Unit) -> list[ev.Event]:
    """A unit's queued attack at its update: once it has the mobility to get next to the
    target and attack, it goes and attacks; until then it goes towards it as far as it can.
    Given up (the order dropped, with the reason) when the nation no longer knows of anything
    to attack there, or of a way to it."""
    assert unit.order is not None
    sq = unit.order
    nation = unit.owner
    where = world.grid.label(sq)

    def cancel(reason: str) -> list[ev.Event]:
        unit.set_order(None)
        return [
            ev.OrderCancelled(
                tick=world.tick,
                to=[nation],
                nation=nation,
                unit=unit.id,
                square=where,
                reason=reason,
            )
        ]

    target = known_target(world, nation, sq)
    if isinstance(target, str):
        gone = target.startswith("you see nothing")
        return cancel("nothing you know of to attack there any more" if gone else target)
    why = can_attack(world, unit, target, sq)
    if why is not None:
        return cancel(why)
    path = plan_move(world, ctx, unit, sq, approach=True)
    if path is None:
        return cancel(f"no known way to get next to {where} any more")
    ready = unit.mobility >= path_cost(world, ctx, unit, path) + combat.attack_cost(world, unit)
    hooks = (Interception(world), Interdiction(world))
    out: list[ev.Event] = []
    if path:
        result = walk(world, ctx, unit, path, hooks=hooks, goal=sq, approach=True)
        out.extend(result.events)
        ctx.invalidate_sight()
        if unit.id not in world.units:
            return out
        if result.stopped:
            unit.set_order(None)
            return out
        if not result.arrived:
            unit.set_order(sq, result.rest, strike=True)
            return out
    if not ready or world.grid.distance(unit.sq, sq) != 1:
        unit.set_order(sq, [], strike=True)  # next to it, waiting for the mobility to attack
        return out
    unit.set_order(None)
    events, _, _ = strike(world, unit, sq, capture=target.capture, moved=bool(path))
    out.extend(events)
    return out
