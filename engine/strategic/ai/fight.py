"""Fight: aircraft and warships strike first, then every group next to a hostile square
attacks it in one command; what a unit can hit and the damage it is expected to do."""

from __future__ import annotations

import math

import numpy as np

from engine.strategic import commands as cmd
from engine.strategic.ai.state import Plan
from engine.strategic.rules import Ruleset
from engine.strategic.rules.models import Effect, MovesOn, UnitClass, UnitType
from engine.strategic.view import CityView, UnitView


def bombs(p: Plan, ut: UnitType) -> bool:
    """Bombers worth sending against defenders (not the scouts' token bombs)."""
    return (ut.bomb_percent or 0) >= p.profile.bomber_percent


def can_hit(p: Plan, unit: UnitView, target: UnitView) -> bool:
    """The engine's targeting rule, from what the view shows."""
    ut = p.rules.unit[unit.type]
    dt = p.rules.unit[target.type]
    if (unit.ammo or 0) < 1 or not (ut.attack or bombs(p, ut)):
        return False
    sea = p.map.at_sea(target.sq)
    if ut.unit_class == UnitClass.LAND:
        return ut.can_attack_sea if sea else True
    if ut.unit_class == UnitClass.SEA:
        if sea:
            return dt.unit_class != UnitClass.AIR
        if target.sq in p.view.cities:
            return p.map.coastal(target.sq)
        return ut.can_attack_land
    if ut.unit_class == UnitClass.AIR:
        if not sea:
            return True
        if dt.unit_class == UnitClass.AIR:
            return bool(ut.attack)
        return ut.can_attack_sea
    return False


def expected_damage(rules: Ruleset, unit: UnitView, city: CityView | None) -> float:
    """The mean of the engine's roll (from the ruleset's fraction of the attack value up to
    all of it), divided as a fortified city divides it."""
    combat = rules.combat
    attack = rules.unit[unit.type].attack or 0
    value = (max(1, math.ceil(attack * combat.damage_min_fraction)) + attack) / 2 if attack else 0.0
    if city is not None and rules.city[city.designation].halves_damage_to:
        value /= combat.fort_divisor
    return value


