"""Two-part ICBMs (seed 002; ruleset total-war, its [icbm] section and the units with an
`icbm_part`).

- A launch needs a missile base and a warhead of the nation, both on the ground in the same
  city of the nation, and both there since before the current game hour began: a part that
  was built, moved or changed hands at a tick of this hour (the hour's first tick included)
  cannot launch until the next hour (`not_ready`).
- Any square of the map may be targeted. The chance to hit is the base's `hit_percent` plus
  the warhead's minus the ICBM defence of the nation owning the city on the target square
  (its tech level's `defence`; a square without a player city has none). One die from 1 to
  100: at or under the chance it hits; otherwise it explodes harmlessly. Both parts are spent.
- A hit deals the warhead's `blast_damage_percent` of each unit's full hp to every unit within
  its blast radius (owner's too; cargo too), `effective_damage_percent` of that against the
  units it is effective against (ships but submarines); every player city there becomes a
  wasteland (`wasteland.lay_waste`), its owner declares war on the launcher, and the world's
  ecological meter rises. There is no automatic counter-launch.
"""

from __future__ import annotations

import math

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitType
from engine.strategic.systems.combat import destroy
from engine.strategic.systems.economy import limit_dropped, power_limit
from engine.strategic.systems.launch import tell_launch
from engine.strategic.systems.sight import observers
from engine.strategic.systems.wasteland import lay_waste
from engine.strategic.world import Unit, World


def hour_start(world: World) -> int:
    return world.tick - world.tick % world.rules.ticks_per_hour


def not_ready(world: World, unit: Unit) -> str | None:
    """Why this part cannot launch in this game hour (None: it can)."""
    arrived = max(unit.born, world.part_moved.get(unit.id, unit.born))
    start = hour_start(world)
    if arrived < start:
        return None
    title = world.rules.unit[unit.type].title
    return (
        f"unit {unit.id} ({title}) was built, moved or changed hands this game hour; "
        f"it can launch from {world.clock(start + world.rules.ticks_per_hour)}"
    )


def partners(world: World, unit: Unit) -> list[Unit]:
    """The nation's other kind of part on the ground beside it, best first (the most to hit,
    then the widest blast, then the oldest)."""
    rules = world.rules
    part = rules.unit[unit.type].icbm_part
    found = [
        u
        for u in world.units_at(unit.sq)
        if u.owner == unit.owner
        and u.carried_by is None
        and (kind := rules.unit[u.type].icbm_part) is not None
        and kind != part
    ]

    def rank(u: Unit) -> tuple[int, int, int]:
        ut = rules.unit[u.type]
        return (-ut.hit_percent, -(ut.blast_radius or 0), u.id)

    return sorted(found, key=rank)


def defence(world: World, target: int) -> int:
    rules = world.rules.icbm
    assert rules is not None
    city = world.cities.get(target)
    if city is None or city.owner is None:
        return 0
    return rules.defence_at(world.nations[city.owner].tech)


def chance(world: World, base: UnitType, warhead: UnitType, target: int) -> int:
    return base.hit_percent + warhead.hit_percent - defence(world, target)


def damage(world: World, warhead: UnitType, victim: UnitType) -> int:
    rules = world.rules
    icbm = rules.icbm
    assert icbm is not None
    percent = warhead.blast_damage_percent or 0
    effective = any(rules.matches(victim, s) for s in icbm.effective_against) and not any(
        rules.matches(victim, s) for s in icbm.effective_exclude
    )
    if effective:
        percent = percent * icbm.effective_damage_percent // 100
    return math.ceil(victim.hp * percent / 100)


def launch(world: World, base: Unit, warhead: Unit, target: int) -> list[ev.Event]:
    """Both parts go; one die decides the hit (all checks done by the caller)."""
    rules = world.rules
    wt = rules.unit[warhead.type]
    owner = base.owner
    odds = chance(world, rules.unit[base.type], wt, target)
    hit = world.rng.randint(1, 100) <= odds
    world.remove_unit(base)
    world.remove_unit(warhead)
    radius = wt.blast_radius or 0
    out: list[ev.Event] = []
    devastated: dict[str, list[str]] = {n: [] for n in world.nations}
    losers: list[str] = []
    limits: dict[str, int] = {}
    if hit:
        blast = world.grid.within(target, radius)
        victims = [v for sq in blast for v in world.units_at(sq)]
        saw = {v.id: observers(world, v.sq, v) | {v.owner} for v in victims}
        saw_city = {sq: observers(world, sq) for sq in blast if sq in world.cities}
        owners = {c.owner for sq in blast if (c := world.cities.get(sq)) and c.owner is not None}
        limits = {n: power_limit(world, n) for n in owners}
        for victim in victims:
            if victim.id not in world.units:
                continue  # died with its carrier
            harm = damage(world, wt, rules.unit[victim.type])
            if harm >= victim.hp:
                destroy(world, victim, owner, out, seers=saw[victim.id])
            else:
                victim.hp -= harm
        for sq in blast:
            city = world.cities.get(sq)
            if city is not None and city.owner is not None:
                for nation in saw_city[sq] | {city.owner}:
                    devastated[nation].append(world.grid.label(sq))
                losers.append(city.owner)
                lay_waste(world, city)
        if losers:
            world.map_changed()
    waste = world.rules.wastelands
    news = tell_launch(
        world,
        out,
        owner,
        losers,
        devastated,
        unit_type=warhead.type,
        square=world.grid.label(target),
        radius=radius,
        counter=False,
        hit=hit,
        chance=odds,
        returns=world.tick + waste.days * rules.ticks_per_day if waste and losers else None,
        ecology=world.ecology if waste else None,
        collapse_at=waste.collapse_at if waste else None,
    )
    out[:0] = news
    for nation in sorted(set(losers)):
        out.extend(limit_dropped(world, nation, limits[nation]))
    return out
