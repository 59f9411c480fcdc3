"""Carrying units (seed 000 section 10, seed 001 section 9).

- Land units board a transport at sea by moving onto its square (that square can only end a
  path), and board a ship in port with the `board` command; they unload by moving off.
- Light aircraft that end a move on their own carrier's square land on it.
- Helicopters and cargo planes pick up infantry from the square they leave (the most recently
  built first), except, in a city of their team, infantry with no mobility or only 1–2 hp.
  Submarines and engineers pick up an ICBM from the square they leave the same way.
- A carrier takes what it carries wherever it goes (the world moves cargo with its carrier).
"""

from __future__ import annotations

from engine.strategic.rules.models import UnitClass, UnitType
from engine.strategic.world import Unit, World


def can_carry(world: World, carrier: Unit, cargo: Unit) -> bool:
    rules = world.rules
    ct = rules.unit[carrier.type]
    if ct.capacity <= 0 or carrier.owner != cargo.owner or carrier.id == cargo.id:
        return False
    gt = rules.unit[cargo.type]
    return any(rules.matches(gt, sel) for sel in ct.carries)


def load(world: World, carrier: Unit) -> int:
    rules = world.rules
    return sum(rules.unit[u.type].weight for u in world.cargo_of(carrier))


def room_for(world: World, carrier: Unit, cargo: Unit) -> bool:
    ct = world.rules.unit[carrier.type]
    return (
        can_carry(world, carrier, cargo)
        and load(world, carrier) + world.rules.unit[cargo.type].weight <= ct.capacity
    )


def carrier_with_room(world: World, unit: Unit, sq: int) -> Unit | None:
    """An uncarried unit of the same nation on the square that can take this unit."""
    for other in world.units_at(sq):
        if other.carried_by is None and room_for(world, other, unit):
            return other
    return None


def settle(world: World, unit: Unit) -> None:
    """After a move: board what must or may carry the unit on its square."""
    ut = world.rules.unit[unit.type]
    sq = unit.sq
    if sq in world.cities:
        return
    if ut.unit_class in (UnitClass.LAND, UnitClass.AIR) and world.is_water(sq):
        carrier = carrier_with_room(world, unit, sq)
        if carrier is not None:
            unit.carried_by = carrier.id


def pick_up(world: World, carrier: Unit) -> None:
    """A helicopter, cargo plane, sub or engineer about to leave picks up what it may."""
    rules = world.rules
    ct: UnitType = rules.unit[carrier.type]
    if ct.capacity <= 0 or not ct.picks_up:
        return
    min_hp = rules.transport.pickup_min_hp
    city = world.cities.get(carrier.sq)
    team_city = city is not None and city.owner in world.team(carrier.owner)
    candidates = [
        u
        for u in world.units_at(carrier.sq)
        if u.carried_by is None and can_carry(world, carrier, u)
    ]
    for unit in sorted(candidates, key=lambda u: -u.built):
        ut = rules.unit[unit.type]
        if (
            team_city
            and ut.unit_class == UnitClass.LAND
            and (unit.mobility == 0 or unit.hp < min_hp)
        ):
            continue
        if load(world, carrier) + ut.weight <= ct.capacity:
            unit.carried_by = carrier.id
