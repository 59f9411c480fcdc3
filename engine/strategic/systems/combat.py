"""Combat: who may attack what, the first fire of flak and cannons, damage with multipliers,
counter-attacks, bombing, capture, and ammunition pulled along the supply chain.

Every number and every switch is in the ruleset's [combat] and [capture] sections; the
minimal-attack cases are named there and implemented here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitClass, UnitType
from engine.strategic.systems.economy import default_build, limit_dropped, power_limit
from engine.strategic.systems.sight import Sight, SightCache, observers, show, witnesses
from engine.strategic.systems.supply import can_refuel_at, in_supply
from engine.strategic.world import City, Unit, World


@dataclass(frozen=True)
class Target:
    """What lies on an attacked square, from the attacker's side."""

    sq: int
    defenders: list[Unit]  # units of nations the attacker is at war with, not carried
    city: City | None


def at_war(world: World, a: str, b: str) -> bool:
    return world.relation(a, b) == world.rules.diplomacy.war


def defenders_at(world: World, nation: str, sq: int) -> list[Unit]:
    """The units an attack on the square fights (ICBM parts in a city do not defend it: they
    are taken with it, `capture`)."""
    in_city = sq in world.cities and world.rules.icbm is not None
    return [
        u
        for u in world.units_at(sq)
        if u.carried_by is None
        and at_war(world, nation, u.owner)
        and not (in_city and world.rules.unit[u.type].icbm_part is not None)
    ]


def attack_value(ut: UnitType) -> int:
    return ut.attack or 0


def is_bomber(ut: UnitType) -> bool:
    return ut.bomb_percent is not None


def at_sea(world: World, sq: int) -> bool:
    return world.is_water(sq) and sq not in world.cities


def can_hit(
    world: World,
    attacker: UnitType,
    target_sq: int,
    defender: UnitType | None,
    *,
    counter: bool = False,
) -> bool:
    """Whether a unit of this type may fire at a unit (or an empty city) on a square."""
    if attack_value(attacker) <= 0:
        # units without an attack value bomb (bombers) or fire back at the minimal attack
        bombs = is_bomber(attacker) and not counter
        fires_back = counter and _minimal_case(world, attacker, defender, target_sq, counter=True)
        if not (bombs or fires_back):
            return False
    city = world.cities.get(target_sq)
    sea = at_sea(world, target_sq)
    cls = attacker.unit_class
    if cls == UnitClass.LAND:
        return attacker.can_attack_sea if sea else True
    if cls == UnitClass.SEA:
        if sea:
            return True
        if city is not None:
            return world.is_coastal(target_sq)  # any ship may fire into a coastal city
        return attacker.can_attack_land
    if cls == UnitClass.AIR:
        if not sea:
            return True
        # over open water: ships only by naval bombers; planes by anything that shoots
        if defender is not None and defender.unit_class == UnitClass.AIR:
            return attack_value(attacker) > 0 or counter
        return attacker.can_attack_sea
    return False


def _minimal_case(
    world: World, attacker: UnitType, defender: UnitType | None, defender_sq: int, *, counter: bool
) -> bool:
    cases = world.rules.combat.minimal_attack_cases
    if defender is None:
        return False
    if counter and "bomber_counter" in cases and is_bomber(attacker):
        return True
    if counter and attacker.unit_class == UnitClass.SEA:
        if "naval_counter_vs_air" in cases and defender.unit_class == UnitClass.AIR:
            return True
        if "naval_counter_vs_sub_blind" in cases and defender.stealth and attacker.sees_subs == 0:
            return True
    if "sub_vs_air" in cases and attacker.stealth and defender.unit_class == UnitClass.AIR:
        return True
    return bool(
        "naval_bomber_vs_air_at_sea" in cases
        and attacker.unit_class == UnitClass.AIR
        and attacker.can_attack_sea
        and is_bomber(attacker)
        and defender.unit_class == UnitClass.AIR
        and at_sea(world, defender_sq)
    )


def effective_attack(
    world: World, attacker: UnitType, defender: UnitType, defender_sq: int, *, counter: bool
) -> int:
    if _minimal_case(world, attacker, defender, defender_sq, counter=counter):
        return world.rules.combat.minimal_attack
    return attack_value(attacker)


