"""Satellites, ICBMs and mutually assured destruction (seed 000 section 6).

- A satellite or ICBM is launched from a tech centre, or from the sub or engineer carrying it,
  at a square within its range (its mobility). The ground unit disappears.
- A launched satellite sees the satellite radius around its square for its owner, forever; it
  cannot be attacked and nobody else sees it.
- An ICBM kills every unit within its blast radius (its owner's too) and devastates every
  player city there: the city is gone and its square is waste nobody may enter or take.
  Neutral cities lose their units only.
- Each nation that lost a city declares war on the launcher and, if it has an ICBM in range,
  launches one back at the best target it can see (unit build hours + the city score per city,
  times the relation modifier, summed over the blast; launched only at the threshold or more).
  A counter-launch devastates and declares war the same way but triggers no further launches.
"""

from __future__ import annotations

import numpy as np

from engine.strategic import events as ev
from engine.strategic.systems.combat import destroy
from engine.strategic.systems.diplomacy import change
from engine.strategic.systems.economy import limit_dropped, power_limit
from engine.strategic.systems.sight import Sight, observers
from engine.strategic.world import WASTE, Unit, World


def can_launch_from(world: World, unit: Unit) -> bool:
    """On the ground in one of its nation's cities of the type that builds it, or carried."""
    if unit.carried_by is not None:
        return True
    city = world.cities.get(unit.sq)
    ut = world.rules.unit[unit.type]
    return city is not None and city.owner == unit.owner and city.designation == ut.built_in


def launch_satellite(world: World, unit: Unit, target: int) -> list[ev.Event]:
    owner = unit.owner
    world.remove_unit(unit)
    world.satellites.append((owner, target))
    world.static_sight_version += 1
    others = [n for n in world.nations if n != owner]
    return [
        ev.SatelliteLaunched(
            tick=world.tick, to=[owner], nation=owner, square=world.grid.label(target)
        ),
        ev.SatelliteLaunched(tick=world.tick, to=others, nation=owner),
    ]


def launch_icbm(world: World, unit: Unit, target: int, *, counter: bool = False) -> list[ev.Event]:
    """The launch is news to every nation (launcher, square, blast); what it destroyed each
    nation is told as far as it saw: the cities it saw devastated or lost, the units it is
    told died (its own, those it saw), and wars only to the two sides."""
    rules = world.rules
    ut = rules.unit[unit.type]
    owner = unit.owner
    radius = ut.blast_radius or 0
    world.remove_unit(unit)
    out: list[ev.Event] = []
    devastated: dict[str, list[str]] = {n: [] for n in world.nations}
    losers: list[str] = []
    blast = world.grid.within(target, radius)
    # who saw what, before anything in the blast (their own eyes included) is gone
    # every unit in the blast, cargo included (a carrier dying in a port sets its cargo loose)
    victims = [v for sq in blast for v in world.units_at(sq)]
    saw = {v.id: observers(world, v.sq, v) | {v.owner} for v in victims}
    saw_city = {sq: observers(world, sq) for sq in blast if sq in world.cities}
    owners = {c.owner for sq in blast if (c := world.cities.get(sq)) and c.owner is not None}
    limits = {n: power_limit(world, n) for n in owners}  # before: lost cities lower them
    for victim in victims:
        if victim.id in world.units:
            destroy(world, victim, owner, out, seers=saw[victim.id])
    for sq in blast:
        city = world.cities.get(sq)
        if city is not None and city.owner is not None:
            label = world.grid.label(sq)
            for nation in saw_city[sq] | {city.owner}:
                devastated[nation].append(label)
            losers.append(city.owner)
            del world.cities[sq]
            world.terrain[sq] = WASTE
    if losers:
        world.map_changed()
    out[:0] = tell_launch(
        world,
        out,
        owner,
        losers,
        devastated,
        unit_type=unit.type,
        square=world.grid.label(target),
        radius=radius,
        counter=counter,
    )
    for nation in sorted(set(losers)):
        out.extend(limit_dropped(world, nation, limits[nation]))
    if not counter:
        for nation in sorted(set(losers)):
            if nation != owner and not world.nations[nation].out:
                out.extend(counter_launch(world, nation))
    return out


