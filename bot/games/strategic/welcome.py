"""The welcome DM a player gets on joining a game: their nation, their start, the game's
clock, and their first three orders with their own squares and unit ids. Built from the
nation's view only (like every DM); pure, no Discord and no I/O. The notifier sends it in
place of the one-line "You joined" report, through the outbox like every report, so it is
not lost when the bot stops or the DMs are closed for a while."""

from __future__ import annotations

import numpy as np

from engine.interface.colours import name_of
from engine.strategic.rules import Ruleset
from engine.strategic.view import NEVER_SEEN, CityView, UnitView, View


def _distance(view: View, a: int, b: int) -> int:
    """Chebyshev distance on the torus."""
    dx = abs(a % view.width - b % view.width)
    dy = abs(a // view.width - b // view.width)
    return max(min(dx, view.width - dx), min(dy, view.height - dy))


def _city_line(view: View, rules: Ruleset, city: CityView) -> str:
    kind = rules.city[city.designation].title.lower() if city.designation in rules.city else ""
    build = rules.unit[city.build].title.lower() if city.build in rules.unit else None
    return f"{view.label(city.sq)} ({kind}" + (f", builds {build})" if build else ")")


def _units_of(view: View, rules: Ruleset, units: list[UnitView]) -> str:
    counts: dict[str, list[int]] = {}
    for u in units:
        counts.setdefault(u.type, []).append(u.id)
    parts = []
    for utype, ids in counts.items():
        title = rules.unit[utype].title.lower() if utype in rules.unit else utype
        parts.append(f"{len(ids)} {title} ({', '.join(str(i) for i in ids)})")
    return ", ".join(parts)


def _unexplored(view: View, start: int) -> int | None:
    """The never-seen square nearest to `start` (ties: the lowest square), if any."""
    unseen = np.flatnonzero(view.terrain == NEVER_SEEN)
    if unseen.size == 0:
        return None
    xs, ys = unseen % view.width, unseen // view.width
    dx = np.abs(xs - start % view.width)
    dy = np.abs(ys - start // view.width)
    dist = np.maximum(np.minimum(dx, view.width - dx), np.minimum(dy, view.height - dy))
    return int(unseen[int(np.argmin(dist))])


def first_orders(view: View, rules: Ruleset, capital: int | None) -> list[str]:
    """Three orders worth giving first, with the nation's own squares and unit ids."""
    own = [u for u in view.own_units() if u.carried_by is None]
    centre = capital if capital is not None else (own[0].sq if own else None)
    orders = [
        f"`/map at:{view.label(centre)} radius:6`: your home and what you see around it "
        "(`/map` alone: the part of the board you know, with buttons to zoom)"
        if centre is not None
        else "`/map`: the map as you know it"
    ]
    soldiers = [
        u
        for u in own
        if u.type in rules.unit
        and rules.unit[u.type].unit_class == "land"
        and rules.unit[u.type].attack
    ]
    neutral = [c for c in view.cities.values() if c.owner is None and c.seen != "own"]
    took = None
    if soldiers and neutral:
        soldier = soldiers[0]
        city = min(neutral, key=lambda c: (_distance(view, soldier.sq, c.sq), c.sq))
        took = soldier.id
        cost = rules.command_points.costs.capture
        orders.append(
            f"`/attack units:{soldier.id} target:{view.label(city.sq)}`: take the neutral city at "
            f"{view.label(city.sq)} with your {rules.unit[soldier.type].title.lower()} "
            f"{soldier.id} ({cost} command points)"
        )
    scouts = [
        u
        for u in own
        if u.id != took
        and u.type in rules.unit
        and rules.unit[u.type].unit_class == "air"
        and rules.unit[u.type].mobility > 0
    ]
    target = _unexplored(view, scouts[0].sq) if scouts else None
    if scouts and target is not None:
        scout = scouts[0]
        orders.append(
            f"`/move units:{scout.id} to:{view.label(target)}`: send your "
            f"{rules.unit[scout.type].title.lower()} {scout.id} to look beyond what you know "
            f"({rules.command_points.costs.move} command point)"
        )
    cities = sorted(view.own_cities(), key=lambda c: c.sq)
    for city in cities:
        if len(orders) >= 3:
            break
        options = [
            u
            for u in rules.builds_of(city.designation)
            if u.structure is None and u.tech <= view.status.tech and u.name != city.build
        ]
        if options:
            orders.append(
                f"`/build city:{view.label(city.sq)} unit:{options[0].name}`: what your city at "
                f"{view.label(city.sq)} builds (free; `/cities` lists them)"
            )
    if len(orders) < 3:
        orders.append("`/units` and `/cities`: what you have and what your cities build")
    return [f"{i}. {text}" for i, text in enumerate(orders[:3], 1)]


def welcome(
    view: View,
    rules: Ruleset,
    *,
    game_name: str,
    capital: str | None,
    started: bool,
    joined: int,
    seats: int,
    length_days: int,
    seconds_per_hour: float,
    end_at: float | None = None,
) -> str:
    """The welcome message (at most 2000 characters). `capital` is the label of the first home
    city, `end_at` when the game ends in real time (a started game whose clock runs)."""
    me = view.nations.get(view.nation)
    name = me.name if me is not None else view.nation
    colour = me.colour if me is not None else ""
    colour = name_of(colour) or colour
    cap_sq = None
    if capital is not None:
        x, y = (int(v) for v in capital.split(","))
        cap_sq = y * view.width + x
    cities = sorted(view.own_cities(), key=lambda c: (c.sq != cap_sq, c.sq))
    leader = f"{me.title} {me.leader}".strip() if me is not None and me.leader else ""
    whom = f"{leader} of {name}" if leader else name
    lines = [f"**Welcome to {game_name}, {whom}!** Your colour on the map is **{colour}**."]
    if cities:
        home = cities[0]
        here = [u for u in view.own_units() if u.sq == home.sq]
        lines.append(
            f"Your capital: **{_city_line(view, rules, home)}**"
            + (f" with {_units_of(view, rules, here)}" if here else "")
            + "."
        )
        for city in cities[1:]:
            there = [u for u in view.own_units() if u.sq == city.sq]
            lines.append(
                f"Also yours: {_city_line(view, rules, city)}"
                + (f" with {_units_of(view, rules, there)}" if there else "")
                + "."
            )
    day_minutes = round(24 * seconds_per_hour / 60)
    real = (
        f"{day_minutes / 60:g} real hours" if day_minutes >= 120 else f"{day_minutes} real minutes"
    )
    length = (
        f"The game lasts {length_days} game days ({rules.title} rules); a game day takes {real}"
    )
    if started:
        lines.append(
            length
            + (f": it ends <t:{int(end_at)}:f> (<t:{int(end_at)}:R>)." if end_at else ".")
            + f" It has started: it is {view.clock}."
        )
    else:
        lines.append(
            length + f". It has not started yet ({joined}/{seats} nations): it starts when it "
            "is full or when its creator or a moderator uses `/game start`. Time, command "
            f"points ({view.status.cp} to start with) and builds start then, and you will get "
            "a DM with your map; until then orders wait."
        )
    lines.append("**Your first orders**" + ("" if started else " (once it has started)"))
    lines.extend(first_orders(view, rules, cap_sq))
    lines.append(
        "`/help` explains the rules, `/news` shows your reports again, `/notify` sets quiet hours."
    )
    return "\n".join(lines)[:2000]
