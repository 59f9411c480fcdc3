"""Wastelands and ecological collapse (seed 002; ruleset total-war, its [wastelands] section).

- A player city an ICBM hits becomes a wasteland: the city is gone for now (nobody's, not to
  be entered as a city, taken or founded on), its square stays land that units may cross, and
  every unit on it at the end of a tick dies (`perish`).
- After the ruleset's days it is its former owner's city again (neutral if that nation is out),
  as the city it was, at `returns_at_percent` of the output it had: its builds take that much
  longer (`economy.progress_builds`).
- `/invest` spends command points restoring that output, a point of output for
  `invest_points`, never past what it produced before it was hit (`output_cap`).
- Each wasteland adds to the world's ecological meter; when it reaches `collapse_at`,
  society collapses: the game ends and every nation loses (`endgame.collapse`).
"""

from __future__ import annotations

from engine.errors import CommandError
from engine.strategic import events as ev
from engine.strategic.systems.combat import destroy
from engine.strategic.systems.economy import default_build
from engine.strategic.systems.sight import observers
from engine.strategic.world import City, Wasteland, World


def lay_waste(world: World, city: City) -> None:
    """The city becomes a wasteland (the caller calls `world.map_changed()`)."""
    rules = world.rules.wastelands
    assert rules is not None and city.owner is not None
    world.wastelands[city.sq] = Wasteland(
        owner=city.owner,
        designation=city.designation,
        name=city.name,
        returns=world.tick + rules.days * world.rules.ticks_per_day,
        output=city.output,
    )
    del world.cities[city.sq]
    world.ecology += rules.ecology_per_wasteland


def collapsed(world: World) -> bool:
    rules = world.rules.wastelands
    return rules is not None and world.ecology >= rules.collapse_at


def perish(world: World) -> list[ev.Event]:
    """Every unit ending the tick in a wasteland dies (told as any death: to those who see it)."""
    out: list[ev.Event] = []
    for sq in sorted(world.wastelands):
        for unit in world.units_at(sq):
            if unit.id in world.units:
                start = len(out)
                destroy(world, unit, None, out)
                for i in range(start, len(out)):
                    e = out[i]
                    if isinstance(e, ev.UnitDestroyed):
                        out[i] = e.model_copy(update={"wasteland": True})
    return out


def return_due(world: World) -> list[ev.Event]:
    """Wastelands whose time is up are their former owners' cities again."""
    rules = world.rules.wastelands
    due = sorted(sq for sq, w in world.wastelands.items() if w.returns <= world.tick)
    if rules is None or not due:
        return []
    out: list[ev.Event] = []
    for sq in due:
        waste = world.wastelands.pop(sq)
        nation = world.nations.get(waste.owner)
        owner = waste.owner if nation is not None and not nation.out else None
        output = max(1, waste.output * rules.returns_at_percent // 100)
        city = world.cities[sq] = City(
            sq=sq,
            owner=owner,
            designation=waste.designation,
            name=waste.name,
            output=output,
            output_cap=waste.output,
        )
        if owner is not None:
            city.build = default_build(world, city.designation, world.nations[owner].tech)
        world.map_changed()
        if owner is not None:
            out.append(
                ev.WastelandReturned(
                    tick=world.tick,
                    to=sorted(observers(world, sq) | {owner}),
                    nation=owner,
                    city=world.grid.label(sq),
                    output=output,
                )
            )
    return out


def check_invest(world: World, city: City, points: int) -> int:
    """The points of output `points` command points restore in the city (refused with a
    reason when none)."""
    rules = world.rules.wastelands
    where = world.grid.label(city.sq)
    if rules is None:
        raise CommandError("this ruleset has no wastelands to restore")
    room = city.output_cap - city.output
    if room <= 0:
        raise CommandError(
            f"the city at {where} produces {city.output}%, all it produced before; "
            "investment restores no more"
        )
    restore = min(room, points // rules.invest_points)
    if restore < 1:
        raise CommandError(
            f"a point of output costs {rules.invest_points} command points; {points} buy none"
        )
    return restore


def invest(world: World, nation: str, city: City, restore: int) -> list[ev.Event]:
    rules = world.rules.wastelands
    assert rules is not None
    spent = restore * rules.invest_points
    world.nations[nation].cp -= spent
    city.output += restore
    return [
        ev.CityInvested(
            tick=world.tick,
            to=[nation],
            nation=nation,
            city=world.grid.label(city.sq),
            spent=spent,
            output=city.output,
            cap=city.output_cap,
        )
    ]