def battle_odds(rules: Ruleset, unit: UnitView, target: UnitView, city: CityView | None) -> float:
    """Seed 002 (a ruleset with battles): the chance the unit's attack destroys the target,
    as the battle rolls it (attack with the effective bonus against attack + defence, the
    defence being the hp the attacker sees, doubled in a fort for the units it protects)."""
    battle = rules.battle
    assert battle is not None
    ut, dt = rules.unit[unit.type], rules.unit[target.type]
    attack = ut.attack or 0
    if attack <= 0:
        return 0.0
    if rules.effect(ut.name, dt.name) == Effect.EFFECTIVE:
        attack = -(-attack * (100 + battle.effective_bonus_percent) // 100)
    defence = target.hp or dt.hp
    if city is not None and any(
        rules.matches(dt, sel) for sel in rules.city[city.designation].halves_damage_to
    ):
        defence *= rules.combat.fort_divisor
    return attack / (attack + max(1, defence))


def matchup(rules: Ruleset, unit: UnitView, defenders: list[UnitView]) -> int:
    """How a unit fares against a square's defenders in a battle: 1 effective against one of
    them, -1 weak against every one, else 0 (always 0 without battles)."""
    if rules.battle is None or not defenders:
        return 0
    effects = [rules.effect(unit.type, d.type) for d in defenders]
    if Effect.EFFECTIVE in effects:
        return 1
    return -1 if all(e == Effect.WEAK for e in effects) else 0


def fight(p: Plan) -> None:
    """Every square with hostile units or an empty city to take, next to own units, is
    attacked by all of them at once (one command: the survivors of a garrison are hit
    again at once and the first land unit left walks in). A garrisoned city is only
    assaulted when the group is expected to clear it, or it cannot wait."""
    view, rules, profile = p.view, p.rules, p.profile
    hostile = p.hostile_units()
    by_square: dict[int, list[UnitView]] = {}
    for u in hostile:
        if u.carried_by is None:
            by_square.setdefault(u.sq, []).append(u)
    squares = set(by_square)
    for sq, seen in view.cities.items():
        if seen.seen != "now" or seen.owner == view.nation:
            continue
        if seen.owner is not None and seen.owner not in p.at_war:
            continue
        if not any(u.owner != view.nation for u in p.units_at.get(sq, [])):
            squares.add(sq)
    ready = [
        u for u in p.own if (u.mobility or 0) >= 1 and rules.unit[u.type].moves_on != MovesOn.NONE
    ]
    near: dict[int, list[UnitView]] = {}
    for unit in ready:
        for sq in p.map.neighbours(unit.sq):
            if sq in squares:
                near.setdefault(sq, []).append(unit)

    struck = strikes(p, hostile, by_square, near)

    def priority(sq: int) -> tuple[int, float, int]:
        defenders = by_square.get(sq, [])
        return (0 if sq in view.cities else 1, sum(d.hp or 1 for d in defenders), sq)

    for sq in sorted(near, key=priority):
        defenders = by_square.get(sq, [])
        city = view.cities.get(sq)
        land = [
            u
            for u in near[sq]
            if u.id not in p.busy
            and u.id not in p.garrisons
            and rules.unit[u.type].unit_class == UnitClass.LAND
        ]
        if not defenders:
            if (
                city is not None
                and land
                and p.issue(
                    cmd.Attack(units=[land[0].id], target=p.map.xy(sq)),
                    p.cost_capture,
                    [land[0].id],
                )
            ):
                p.notes.append(f"unit {land[0].id} takes the city at {view.label(sq)}")
            continue
        group = [
            u
            for u in near[sq]
            if u.id not in p.busy
            and u.carried_by is None
            and not (city is not None and u.id in p.garrisons)  # they would walk in
            and any(can_hit(p, u, d) for d in defenders)
            # in a battle, a unit weak against every defender only feeds their counters
            and matchup(rules, u, [d for d in defenders if can_hit(p, u, d)]) >= 0
        ]
        if not group:
            continue
        # in a battle the units attack in the order sent: those effective against a defender
        # first, so they pick their targets before the others
        group.sort(key=lambda u: -matchup(rules, u, defenders))
        if city is not None and profile.waits_to_assault:
            strength = struck.get(sq, 0.0)
            hp = sum(d.hp or rules.unit[d.type].hp for d in defenders)
            if rules.battle is not None:
                # expected hp destroyed: each unit's best chance times an average defender
                per = hp / len(defenders)
                strength += sum(
                    per * max(battle_odds(rules, u, d, city) for d in defenders) for u in group
                )
            else:
                strength += sum(expected_damage(rules, u, city) for u in group)
            if strength < profile.assault_odds * hp and len(group) < profile.assault_group:
                continue  # wait for more
        ids = [u.id for u in group]  # land units among them walk in once it is empty
        if p.issue(cmd.Attack(units=ids, target=p.map.xy(sq)), p.cost_attack, ids):
            p.notes.append(f"{len(ids)} units attack {view.label(sq)}")


def strikes(
    p: Plan,
    hostile: list[UnitView],
    by_square: dict[int, list[UnitView]],
    near: dict[int, list[UnitView]],
) -> dict[int, float]:
    """Aircraft and warships strike what they can reach and still come home from, before
    the land units attack: first cities its land units stand next to (so they can walk in
    once the garrison is down), bombers the biggest stack, the others the nearest target.
    A warship fires as often as its ammunition allows. Returns the damage it expects to
    have done per square."""
    rules, known = p.rules, p.map
    dist, neighbours = known.dist, known.neighbours
    done: dict[int, float] = {}
    assault = {
        sq
        for sq, units in near.items()
        if sq in p.view.cities
        and any(rules.unit[u.type].unit_class == UnitClass.LAND for u in units)
    }
    # the targets in reach of each striker found by distance at once (numpy), then the
    # rules' questions asked of those only: the same targets, in the same order
    free = [t for t in hostile if t.carried_by is None]
    free_squares = np.fromiter((t.sq for t in free), dtype=np.int64, count=len(free))
    for unit in p.own:
        ut = rules.unit[unit.type]
        if unit.id in p.busy or unit.carried_by is not None:
            continue
        if ut.unit_class not in (UnitClass.AIR, UnitClass.SEA) or (unit.ammo or 0) < 1:
            continue
        if not (ut.attack or bombs(p, ut)):
            continue
        reach = unit.mobility or 0
        if ut.needs_fuel:
            reach = min(reach, (unit.fuel or 0) // 2)
        if reach < 1:
            continue
        away = known.dist_many(unit.sq, free_squares)
        options = [
            t
            for t in (free[i] for i in np.flatnonzero((away >= 1) & (away <= reach)).tolist())
            if can_hit(p, unit, t) and matchup(rules, unit, [t]) >= 0  # battles: no weak ones
        ]
        if options and ut.unit_class == UnitClass.SEA:
            # a ship sails round land: keep what it can reach by water, as it knows the map
            wanted = {n for t in options for n in neighbours(t.sq)}
            steps = known.sea_steps(unit, reach - 1, wanted)
            options = [
                t
                for t in options
                if dist(unit.sq, t.sq) == 1
                or any(steps.get(n, reach) <= reach - 1 for n in neighbours(t.sq))
            ]
        if not options:
            continue
        left = {
            sq: sum(d.hp or rules.unit[d.type].hp for d in by_square.get(sq, []))
            - done.get(sq, 0.0)
            for sq in {t.sq for t in options}
        }
        squares = [sq for sq in sorted(left) if left[sq] > 0] or sorted(left)
        if bombs(p, ut):
            goal = max(squares, key=lambda sq: (sq in assault, len(by_square.get(sq, []))))
        else:
            goal = min(
                squares,
                key=lambda sq: (
                    -matchup(rules, unit, by_square.get(sq, [])),  # effective first (battles)
                    sq not in assault,
                    dist(unit.sq, sq),
                    sq,
                ),
            )
        city = p.view.cities.get(goal)
        shots = 1 if ut.needs_fuel else max(1, min(unit.ammo or 1, reach))
        if ut.unit_class == UnitClass.SEA:
            # the engine asks for the way next to the target plus 1 before each shot, and
            # each shot then costs 1 (2 out of supply) where the ship stands
            steps = known.sea_steps(unit, reach - 1)
            stand, way = unit.sq, 0
            if dist(unit.sq, goal) > 1:
                way, stand = min(
                    ((steps[n], n) for n in neighbours(goal) if n in steps),
                    default=(reach, unit.sq),
                )
            per_shot = 1 if known.sea_supply()[stand] else rules.supply.out_of_supply_step_cost
            shots = max(1, min(shots, -(-(reach - way) // per_shot)))
        for _ in range(shots):
            if not p.issue(
                cmd.Attack(units=[unit.id], target=known.xy(goal)),
                p.cost_attack,
                [unit.id],
            ):
                break
            done[goal] = done.get(goal, 0.0) + expected_damage(rules, unit, city)
            if done[goal] >= left.get(goal, 0):
                break
    return done
