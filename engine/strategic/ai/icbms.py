"""Two-part ICBMs and wastelands (ruleset total-war), as the AI plays them.

- Its tech centres build missile bases and warheads (the best it may build), a base and a
  warhead in turn, up to `icbm_pairs` of each, once it is at war; the parts stay where built.
- It launches a ready pair (both in the same city since before this game hour) at the enemy
  city (at war) it knows of whose blast takes the most enemy cities and units, only when the
  chance to hit is worth it (its own ICBM defence counted as the target's, since it does not
  know the enemy's tech: `icbm_min_chance`) and never when the wastelands the hit would make
  would bring the ecological meter to the collapse.
- It invests spare command points (above `invest_reserve`) in its cities back from a wasteland.
- It sends no unit to end its move in a wasteland (`Plan.move`).
"""

from __future__ import annotations

from engine.strategic import commands as cmd
from engine.strategic.ai.state import Plan
from engine.strategic.rules.models import UnitType


def _parts(p: Plan, kind: str) -> list[UnitType]:
    tech = p.view.status.tech + 1e-9
    return [u for u in p.rules.units if u.icbm_part == kind and u.tech <= tech]


def want(p: Plan) -> str | None:
    """What a tech centre builds for ICBMs now (None: nothing)."""
    if p.rules.icbm is None or not p.profile.launches_icbms or not p.at_war:
        return None
    bases, heads = _parts(p, "base"), _parts(p, "warhead")
    if not bases or not heads:
        return None
    part = {u.name: u.icbm_part for u in p.rules.units if u.icbm_part}
    have_bases = sum(1 for u in p.own if part.get(u.type) == "base")
    have_heads = sum(1 for u in p.own if part.get(u.type) == "warhead")
    if have_bases >= p.profile.icbm_pairs and have_heads >= p.profile.icbm_pairs:
        return None
    if have_bases <= have_heads and have_bases < p.profile.icbm_pairs:
        return max(bases, key=lambda u: (u.hit_percent, u.tech)).name
    return max(heads, key=lambda u: (u.hit_percent, u.blast_radius or 0, u.tech)).name


def launch(p: Plan) -> None:
    rules, view = p.rules, p.view
    icbm, waste = rules.icbm, rules.wastelands
    if icbm is None or not p.profile.launches_icbms or not p.at_war:
        return
    start = view.tick - view.tick % rules.ticks_per_hour
    ready: dict[int, dict[str, list]] = {}
    for u in p.own:
        ut = rules.unit[u.type]
        if ut.icbm_part is None or u.carried_by is not None or u.sq not in p.my_cities:
            continue
        if u.built_tick is None or u.built_tick >= start:
            continue
        ready.setdefault(u.sq, {"base": [], "warhead": []})[ut.icbm_part].append(u)
    defence = icbm.defence_at(view.status.tech)
    enemy_cities = [c.sq for c in view.cities.values() if c.owner in p.at_war]
    for parts in ready.values():
        while parts["base"] and parts["warhead"]:
            base = max(parts["base"], key=lambda u: rules.unit[u.type].hit_percent)
            head = max(parts["warhead"], key=lambda u: rules.unit[u.type].hit_percent)
            bt, wt = rules.unit[base.type], rules.unit[head.type]
            if bt.hit_percent + wt.hit_percent - defence < p.profile.icbm_min_chance:
                return
            target = _best_target(p, enemy_cities, wt.blast_radius or 0)
            if target is None:
                return
            sq, cities = target
            if waste is not None and (
                (view.ecology or 0) + cities * waste.ecology_per_wasteland >= waste.collapse_at
            ):
                p.notes.append("icbm: held back, the hit would bring the ecological collapse")
                return
            if not p.issue(
                cmd.Launch(unit=base.id, target=p.map.xy(sq)),
                rules.command_points.costs.launch_icbm,
                [base.id, head.id],
            ):
                return
            p.notes.append(f"icbm: launched at {view.label(sq)}")
            parts["base"].remove(base)
            parts["warhead"].remove(head)
            enemy_cities.remove(sq)


def _best_target(p: Plan, enemy_cities: list[int], radius: int) -> tuple[int, int] | None:
    """The enemy city whose blast takes the most enemy cities (then units), and how many of
    any player's cities it would lay waste; None when none takes `icbm_min_cities`."""
    view = p.view
    best: tuple[tuple[int, int, int], int, int] | None = None
    for sq in enemy_cities:
        x, y = sq % view.width, sq // view.width
        hit_enemy = hit_any = units = 0
        for dy in range(-radius, radius + 1):
            for dx in range(-radius, radius + 1):
                n = (y + dy) % view.height * view.width + (x + dx) % view.width
                city = view.cities.get(n)
                if city is not None and city.owner is not None:
                    hit_any += 1
                    hit_enemy += city.owner in p.at_war
                    if city.owner == view.nation:
                        hit_enemy -= 10  # never its own
                units += sum(1 for u in p.units_at.get(n, ()) if u.owner in p.at_war)
        if hit_enemy < p.profile.icbm_min_cities:
            continue
        key = (hit_enemy, units, -sq)
        if best is None or key > best[0]:
            best = (key, sq, hit_any)
    return None if best is None else (best[1], best[2])


def invest(p: Plan) -> None:
    """Spare command points go to its cities back from a wasteland."""
    waste = p.rules.wastelands
    if waste is None or not p.profile.launches_icbms:
        return
    for city in sorted(p.my_cities.values(), key=lambda c: c.sq):
        spare = p.cp - p.profile.invest_reserve
        if city.output >= city.output_cap or spare < waste.invest_points:
            continue
        points = min(spare, (city.output_cap - city.output) * waste.invest_points)
        p.issue(cmd.Invest(city=p.map.xy(city.sq), points=points), points)
