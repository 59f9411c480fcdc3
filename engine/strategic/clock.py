"""Game time: `advance(world, ticks)` runs the world forward one 15-minute tick at a time.

Per tick: the clock moves on, command points regenerate, technology accrues, builds progress,
due relation changes apply; then the units whose update is due (every 4 game hours counted from
when each was built) regain mobility, heal and carry on their standing orders; then nations
are told of enemies newly seen near their cities. Advancing N ticks at once is exactly N single ticks.
"""

from __future__ import annotations

from engine.strategic import events as ev
from engine.strategic.systems import economy, wasteland
from engine.strategic.systems.diplomacy import change
from engine.strategic.systems.endgame import eliminate, end_if_due
from engine.strategic.systems.movement import MoveContext, fleet_squares, is_ship
from engine.strategic.systems.threats import enemies_near_cities
from engine.strategic.systems.upkeep import run_orders, unit_update
from engine.strategic.world import Unit, World


def tick_once(world: World) -> list[ev.Event]:
    if world.ended or not world.started:
        return []
    world.tick += 1
    out: list[ev.Event] = []
    counts = economy.city_counts(world)
    economy.regenerate_command_points(world, counts)
    out.extend(economy.accrue_tech(world, counts))
    built = economy.progress_builds(world)
    out.extend(built)
    # units built for a city's waypoint set out at once (a standing order, as at an update)
    new = [e.unit_id for e in built if isinstance(e, ev.UnitBuilt)]
    for uid in new:
        _rally(world, world.units[uid])
    out.extend(run_orders(world, new))
    out.extend(apply_pending_relations(world))
    out.extend(unit_update(world))
    if world.wastelands:  # ruleset total-war: units ending the tick there die; due ones return
        out.extend(wasteland.perish(world))
        out.extend(wasteland.return_due(world))
    out.extend(enemies_near_cities(world))
    if world.reveals:
        world.reveals = {k: t for k, t in world.reveals.items() if t >= world.tick}
    if world.tick % world.rules.ticks_per_day == 0:
        world.forget_old_sightings()
    out.extend(eliminate(world))
    out.extend(end_if_due(world))
    world.sight_index.settle()
    return out


def _rally(world: World, unit: Unit) -> None:
    """A ship sent to a waypoint another ship of its team holds (one ship a sea square) goes
    to the nearest free square to it instead, as ships given one order do."""
    if unit.order is None or not is_ship(world.rules.unit[unit.type]):
        return
    ctx = MoveContext(world, unit.owner)
    found = fleet_squares(
        world, ctx, [unit], unit.order, rings=world.rules.mobility.fleet_spread, first_near=True
    )
    if not isinstance(found, int):
        unit.set_order(found[unit.id][0])


def advance(world: World, ticks: int = 1) -> list[ev.Event]:
    if ticks < 0:
        raise ValueError("time only moves forward")
    out: list[ev.Event] = []
    for _ in range(ticks):
        out.extend(tick_once(world))
    return out


def apply_pending_relations(world: World) -> list[ev.Event]:
    """Relation changes given with notice take effect when their time comes."""
    due = [p for p in world.pending if p.due_tick <= world.tick]
    if not due:
        return []
    world.pending = [p for p in world.pending if p.due_tick > world.tick]
    out: list[ev.Event] = []
    for p in due:
        out.extend(change(world, p.nation, p.other, p.level))
    return out
