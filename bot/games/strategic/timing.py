"""When things a player waits for happen, from the nation's own view: a unit's next 4-hourly
update (mobility, healing) and the update at which it has the mobility an action needs. Pure
arithmetic over the rules' numbers; the desk words it with the game's clock."""

from __future__ import annotations

from engine.strategic.rules.models import Ruleset
from engine.strategic.view import UnitView


def next_update(unit: UnitView, tick: int, period: int) -> int | None:
    """The first tick after `tick` at which the unit's update falls (every `period` ticks,
    counted from the tick it was built); None when the view does not say (not one's own)."""
    if unit.built_tick is None:
        return None
    return tick + (unit.built_tick - tick - 1) % period + 1


def ready_at(unit: UnitView, need: int, tick: int, rules: Ruleset) -> int | None:
    """The tick from which the unit has `need` mobility (`tick` itself when it has it now);
    None when it never will (the cap is below it) or the view does not say."""
    if unit.mobility is None:
        return None
    if unit.mobility >= need:
        return tick
    ut = rules.unit[unit.type]
    if ut.mobility <= 0 or ut.mobility * rules.mobility.cap_multiple < need:
        return None
    first = next_update(unit, tick, rules.ticks_per_unit_update)
    if first is None:
        return None
    updates = -(-(need - unit.mobility) // ut.mobility)  # each update brings ut.mobility
    return first + (updates - 1) * rules.ticks_per_unit_update


def engineer_need(rules: Ruleset, action: str) -> int:
    """The mobility an engineer's action takes ("build_city" or "switch_terrain")."""
    if action == "build_city":
        return rules.engineer.build_city_mobility
    return rules.engineer.switch_terrain_mobility
