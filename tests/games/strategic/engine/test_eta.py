"""When a unit on a standing order should arrive (`engine.strategic.eta`, the "arriving about"
of a move's reply and of `/units`): its route walked step by step with the mobility it has,
each step charged as the engine charges it (1 from a square in supply, the ruleset's
out-of-supply cost from one out of it, at most its fleet's pace an update), mobility coming
back at each of its updates. The engine's walk itself is checked against a named arrival in
`tests/games/strategic/bot/test_order_replies.py`; here, the estimate over many routes,
supplies and mobilities against that definition, one step at a time."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.strategic.eta import arrival_tick, next_update
from engine.strategic.rules.models import UnitClass
from tests.games.strategic.worlds import strip_world
from tests.scaled import examples


class Supply:
    """A supply map of given grids (the estimate reads a class's whole grid)."""

    def __init__(self, grid: np.ndarray) -> None:
        self._grid = grid

    def grid(self, unit_class: UnitClass) -> np.ndarray:
        return self._grid


def step_by_step(world, unit, grid: np.ndarray) -> int | None:
    """The definition: each step of the route in turn, waiting for updates until it is paid."""
    rules = world.rules
    ut = rules.unit[unit.type]
    gain, cap = ut.mobility, ut.mobility * rules.mobility.cap_multiple
    costly = ut.needs_supply and ut.unit_class not in (UnitClass.AIR, UnitClass.TECH)
    most = cap if unit.pace is None else min(cap, unit.pace)
    tick, mobility, here = world.tick, unit.mobility, unit.sq
    budget = min(mobility, most)
    for sq in unit.route:
        cost = 1 if not costly or grid[here] else rules.supply.out_of_supply_step_cost
        if cost > most or gain <= 0:
            return None
        while budget < cost:
            tick = next_update(tick, unit.born, rules.ticks_per_unit_update)
            mobility = min(cap, mobility + gain)
            budget = min(mobility, most)
        mobility -= cost
        budget -= cost
        here = sq
    return tick


@settings(max_examples=examples(300), deadline=None)
@given(
    ruleset=st.sampled_from(["standard", "classic", "total-war"]),
    kind=st.sampled_from(["infantry", "tank", "engineer", "transport", "destroyer", "fighter"]),
    data=st.data(),
)
def test_the_estimate_is_the_route_walked_step_by_step(
    ruleset: str, kind: str, data: st.DataObject
) -> None:
    world = strip_world(ruleset=ruleset)
    size = world.grid.size
    unit = world.add_unit(kind, "red", 0)
    unit.mobility = data.draw(st.integers(0, 40), label="mobility")
    unit.pace = data.draw(st.one_of(st.none(), st.integers(1, 12)), label="pace")
    unit.born = data.draw(st.integers(0, 15), label="born")
    world.tick = data.draw(st.integers(0, 400), label="tick")
    unit.route = data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=60))
    unit.order = unit.route[-1]
    grid = np.array(data.draw(st.lists(st.booleans(), min_size=size, max_size=size)))
    assert arrival_tick(world, unit, Supply(grid)) == step_by_step(world, unit, grid)  # type: ignore[arg-type]


def test_no_route_no_estimate() -> None:
    world = strip_world()
    unit = world.add_unit("infantry", "red", 0)
    grid = np.ones(world.grid.size, dtype=bool)
    assert arrival_tick(world, unit, Supply(grid)) is None  # type: ignore[arg-type]
