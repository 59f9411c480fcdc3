"""The economy of a tick: command points, technology and city builds (with the power limit)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitType
from engine.strategic.world import City, World

# --- per-nation city counts (one pass over the cities) ------------------------------------


@dataclass
class CityCounts:
    cities: int = 0
    bases: int = 0
    tech_centres: int = 0


def city_counts(world: World, cities: Iterable[City] | None = None) -> dict[str, CityCounts]:
    """Each owner's counts, of the world's cities (or of these: a nation's own, say)."""
    rules = world.rules
    counts: dict[str, CityCounts] = {}
    for city in world.cities.values() if cities is None else cities:
        if city.owner is None:
            continue
        c = counts.get(city.owner)
        if c is None:
            c = counts[city.owner] = CityCounts()
        ct = rules.city[city.designation]
        c.cities += 1
        c.bases += ct.counts_as_base
        if ct.tech_weight:
            c.tech_centres += ct.tech_weight + (
                rules.unit[city.build].tech_bonus if city.build else 0
            )
    return counts


# --- command points -----------------------------------------------------------------------


def cp_regen(world: World, nation: str, counts: CityCounts | None = None) -> int:
    """Command points the nation gains this tick."""
    regen = world.rules.command_points.regen
    c = counts if counts is not None else city_counts(world).get(nation, CityCounts())
    total = (
        c.cities * regen.per_city
        + c.bases * regen.per_base_extra
        + world.capital_ships(nation) * regen.per_capital_ship
    )
    return max(regen.min, min(regen.max, total // regen.divisor))


def regenerate_command_points(world: World, counts: dict[str, CityCounts]) -> None:
    cap = world.rules.command_points.max
    empty = CityCounts()
    for nation in world.nations.values():
        if nation.out:
            continue
        nation.cp = min(cap, nation.cp + cp_regen(world, nation.id, counts.get(nation.id, empty)))


# --- technology -------------------------------------------------------------------------------


def daily_tech_gain(world: World, nation: str, top: float, centres: int) -> float:
    """A day's tech gain: the tech-centre table plus the larger of the two leaks."""
    rules = world.rules
    me = world.nations[nation]
    gain = rules.tech.gain_for(centres)
    leak = (top - me.tech) / rules.tech.leak_top_divisor
    for other in world.team(nation) - {nation}:
        leak = max(leak, (world.nations[other].tech - me.tech) / rules.tech.leak_ally_divisor)
    return gain + max(0.0, leak)


def accrue_tech(world: World, counts: dict[str, CityCounts]) -> list[ev.Event]:
    """Add a tick's share of each nation's daily gain (all computed from the same snapshot)."""
    rules = world.rules
    alive = [n for n in world.nations.values() if not n.out]
    if not alive:
        return []
    top = max(n.tech for n in alive)
    empty = CityCounts()
    gains = {
        n.id: daily_tech_gain(world, n.id, top, counts.get(n.id, empty).tech_centres)
        / rules.ticks_per_day
        for n in alive
    }
    out: list[ev.Event] = []
    for nation in alive:
        before = nation.tech
        nation.tech = min(rules.tech.max, nation.tech + gains[nation.id])
        if int(nation.tech) > int(before):
            world.static_sight_version += 1  # radar ranges grow with whole tech levels
            out.append(
                ev.TechReached(
                    tick=world.tick, to=[nation.id], nation=nation.id, level=int(nation.tech)
                )
            )
    return out


# --- power ------------------------------------------------------------------------------------


def power(world: World, nation: str, extra_hours: int = 0) -> int:
    """Power in points: build hours of all units (those that count), in rounded tens."""
    per = world.rules.power.hours_per_point
    return (world.power_hours(nation) + extra_hours + per // 2) // per


def power_limit(world: World, nation: str, counts: CityCounts | None = None) -> int:
    cities = (
        counts.cities
        if counts is not None
        else sum(1 for c in world.cities.values() if c.owner == nation)
    )
    return world.rules.power.limit_per_city * cities


def limit_dropped(world: World, nation: str, was: int) -> list[ev.Event]:
    """After the nation lost a city (its power limit was `was`): a warning when builds its
    cities have under way, which would have been made under the old limit, would now be
    skipped for power (`_complete`'s test)."""
    limit = power_limit(world, nation)
    if limit >= was or world.nations[nation].out:
        return []
    rules = world.rules
    cities: list[str] = []
    for city in world.cities_of(nation):
        ut = rules.unit.get(city.build) if city.build else None
        if ut is None or not ut.counts_for_power:
            continue
        after = power(world, nation, ut.cost_hours)
        if limit < after <= was:
            cities.append(world.grid.label(city.sq))
    if not cities:
        return []
    return [
        ev.PowerLimitDropped(
            tick=world.tick,
            to=[nation],
            nation=nation,
            limit=limit,
            was=was,
            power=power(world, nation),
            cities=sorted(cities),
        )
    ]


# --- builds -----------------------------------------------------------------------------------


def default_build(world: World, designation: str, tech: float) -> str | None:
    """What a city of this designation builds by default: its first unit the tech allows."""
    rules = world.rules
    if not rules.city[designation].builds_units:
        return None
    for ut in rules.builds_of(designation):
        if ut.tech <= tech and not ut.structure:
            return ut.name
    return None


def set_build(world: World, city: City, unit: UnitType | None) -> None:
    """Set the current build; the designation follows the unit; progress is lost."""
    moved = unit is not None and city.designation != unit.built_in
    if unit is None:
        city.build = None
    else:
        city.build = unit.name
        city.designation = unit.built_in
    city.progress = 0
    city.skipped = False
    city.waypoint = None  # what it sent there was another build's (original game)
    if moved:  # what a city sees and supplies follows its designation, not its build
        world.cities_changed(city.owner)


def progress_builds(world: World) -> list[ev.Event]:
    rules = world.rules
    tph = rules.ticks_per_hour
    out: list[ev.Event] = []
    for sq in sorted(world.cities):
        city = world.cities[sq]
        if city.owner is None or city.build is None:
            continue
        ut = rules.unit[city.build]
        city.progress += 1
        # a city back from a wasteland builds at its output: 10% takes ten times as long
        if city.progress * city.output < ut.cost_hours * tph * 100:
            continue
        city.progress = 0
        out.extend(_complete(world, city, ut))
        out.extend(_switch_to_next(world, city))
    return out


def _complete(world: World, city: City, ut: UnitType) -> list[ev.Event]:
    nation = city.owner
    assert nation is not None
    label = world.grid.label(city.sq)
    if ut.becomes is not None:
        city.designation = ut.becomes
        world.cities_changed(city.owner)
        city.build = default_build(world, ut.becomes, world.nations[nation].tech)
        city.waypoint = None  # a new designation, a new build: as any change of build
        return [city_changed(world, city)]
    if ut.structure == "research":
        return []
    if ut.counts_for_power:
        after = power(world, nation, ut.cost_hours)
        limit = power_limit(world, nation)
        if after > limit:
            if city.skipped:  # told already: the build is retried quietly
                return []
            city.skipped = True
            return [
                ev.BuildSkipped(
                    tick=world.tick,
                    to=[nation],
                    nation=nation,
                    city=label,
                    unit=ut.name,
                    power=after,
                    limit=limit,
                )
            ]
    city.skipped = False
    unit = world.add_unit(ut.name, nation, city.sq)
    if city.waypoint is not None:
        unit.set_order(city.waypoint)  # it sets out at once (`clock`), as any standing order
    return [
        ev.UnitBuilt(
            tick=world.tick, to=[nation], nation=nation, city=label, unit=ut.name, unit_id=unit.id
        )
    ]


def _switch_to_next(world: World, city: City) -> list[ev.Event]:
    if city.next_build is None or city.owner is None:
        return []
    nxt = world.rules.unit[city.next_build]
    if nxt.tech > world.nations[city.owner].tech:
        return []  # keep building the current unit until the tech allows the next one
    city.next_build = None
    set_build(world, city, nxt)
    return [city_changed(world, city)]


def city_changed(world: World, city: City) -> ev.Event:
    """The event telling a city's owner what it is and builds now."""
    assert city.owner is not None
    return ev.CityChanged(
        tick=world.tick,
        to=[city.owner],
        nation=city.owner,
        city=world.grid.label(city.sq),
        designation=city.designation,
        build=city.build,
    )