def tell_launch(
    world: World,
    out: list[ev.Event],
    owner: str,
    losers: list[str],
    devastated: dict[str, list[str]],
    **news: object,
) -> list[ev.Event]:
    """The launch's news to every nation, each told the cities it saw lost and how many units
    it is told died (`out`'s UnitDestroyed); and the wars on the launcher of those that lost
    cities, declared now (their RelationChanged events go into `out`)."""
    rules = world.rules
    destroyed = {n: 0 for n in world.nations}
    for e in out:
        if isinstance(e, ev.UnitDestroyed):
            for nation in e.to:
                destroyed[nation] += 1
    war_with = sorted({n for n in losers if n != owner})
    for nation in war_with:
        out.extend(change(world, nation, owner, rules.diplomacy.war))
        out.extend(change(world, owner, nation, rules.diplomacy.war))
    told: dict[tuple, list[str]] = {}
    for nation in world.nations:
        wars = war_with if nation == owner else [n for n in war_with if n == nation]
        key = (tuple(devastated[nation]), destroyed[nation], tuple(wars))
        told.setdefault(key, []).append(nation)
    return [
        ev.IcbmLaunched(
            tick=world.tick,
            to=sorted(to),
            nation=owner,
            devastated=list(cities),
            destroyed=count,
            war_with=list(wars),
            **news,  # type: ignore[arg-type]
        )
        for (cities, count, wars), to in sorted(told.items(), key=lambda kv: kv[1])
    ]


def counter_launch(world: World, nation: str) -> list[ev.Event]:
    """MAD: launch one ICBM at the best target the nation sees, if one scores enough."""
    rules = world.rules
    if rules.icbm is not None:
        return []  # two-part ICBMs (seed 002): a launch is a nation's own decision
    icbms = [
        u
        for u in world.units_of(nation)
        if rules.unit[u.type].blast_radius is not None and can_launch_from(world, u)
    ]
    if not icbms:
        return []
    scores = target_scores(world, nation)
    best: tuple[int, int, int] | None = None  # (score, -unit id, square)
    for radius in sorted({rules.unit[u.type].blast_radius or 0 for u in icbms}, reverse=True):
        summed = _box_sum(scores.reshape(world.height, world.width), radius).reshape(-1)
        for unit in [u for u in icbms if (rules.unit[u.type].blast_radius or 0) == radius]:
            reach = np.zeros(world.grid.size, dtype=bool)
            reach[world.grid.within(unit.sq, unit.mobility)] = True
            masked = np.where(reach, summed, np.iinfo(np.int64).min)
            sq = int(np.argmax(masked))
            candidate = (int(masked[sq]), -unit.id, sq)
            if best is None or candidate[:2] > best[:2]:
                best = candidate
    if best is None or best[0] < rules.combat.mad_threshold:
        return []
    unit = world.units[-best[1]]
    return launch_icbm(world, unit, best[2], counter=True)


def target_scores(world: World, nation: str) -> np.ndarray:
    """Per square the nation sees: (build hours of units + city score) x relation modifier,
    counted per owner."""
    rules = world.rules
    combat_rules = rules.combat
    seen = Sight(world, nation).mask()
    scores = np.zeros(world.grid.size, dtype=np.int64)

    def modifier(owner: str) -> int:
        return combat_rules.mad_relation_modifier.get(world.relation(nation, owner), 0)

    for sq in np.flatnonzero(seen).tolist():
        ids = world.at.get(sq)
        if ids:
            for uid in ids:
                unit = world.units[uid]
                ut = rules.unit[unit.type]
                if ut.stealth and unit.owner != nation:
                    continue
                scores[sq] += ut.cost_hours * modifier(unit.owner)
        city = world.cities.get(sq)
        if city is not None and city.owner is not None:
            scores[sq] += combat_rules.mad_city_score * modifier(city.owner)
    return scores


def _box_sum(grid: np.ndarray, radius: int) -> np.ndarray:
    """Sum over every (2r+1)^2 window, wrapping."""
    out = grid.copy()
    for axis in (0, 1):
        acc = out.copy()
        for d in range(1, radius + 1):
            acc += np.roll(out, d, axis=axis) + np.roll(out, -d, axis=axis)
        out = acc
    return out