def roll(world: World, value: int) -> int:
    """Damage from half the attack value (rounded up) to the full value."""
    if value <= 0:
        return 0
    lo = max(1, math.ceil(value * world.rules.combat.damage_min_fraction))
    return world.rng.randint(lo, value)


def damage_to(world: World, attacker: UnitType, defender: Unit, base: int) -> int:
    """Rolled damage times the type multiplier and the square's factors, fort halving last."""
    rules = world.rules
    dt = rules.unit[defender.type]
    damage = base * rules.multiplier(attacker, dt)
    city = world.cities.get(defender.sq)
    if city is not None and city.owner is not None:
        if dt.unit_class == UnitClass.AIR:
            damage *= rules.combat.air_in_city_factor
        elif dt.unit_class == UnitClass.SEA:
            damage *= rules.combat.ship_in_port_factor
        ct = rules.city[city.designation]
        if any(rules.matches(dt, sel) for sel in ct.halves_damage_to):
            damage = max(1, damage // rules.combat.fort_divisor)
    return damage


def pick_defender(world: World, attacker: UnitType, defenders: list[Unit]) -> Unit:
    """At sea a ship first; else the highest multiplier against this attacker, then the most
    recently built."""
    rules = world.rules
    ships = [u for u in defenders if rules.unit[u.type].unit_class == UnitClass.SEA]
    pool = ships if ships and at_sea(world, defenders[0].sq) else defenders
    return max(pool, key=lambda u: (rules.multiplier(attacker, rules.unit[u.type]), u.built))


def square_fire(world: World, attacker: Unit, target_sq: int, defender_nations: set[str]) -> int:
    """The square fires first: flak at aircraft, cannons at ships (uniform 1..value)."""
    rules = world.rules
    at = rules.unit[attacker.type]
    value = 0
    city = world.cities.get(target_sq)
    if at.unit_class == UnitClass.AIR:
        if city is not None and city.owner is not None:
            value += rules.city[city.designation].flak or 0
        for unit in world.units_at(target_sq):
            if unit.owner in defender_nations and unit.carried_by is None:
                value += rules.unit[unit.type].flak or 0
    elif at.unit_class == UnitClass.SEA and city is not None and city.owner is not None:
        value += rules.city[city.designation].cannon or 0
    if value <= 0:
        return 0
    return world.rng.randint(1, value)


# --- ammunition --------------------------------------------------------------------------------


def spend_ammo(world: World, unit: Unit) -> None:
    """Use one ammo; a unit in supply pulls a replacement along its supply chain."""
    unit.ammo -= 1
    world.unit_changed(unit)
    if in_supply(world, unit):
        _pull(world, unit, {unit.id})


def _pull(world: World, consumer: Unit, visited: set[int]) -> bool:
    """Refill one ammo of `consumer` from its supply: a city in reach is inexhaustible; else
    the nearest own supplier with ammo gives one and refills itself the same way (seed 000 §9)."""
    rules = world.rules
    ct = rules.unit[consumer.type]
    full = ct.ammo or 0
    if consumer.ammo >= full:
        return True
    if ct.unit_class == UnitClass.AIR:
        # aircraft rearm where they may refuel (an own or allied airport, ...): one that
        # fires from there without moving is rearmed at once
        if not can_refuel_at(world, consumer, consumer.sq):
            return False
        consumer.ammo = full
        world.unit_changed(consumer)
        return True
    cls = ct.unit_class if ct.unit_class in (UnitClass.LAND, UnitClass.SEA) else UnitClass.LAND
    radius = rules.supply.radius
    grid = world.grid
    team = world.team(consumer.owner)
    for city in world.cities.values():
        if city.owner in team and grid.distance(city.sq, consumer.sq) <= radius:
            cty = rules.city[city.designation]
            if cty.supplies_sea if cls == UnitClass.SEA else cty.supplies_land:
                consumer.ammo = full
                world.unit_changed(consumer)
                return True
    best: Unit | None = None
    for uid in sorted(world.suppliers.get(consumer.owner, ())):
        if uid in visited:
            continue
        s = world.units[uid]
        st = rules.unit[s.type]
        if s.ammo < 1 or not (st.supplies_sea if cls == UnitClass.SEA else st.supplies_land):
            continue
        d = grid.distance(s.sq, consumer.sq)
        if d <= radius and (best is None or d < grid.distance(best.sq, consumer.sq)):
            best = s
    if best is None:
        return False
    best.ammo -= 1
    consumer.ammo += 1
    world.unit_changed(best)
    world.unit_changed(consumer)
    _pull(world, best, visited | {best.id})
    return True


# --- resolving an attack ----------------------------------------------------------------------


def destroy(
    world: World,
    unit: Unit,
    by: str | None,
    out: list[ev.Event],
    *,
    aboard: bool = False,
    seers: set[str] | None = None,
) -> None:
    """A unit dies; what it carries at sea (or in the air) dies with it. Cargo (`aboard`) is
    reported to its own side only: nobody else ever saw it. Told to the nations that see it
    (the one that killed it too, if it saw what it hit), or to `seers` (an ICBM's blast: those
    that saw each unit before it went off)."""
    label = world.grid.label(unit.sq)
    if aboard:
        seers = set(world.team(unit.owner))  # nobody passes on what is inside a carrier
    elif seers is None:
        seers = observers(world, unit.sq, unit) | {unit.owner}
        if by is not None and Sight(world, by).sees_unit(unit):
            seers.add(by)  # not a unit it hit blind (a submarine hidden in a bombed stack)
    cargo = world.cargo_of(unit)
    world.remove_unit(unit)
    out.append(
        ev.UnitDestroyed(
            tick=world.tick,
            to=sorted(seers),
            nation=unit.owner,
            unit=unit.id,
            unit_type=unit.type,
            square=label,
            by=by,
        )
    )
    if unit.sq not in world.cities:
        for passenger in cargo:
            destroy(world, passenger, by, out, aboard=True)


def hurt(world: World, unit: Unit, damage: int, by: str | None, out: list[ev.Event]) -> bool:
    """Apply damage; returns whether the unit still lives."""
    unit.hp -= damage
    if unit.hp <= 0:
        unit.hp = 0
        destroy(world, unit, by, out)
        return False
    return True


def attack_cost(world: World, attacker: Unit) -> int:
    """Mobility an attack (or a capture) costs: 1, or the out-of-supply cost."""
    return 1 if in_supply(world, attacker) else world.rules.supply.out_of_supply_step_cost


def resolve_attack(world: World, attacker: Unit, target_sq: int, *, moved: bool) -> list[ev.Event]:
    """One unit attacks a square it stands next to (all checks done by the caller)."""
    rules = world.rules
    at = rules.unit[attacker.type]
    nation = attacker.owner
    out: list[ev.Event] = []
    defenders = defenders_at(world, nation, target_sq)
    cost = attack_cost(world, attacker)
    if not defenders:
        city = world.cities.get(target_sq)
        if city is not None and at.unit_class == UnitClass.LAND and at.captures:
            attacker.mobility -= cost
            return capture(world, attacker, city)
        return out
    attacker.mobility -= cost
    owners = {u.owner for u in defenders}
    # told to the two sides, and to third nations that see both the attacker and its target
    seers = {d.id: sorted(witnesses(world, attacker, d)) for d in defenders}
    first = square_fire(world, attacker, target_sq, owners)
    from_label = world.grid.label(attacker.sq)

    def attacked(
        target: Unit, *, attacker_hp: int, defender_hp: int, damage: int = 0, counter: int = 0
    ) -> ev.Attacked:
        return ev.Attacked(
            tick=world.tick,
            to=seers[target.id],
            attacker=nation,
            defender=target.owner,
            square=world.grid.label(target_sq),
            from_square=from_label,
            attacker_unit=attacker.id,
            attacker_type=attacker.type,
            defender_unit=target.id,
            defender_type=target.type,
            first_fire=first,
            damage=damage,
            counter=counter,
            attacker_hp=attacker_hp,
            defender_hp=defender_hp,
        )

    # the defender is one the attacker's side sees; with none in sight (a submarine lying in
    # a port attacked as an empty city), the one struck blind shows itself
    sight = Sight(world, nation)
    visible = [d for d in defenders if sight.sees_unit(d)]
    target = pick_defender(world, at, visible or defenders)
    if first and not hurt(world, attacker, first, next(iter(sorted(owners))), out):
        # shot down before it fired: a defender it could not see stays unseen (its side is
        # told it was shot down, by the destroyed unit's report)
        shot = attacked(target, attacker_hp=0, defender_hp=target.hp)
        if not visible:
            team = world.team(nation)
            shot = shot.model_copy(update={"to": [n for n in shot.to if n not in team]})
        if shot.to:
            out.insert(0, shot)
        return out
    if is_bomber(at) and not (at_sea(world, target_sq) and at.can_attack_sea):
        return out + bomb(world, attacker, target_sq, defenders, first)
    shown = [] if visible else show(world, nation, target)
    out[:0] = shown
    dt = rules.unit[target.type]
    if at.stealth:
        out.extend(show(world, target.owner, attacker))  # a sub that attacks shows itself
    damage = damage_to(
        world, at, target, roll(world, effective_attack(world, at, dt, target_sq, counter=False))
    )
    spend_ammo(world, attacker)
    alive = hurt(world, target, damage, nation, out)
    counter = 0
    if alive and target.ammo >= 1 and can_hit(world, dt, attacker.sq, at, counter=True):
        value = effective_attack(world, dt, at, attacker.sq, counter=True)
        if value > 0:
            counter = damage_to(world, dt, attacker, roll(world, value))
            spend_ammo(world, target)
    out.insert(
        len(shown),
        attacked(
            target,
            damage=damage,
            counter=counter,
            attacker_hp=max(0, attacker.hp - counter),
            defender_hp=max(0, target.hp),
        ),
    )
    if counter and not hurt(world, attacker, counter, target.owner, out):
        return out
    if rules.combat.naval_adjacent_counter and at.unit_class == UnitClass.SEA and not moved:
        out.extend(_adjacent_ships_fire(world, attacker, target_sq))
    return out


def _adjacent_ships_fire(world: World, attacker: Unit, target_sq: int) -> list[ev.Event]:
    """In naval battles every enemy ship next to an attacking ship fires on it once."""
    rules = world.rules
    at = rules.unit[attacker.type]
    out: list[ev.Event] = []
    sights = SightCache(world)
    for sq in world.grid.neighbours(attacker.sq):
        if sq == target_sq:
            continue
        for ship in world.units_at(sq):
            st = rules.unit[ship.type]
            if (
                ship.carried_by is not None
                or st.unit_class != UnitClass.SEA
                or st.stealth
                or ship.ammo < 1
                or not at_war(world, ship.owner, attacker.owner)
                or attack_value(st) <= 0
                or not sights.sees(ship.owner, attacker)  # a submarine it cannot see
            ):
                continue
            damage = damage_to(
                world,
                st,
                attacker,
                roll(world, effective_attack(world, st, at, attacker.sq, counter=True)),
            )
            spend_ammo(world, ship)
            seers = sorted(witnesses(world, ship, attacker))
            out.append(
                ev.Attacked(
                    tick=world.tick,
                    to=seers,
                    attacker=ship.owner,
                    defender=attacker.owner,
                    square=world.grid.label(attacker.sq),
                    from_square=world.grid.label(ship.sq),
                    attacker_unit=ship.id,
                    attacker_type=ship.type,
                    defender_unit=attacker.id,
                    defender_type=attacker.type,
                    damage=damage,
                    attacker_hp=ship.hp,
                    defender_hp=max(0, attacker.hp - damage),
                )
            )
            if not hurt(world, attacker, damage, ship.owner, out):
                return out
    return out


def bomb(world: World, bomber: Unit, sq: int, victims: list[Unit], first: int) -> list[ev.Event]:
    """Every unit on the square loses the bomb percentage of its remaining hp (rounded per the
    ruleset); no multipliers, no fort halving, no counter-attack.

    The victims' owners, and third nations that see the bomber and every victim, are told of
    every hit; the bomber's side only of the hits on units it could see (a submarine hidden
    in the stack stays hidden)."""
    rules = world.rules
    bt = rules.unit[bomber.type]
    pct = bt.bomb_percent or 0
    spend_ammo(world, bomber)
    sight = Sight(world, bomber.owner)
    seen = {u.id for u in victims if sight.sees_unit(u)}
    owners = {u.owner for u in victims}
    everyone = witnesses(world, bomber, *victims) | owners
    bombers = world.team(bomber.owner)
    hits: list[dict] = []
    out: list[ev.Event] = []
    rounding = math.ceil if rules.combat.bomb_rounding == "up" else math.floor
    for unit in sorted(victims, key=lambda u: u.id):
        damage = int(rounding(unit.hp * pct / 100))
        hits.append(
            {
                "unit": unit.id,
                "type": unit.type,
                "owner": unit.owner,
                "damage": damage,
                "hp": max(0, unit.hp - damage),
            }
        )
        if damage:
            hurt(world, unit, damage, bomber.owner, out)
    told = [(sorted(everyone - bombers), hits)]
    told.append((sorted(bombers), [h for h in hits if h["unit"] in seen]))
    if len(told[1][1]) == len(hits):  # the bomber saw every victim: one event for all
        told = [(sorted(everyone | bombers), hits)]
    for to, listed in reversed(told):
        if to:
            out.insert(
                0,
                ev.Bombed(
                    tick=world.tick,
                    to=to,
                    attacker=bomber.owner,
                    square=world.grid.label(sq),
                    bomber=bomber.id,
                    bomber_type=bomber.type,
                    first_fire=first,
                    hits=listed,
                    victims=sorted({h["owner"] for h in listed}),
                ),
            )
    return out


def _parts_change_hands(
    world: World, captor: str, city: City, out: list[ev.Event], told: ev.Event
) -> ev.Event:
    """ICBM parts in a captured city: each is destroyed with the ruleset's chance (one die
    each, oldest first), the rest are the captor's; the capture's news says which."""
    rules = world.rules
    assert rules.icbm is not None
    parts = [
        u
        for u in world.units_at(city.sq)
        if u.owner not in world.team(captor) and rules.unit[u.type].icbm_part is not None
    ]
    destroyed: list[int] = []
    taken: list[int] = []
    for part in parts:
        if world.rng.randint(1, 100) <= rules.icbm.capture_destroy_percent:
            destroyed.append(part.id)
            destroy(world, part, captor, out)
        else:
            taken.append(part.id)
            part.carried_by = None
            world.transfer_unit(part, captor)
    if not parts:
        return told
    return told.model_copy(update={"parts_destroyed": destroyed, "parts_taken": taken})


def capture(world: World, unit: Unit, city: City) -> list[ev.Event]:
    """A land unit takes an empty enemy or neutral city: the city changes hands with its build
    reset, and the unit loses the ruleset's hp; the city is taken even if the unit dies."""
    rules = world.rules
    previous = city.owner
    was = power_limit(world, previous) if previous is not None else 0
    label = world.grid.label(city.sq)
    seers = observers(world, city.sq) | {unit.owner} | ({previous} if previous else set())
    city.owner = unit.owner
    city.designation = rules.capture.new_designation
    city.build = default_build(world, city.designation, world.nations[unit.owner].tech)
    city.next_build = None
    city.progress = 0
    city.skipped = False
    city.waypoint = None
    world.cities_changed(unit.owner, previous)
    if previous is None:
        world.cities_changed()
    out: list[ev.Event] = [
        ev.CityCaptured(
            tick=world.tick,
            to=sorted(seers),
            nation=unit.owner,
            previous=previous,
            city=label,
            unit=unit.id,
            hp_lost=min(unit.hp, rules.capture.hp_loss),
            hp=max(0, unit.hp - rules.capture.hp_loss),
        )
    ]
    if rules.icbm is not None:
        out[0] = _parts_change_hands(world, unit.owner, city, out, out[0])
    if previous is not None:
        out.extend(limit_dropped(world, previous, was))
    if hurt(world, unit, rules.capture.hp_loss, None, out):
        unit.carried_by = None  # a land unit may take an empty port straight from a transport
        world.move_unit(unit, city.sq)
    return out
