"""Across the water: transports take idle land units aboard in port or off a beach, sail to a
landing next to an overseas target they can reach, and put their cargo ashore (or take an
empty city straight from the ship)."""

from __future__ import annotations

from engine.strategic import commands as cmd
from engine.strategic.ai.known import LAND, WATER
from engine.strategic.ai.state import Plan
from engine.strategic.view import UnitView


def transports(p: Plan) -> None:
    """Each transport not given anything else to do loads, picks up, waits for units on
    their way (a while) or sails."""
    overseas = p.overseas_targets()
    memory = p.memory
    claimed = {g for ship, g in memory.voyages.items() if g in overseas}
    waits = p.profile.loading_hours * p.rules.ticks_per_hour
    for ship in p.own:
        if ship.type != "transport" or ship.id in p.busy:
            continue
        room = p.rules.unit[ship.type].capacity
        cargo = [u for u in p.own if u.carried_by == ship.id]
        boarded = load(p, ship, room - len(cargo)) if overseas else 0
        if not cargo and not boarded:
            memory.loading.pop(ship.id, None)
            if overseas:
                pick_up(p, ship)
            continue
        since = memory.loading.setdefault(ship.id, p.view.tick)
        near = {ship.sq, *p.map.neighbours(ship.sq)}
        coming = sum(1 for g in memory.sent.values() if g in near)
        full = len(cargo) + boarded >= room
        if not full and coming and p.view.tick - since < waits:
            continue  # more are on their way
        sail(p, ship, cargo, overseas, claimed)


def load(p: Plan, ship: UnitView, room: int) -> int:
    """Idle land units on the transport's square (in port) or next to it (at sea) board."""
    if room <= 0 or ship.order is not None:
        return 0
    if ship.sq in p.my_cities:
        here = [u for u in p.land_units() if u.sq == ship.sq and p.idle(u)][:room]
        if here:
            ids = [u.id for u in here]
            p.issue(cmd.Board(units=ids, carrier=ship.id), 0, ids)
        return len(here)
    boarded = 0
    if p.profile.naive_loading:
        return 0  # boards in port only
    for u in p.land_units():
        if boarded >= room or not p.idle(u) or p.map.dist(u.sq, ship.sq) != 1:
            continue
        if p.move(u, ship.sq):
            boarded += 1
    return boarded


def pick_up(p: Plan, ship: UnitView) -> None:
    """An empty transport calls idle land units to its port, or sails to the port or the
    beach nearest to idle land units."""
    known, profile = p.map, p.profile
    room = p.rules.unit[ship.type].capacity
    idle = [u for u in p.land_units() if p.idle(u)]
    if not idle:
        return
    if ship.sq in p.my_cities:
        call_to(p, ship.sq, room)
        return
    if ship.order is not None or (ship.mobility or 0) < 1:
        return
    ports = [
        sq
        for sq, c in p.my_cities.items()
        if p.rules.city[c.designation].ship_passage and known.coastal(sq)
    ]
    spots: list[tuple[int, int, int]] = []
    if profile.naive_loading:  # back to the nearest port
        spots = [(known.dist(ship.sq, sq), sq, -1) for sq in ports]
        idle = []
    for sq in ports:
        near = sum(1 for u in idle if known.same_island(u.sq, sq))
        if near:
            pull = profile.port_pull * min(near, room)
            spots.append((known.dist(ship.sq, sq) - pull, sq, -1))
    if idle:
        beach_unit = min(idle, key=lambda u: (known.dist(ship.sq, u.sq), u.id))
        for n in known.neighbours(beach_unit.sq):
            if known.at_sea(n) and not p.units_at.get(n):
                spots.append((known.dist(ship.sq, n), n, beach_unit.sq))
    for _, sq, shore in sorted(spots)[: profile.pickup_choices]:
        if p.move(ship, sq):
            if shore >= 0:
                call_to(p, shore, room - 1)
            return


def sail(
    p: Plan, ship: UnitView, cargo: list[UnitView], overseas: list[int], claimed: set[int]
) -> None:
    """A loaded transport sails next to its overseas target and lands its cargo there."""
    if not overseas or ship.order is not None:
        return
    known = p.map
    goal = p.memory.voyages.get(ship.id)
    if goal not in overseas:
        free = [t for t in overseas if t not in claimed] or overseas
        goal = min(free, key=lambda t: (known.dist(ship.sq, t), t))
        p.memory.voyages[ship.id] = goal
        claimed.add(goal)
    if known.dist(ship.sq, goal) <= p.profile.landing_range:
        # ashore next to the target (a cargo unit next to an empty city took it already)
        shore = [
            n
            for n in known.neighbours(ship.sq)
            if known.terrain(n) == LAND
            and n not in p.view.cities
            and known.islands_of(n) & known.islands_of(goal)
        ]
        if shore:
            land = min(shore, key=lambda n: (known.dist(n, goal), n))
            for u in cargo:
                if u.id not in p.busy and (u.mobility or 0) >= 1:
                    p.move(u, land)
            return
    if (ship.mobility or 0) < 1:
        return
    for dock in docks(p, ship, goal):
        if p.move(ship, dock):
            return
    p.memory.voyages.pop(ship.id, None)  # no way there for now: another target next time


def docks(p: Plan, ship: UnitView, goal: int) -> list[int]:
    """Water squares a transport may lie at to land units next to a city: next to the city,
    or next to a land square next to it; nearest the ship first."""
    known, cities = p.map, p.view.cities
    near = set()
    for n in known.neighbours(goal):
        if known.terrain(n) == WATER and n not in cities:
            near.add(n)
        elif known.terrain(n) == LAND and n not in cities:
            near.update(
                m for m in known.neighbours(n) if known.terrain(m) == WATER and m not in cities
            )
    order = sorted(near, key=lambda d: (known.dist(goal, d) > 1, known.dist(ship.sq, d), d))
    return order[: p.profile.dock_choices]


def call_to(p: Plan, sq: int, count: int) -> None:
    """The nearest idle land units that can walk there come to a square (a port, a beach)."""
    known = p.map
    idle = sorted(
        (u for u in p.land_units() if p.idle(u) and known.same_island(u.sq, sq)),
        key=lambda u: (known.dist(u.sq, sq), u.id),
    )
    for unit in idle[: max(0, count)]:
        if unit.sq != sq:
            p.move(unit, sq)
