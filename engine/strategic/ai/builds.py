"""Cities: what each of its cities is designated as and what it builds, by need, never
wasting progress; at war, where what they build goes (a waypoint to the front)."""

from __future__ import annotations

from engine.strategic import commands as cmd
from engine.strategic.ai import icbms
from engine.strategic.ai.state import Plan
from engine.strategic.rules.models import UnitClass


def buildable(p: Plan, name: str) -> bool:
    ut = p.rules.unit.get(name)
    return ut is not None and ut.tech <= p.view.status.tech + 1e-9


def want_for(p: Plan, designation: str) -> str | None:
    """What a city of this designation should build now."""
    profile = p.profile
    tech = p.view.status.tech
    if designation == "fort":
        if profile.builds_tanks and buildable(p, "tank") and p.rng.random() < profile.tank_share:
            return "tank"
        return "infantry"
    if designation == "port":
        transports = sum(1 for u in p.own if u.type == "transport")
        room = max(1, p.rules.unit["transport"].capacity)
        more = profile.transports_extra + len(p.my_cities) // profile.cities_per_transport
        wanted = 1 + min(p.stranded() // room, more)
        warships = sum(1 for u in p.own if u.type in ("battleship", "destroyer"))
        fighting = profile.warships_for_war and bool(p.at_war or p.memory.target)
        if (
            fighting
            and buildable(p, "battleship")
            and warships <= transports // profile.transports_per_battleship
        ):
            return "battleship"
        if transports < wanted or not profile.builds_warships:
            return "transport"
        for name in ("battleship", "destroyer", "patrol_boat"):
            if buildable(p, name):
                return name
        return "transport"
    if designation == "airport":
        if profile.builds_bombers and buildable(p, "heavy_bomber"):
            bombers = sum(1 for u in p.own if u.type == "heavy_bomber")
            fighters = sum(1 for u in p.own if u.type == "fighter")
            if bombers <= fighters:
                return "heavy_bomber"
        return "fighter" if buildable(p, "fighter") else None
    if designation == "tech":
        founders = [n for n, ut in p.rules.unit.items() if ut.builds_cities]
        if profile.builds_engineers and founders and buildable(p, founders[0]):
            have = sum(1 for u in p.own if u.type in founders)
            more = len(p.my_cities) // profile.cities_per_engineer
            if have < min(profile.engineers_max, 1 + more):
                return founders[0]
        missile = icbms.want(p)
        if missile is not None:
            return missile
        scouts = sum(1 for u in p.own if u.type == "zeppelin")
        if tech < profile.zeppelin_tech and buildable(p, "zeppelin") and scouts < profile.zeppelins:
            return "zeppelin"
        if buildable(p, "research"):
            return "research"
        return None
    return None


def cities(p: Plan) -> None:
    """Designate (a fort by default, ports while there is somewhere overseas to go, one
    airport) and set each city's build and next build."""
    rules, profile = p.rules, p.profile
    cities = sorted(p.my_cities.values(), key=lambda c: c.sq)
    overseas = p.overseas_targets()
    designations = [c.designation for c in cities]
    room = max(1, rules.unit["transport"].capacity)
    ports_wanted = 0
    if overseas:
        ports_wanted = 1
        if profile.more_ports and p.stranded() > profile.port_loads_waiting * room:
            ports_wanted += len(cities) // profile.cities_per_port
    for i, city in enumerate(cities):
        ct = rules.city[city.designation]
        coastal = p.map.coastal(city.sq)
        new = None
        if not ct.builds_units or not ct.designatable:
            new = "fort"
        if (
            overseas
            and coastal
            and designations.count("port") < ports_wanted
            and city.designation not in ("tech", "port", "airport")
            and (i > 0 or len(cities) == 1 or city.designation != "fort")
        ):
            new = "port"
        if (
            profile.builds_airport
            and buildable(p, "fighter")
            and len(cities) >= profile.airport_cities
            and "airport" not in designations
            and city.designation == "fort"
            and i == len(cities) - 1
        ):
            new = "airport"
        xy = p.map.xy(city.sq)
        if new and new != city.designation and new in rules.city:
            if rules.city[new].needs_coast and not coastal:
                continue
            p.issue(cmd.Designate(city=xy, designation=new))
            designations[i] = new
            continue
        want = want_for(p, city.designation)
        if want is not None:  # the newest generation the tech allows (seed 002; else itself)
            want = rules.newest(want, p.view.status.tech)
        if want is None or not buildable(p, want):
            continue
        if rules.unit[want].built_in != city.designation:
            continue
        if city.build == want:
            continue
        if city.build is None or not city.progress:
            p.issue(cmd.SetBuild(city=xy, unit=want))
        elif city.next_build != want:
            p.issue(cmd.SetNextBuild(city=xy, unit=want))


def waypoints(p: Plan) -> None:
    """At war, each city that builds land units and holds its whole garrison sends what it
    builds next to the nearest enemy city on its island (`/waypoint`: one city order, instead
    of a move order for each new unit once it is idle); a waypoint no longer wanted (no enemy
    city left on the island, the garrison short) is cleared."""
    rules, known, profile = p.rules, p.map, p.profile
    enemies = sorted(
        c.sq for c in p.view.cities.values() if c.owner is not None and c.owner in p.at_war
    )
    for city in sorted(p.my_cities.values(), key=lambda c: c.sq):
        builds = rules.unit.get(city.build or "")
        goal = None
        if (
            enemies
            and builds is not None
            and builds.unit_class == UnitClass.LAND
            and not p.shortfall.get(city.sq)
        ):
            near = [
                (known.dist(city.sq, e), e)
                for e in enemies
                if known.same_island(city.sq, e)
                and known.dist(city.sq, e) <= profile.frontline_radius * 2
            ]
            if near:
                goal = known.approach(city.sq, min(near)[1])
        if goal == city.sq:
            goal = None
        if goal == city.waypoint:
            continue
        if goal is None and city.waypoint is None:
            continue
        cost = rules.command_points.costs.city_orders
        to = None if goal is None else known.xy(goal)
        if p.issue(cmd.SetWaypoint(city=known.xy(city.sq), to=to), cost):
            p.notes.append(
                f"the city at {p.view.label(city.sq)} sends its units to "
                + (p.view.label(goal) if goal is not None else "nowhere now")
            )
