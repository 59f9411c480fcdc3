"""On land: garrisons (chosen by threat, kept in their cities, topped up), expansion to the
cities to take on each unit's island, engineers founding cities near home, and scouting."""

from __future__ import annotations

import numpy as np

from engine.strategic import commands as cmd
from engine.strategic.ai.known import LAND
from engine.strategic.ai.state import Plan
from engine.strategic.rules.models import MovesOn, UnitClass
from engine.strategic.systems.supply import dilate
from engine.strategic.view import NEVER_SEEN, UnitView

FAR = 100  # added to the distance of a city site away from home: any site near home first


def hold(p: Plan) -> None:
    """Choose each city's garrison: a land unit, more at war where hostile land units stand
    near or an enemy city is close. They stay (and only fight from the city)."""
    profile, dist_many = p.profile, p.map.dist_many
    p.garrisons = set()
    p.shortfall = {}
    threats: list[int] = []
    enemy_cities: list[int] = []
    if p.at_war:
        threats = [
            u.sq
            for u in p.hostile_units()
            if p.rules.unit[u.type].unit_class == UnitClass.LAND and u.carried_by is None
        ]
        enemy_cities = [c.sq for c in p.view.cities.values() if c.owner in p.at_war]
    ashore: dict[int, list[UnitView]] = {}
    for u in p.land_units():
        if u.carried_by is None and u.sq in p.my_cities:
            ashore.setdefault(u.sq, []).append(u)
    threat_sq = np.array(threats, dtype=np.int64)
    enemy_sq = np.array(enemy_cities, dtype=np.int64)
    for sq in sorted(p.my_cities):
        need = profile.garrison
        if threats:
            near = int((dist_many(sq, threat_sq) <= profile.threat_radius).sum())
            need += min(profile.garrison_threat_extra, near)
        if (
            need < profile.garrison_frontline
            and enemy_sq.size
            and int(dist_many(sq, enemy_sq).min()) <= profile.frontline_radius
        ):
            need = profile.garrison_frontline
        here = sorted(ashore.get(sq, []), key=lambda u: (-(u.hp or 0), u.id))
        p.garrisons.update(u.id for u in here[:need])
        if len(here) < need:
            p.shortfall[sq] = need - len(here)


def garrison(p: Plan) -> None:
    """Garrisons stay; a city short of its garrison calls the nearest idle land units."""
    known = p.map
    p.busy.update(p.garrisons)
    for sq, missing in sorted(p.shortfall.items()):
        coming = sum(1 for g in p.memory.sent.values() if g == sq)
        if missing <= coming:
            continue
        idle = sorted(
            (
                u
                for u in p.land_units()
                if p.idle(u)
                and known.dist(u.sq, sq) <= p.profile.garrison_call_radius
                and known.same_island(u.sq, sq)
            ),
            key=lambda u: (known.dist(u.sq, sq), u.id),
        )
        for unit in idle[: missing - coming]:
            p.move(unit, sq)


def expand(p: Plan) -> None:
    """Idle land units go next to the nearest city to take on their island: a few per
    neutral city, more per enemy city (an assault needs numbers)."""
    known, profile = p.map, p.profile
    targets = np.array(p.targets(), dtype=np.int64)
    if targets.size == 0:
        return
    claimed: dict[int, int] = {}
    for goal in p.memory.sent.values():
        claimed[goal] = claimed.get(goal, 0) + 1
    # the nearest targets of a square, worked out once for the units that stand on it
    nearest: dict[int, tuple[np.ndarray, list[int]] | None] = {}
    for unit in sorted(p.land_units(), key=lambda u: u.id):
        if not p.idle(unit) or p.cp < p.cost_move:
            continue
        if unit.sq not in nearest:
            d = known.dist_many(unit.sq, targets)
            in_place = bool((d == 1).any())
            nearest[unit.sq] = (
                None
                if in_place
                else (d, np.lexsort((targets, d))[: profile.expand_choices].tolist())
            )
        found = nearest[unit.sq]
        if found is None:
            continue  # in place already
        d, choices = found
        best = None
        for i in choices:
            t = int(targets[i])
            if d[i] > profile.expand_radius:
                break
            if not known.same_island(unit.sq, t):
                continue
            near = known.approach(unit.sq, t)
            neutral = p.view.cities[t].owner is None
            cap = profile.per_neutral_city if neutral else profile.per_enemy_city
            if near is None or claimed.get(near, 0) >= cap:
                continue
            best = near
            break
        if best is not None and best != unit.sq and p.move(unit, best):
            claimed[best] = claimed.get(best, 0) + 1


def city_sites(p: Plan) -> np.ndarray:
    """Known land squares where a new city would stand apart: nothing known within
    `site_spacing` squares of it is a city, and no foreign unit is seen on it."""
    w, h = p.map.w, p.map.h
    grid = (p.view.terrain == LAND).reshape(h, w)
    cities = np.zeros(w * h, dtype=bool)
    cities[list(p.view.cities)] = True
    ok = (grid & ~dilate(cities.reshape(h, w), p.profile.site_spacing)).reshape(-1)
    for u in p.view.units:
        if u.owner != p.view.nation:
            ok[u.sq] = False
    return np.flatnonzero(ok)


