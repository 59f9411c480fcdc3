"""When a unit on a standing order should arrive: its remembered route walked with the costs
the engine charges (a step from a square out of supply costs the ruleset's
`out_of_supply_step_cost`, `systems.movement.step_cost`), its mobility as now, and the mobility
each of its 4-hourly updates gives back (`systems.upkeep.unit_update`). Pure: reads the world,
changes nothing. A fleet's ship spends at most its pace an update (`Unit.pace`). An estimate: what the nation meets on the way (or a change of supply) may
still stop or slow it."""

from __future__ import annotations

from itertools import groupby

from engine.strategic.rules.models import UnitClass
from engine.strategic.systems.supply import SupplyMap
from engine.strategic.world import Unit, World


def next_update(tick: int, born: int, period: int) -> int:
    """The first tick after `tick` on which a unit built at `born` has its update."""
    return tick + (born - tick - 1) % period + 1


def arrival_tick(world: World, unit: Unit, supply: SupplyMap) -> int | None:
    """The tick the unit should reach the end of its route (None: no route, or it never
    would: a step costs more than its mobility can ever hold)."""
    route = unit.route
    if unit.order is None or not route:
        return None
    rules = world.rules
    ut = rules.unit[unit.type]
    gain, cap = ut.mobility, ut.mobility * rules.mobility.cap_multiple
    costly = ut.needs_supply and ut.unit_class not in (UnitClass.AIR, UnitClass.TECH)
    dear = rules.supply.out_of_supply_step_cost
    period = rules.ticks_per_unit_update
    pace = unit.pace  # a fleet's ship spends at most its slowest ship's mobility an update
    most = cap if pace is None else min(cap, pace)
    tick, mobility = world.tick, unit.mobility
    budget = min(mobility, most)  # what it may spend before its next update
    # whether each step starts in supply: the squares it leaves read from the supply grid
    # at once (a view asks it of every unit on its way); the steps then walked a run of
    # equal costs at a time (as many as the budget pays for at once: the same ticks as one
    # step after another)
    if costly:
        grid = supply.grid(ut.unit_class)
        supplied = grid[[unit.sq, *route[:-1]]].tolist()
        runs = [(in_supply, sum(1 for _ in steps)) for in_supply, steps in groupby(supplied)]
    else:
        runs = [(True, len(route))]
    for in_supply, left in runs:
        cost = 1 if in_supply else dear
        if cost > most or gain <= 0:
            return None
        while left:
            while budget < cost:
                tick = next_update(tick, unit.born, period)
                mobility = min(cap, mobility + gain)
                budget = min(mobility, most)
            steps = min(left, budget // cost)
            mobility -= steps * cost
            budget -= steps * cost
            left -= steps
    return tick