def near_home(p: Plan) -> np.ndarray:
    """Flat bool mask: squares within `home_radius` of an own city."""
    w, h = p.map.w, p.map.h
    home = np.zeros(w * h, dtype=bool)
    home[list(p.my_cities)] = True
    return dilate(home.reshape(h, w), p.profile.home_radius).reshape(-1)


def found_cities(p: Plan) -> None:
    """Engineers found cities on open land near home: command points turned into cities
    (a city counts at the end like any other)."""
    known, profile = p.map, p.profile
    cost = p.rules.command_points.costs.build_city
    need = p.rules.engineer.build_city_mobility
    sites: np.ndarray | None = None
    home: np.ndarray | None = None
    for unit in p.own:
        ut = p.rules.unit[unit.type]
        if not ut.builds_cities or unit.id in p.busy or unit.carried_by is not None:
            continue
        if sites is None:
            sites = city_sites(p)
        here = sites.size and bool(np.any(sites == unit.sq))
        if here:
            p.busy.add(unit.id)  # stays until it has the mobility
            if (unit.mobility or 0) >= need and p.cp >= cost:
                p.issue(cmd.BuildCity(unit=unit.id), cost, [unit.id])
                p.notes.append(f"engineer {unit.id} founds a city at {p.view.label(unit.sq)}")
                sites = sites[sites != unit.sq]
                # nothing else that near the new city
                sites = sites[known.dist_many(unit.sq, sites) > profile.site_spacing]
            continue
        if unit.order is not None or sites.size == 0:
            continue
        d = known.dist_many(unit.sq, sites)
        if p.my_cities:
            # near home first
            if home is None:
                home = near_home(p)
            d = d + np.where(home[sites], 0, FAR)
        for i in np.argsort(d, kind="stable")[: profile.site_choices].tolist():
            goal = int(sites[i])
            claimed = [
                g for g in p.memory.sent.values() if known.dist(g, goal) <= profile.site_spacing
            ]
            if claimed and p.memory.sent.get(unit.id) != goal:
                continue
            if p.move(unit, goal):
                break


def scout(p: Plan) -> None:
    """Zeppelins and idle land units head for one of the nearest squares never seen (land
    units only where they can walk); an aircraft low on fuel goes home first."""
    known, profile, view = p.map, p.profile, p.view
    unknown: np.ndarray | None = None  # squares never seen (worked out when first needed)
    unknown_by_land: np.ndarray = np.empty(0, dtype=np.int64)  # ...of them, next to land
    options: dict[tuple[int, bool, int], np.ndarray] = {}  # (square, walks, reach) -> nearest
    for unit in p.own:
        ut = p.rules.unit[unit.type]
        scouting = unit.type == "zeppelin" or (
            ut.unit_class == UnitClass.LAND and ut.attack and p.idle(unit)
        )
        if not scouting or not p.idle(unit) or p.cp < p.cost_move:
            continue
        if ut.needs_fuel and unit.fuel is not None and unit.fuel < ut.full_fuel // 2:
            if p.my_cities:
                base = min(p.my_cities, key=lambda s: known.dist(unit.sq, s))
                if base != unit.sq:
                    p.move(unit, base)
            continue
        if unknown is None:
            unknown = np.flatnonzero(view.terrain == NEVER_SEEN)
            near_land = dilate((view.terrain == LAND).reshape(known.h, known.w), 1)
            near_land = near_land.reshape(-1)
            unknown_by_land = unknown[near_land[unknown]]
            if unknown.size == 0:
                return
        walks = ut.moves_on == MovesOn.LAND
        reach = max(1, (unit.fuel or 0) // 2) if ut.needs_fuel else profile.scout_reach
        key = (unit.sq, walks, reach)
        if key not in options:  # worked out once for the scouts alike on one square
            pool = unknown_by_land if walks else unknown
            if walks and pool.size:
                # only what it can walk to: unknown squares next to its own island
                pool = pool[known.shore_of(unit.sq)[pool]]
            d = known.dist_many(unit.sq, pool)
            ok = np.flatnonzero(d <= reach)
            # the nearest few (one of them is taken at random: scouts spread out)
            options[key] = pool[ok[np.argsort(d[ok], kind="stable")[: profile.scout_choices]]]
        nearest = options[key]
        if nearest.size == 0:
            continue
        goal = int(p.rng.choice(nearest.tolist()))
        if ut.moves_on == MovesOn.LAND:
            land_n = [n for n in known.neighbours(goal) if known.terrain(n) == LAND]
            if not land_n:
                continue
            goal = min(land_n, key=lambda n: (known.dist(unit.sq, n), n))
        p.move(unit, goal)
