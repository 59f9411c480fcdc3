"""Disbanding units and ceding units or cities to a mutual ally (the original game's commands;
both seeds are silent: docs/RULES.md, "Disband and cede").

- Disbanded units are gone at once. A carrier outside a city is disbanded only with all it
  carries (cargo at sea or in the air would be left nowhere); in a city its cargo stays there.
- Units and cities are ceded only to a mutual ally, where they stand. What a ceded carrier
  carries goes with it; a carried unit goes only with its carrier. Ceded units lose their
  standing orders. A ceded city keeps its designation, build, progress and next build (a
  build the receiver's tech does not allow becomes its default build for the designation).
- The sides are told of everything; a third nation only of what it sees (the city's square,
  the units it sees: never cargo).
"""

from __future__ import annotations

from engine.errors import CommandError
from engine.strategic import events as ev
from engine.strategic.systems.economy import default_build, limit_dropped, power_limit
from engine.strategic.systems.sight import Sight, observers
from engine.strategic.world import City, Unit, World

ALLIED = "allied"  # the level both rulesets call their alliance


def check_receiver(world: World, nation: str, receiver: str) -> None:
    """Cede only to another nation in the game that is a mutual ally (both sides allied). The
    refusal names only relations the nation's view shows (its own, and the other's towards it)."""
    if receiver == nation:
        raise CommandError("that is your own nation")
    other = world.nations.get(receiver)
    if other is None:
        raise CommandError(f"there is no nation {receiver!r} in this game")
    if other.out:
        raise CommandError(f"{other.name} is out of the game")
    mine, theirs = world.relation(nation, receiver), world.relation(receiver, nation)
    if mine != ALLIED:
        raise CommandError(
            f"you can cede only to a mutual ally; you are {_level(world, mine)} towards {other.name}"
        )
    if theirs != ALLIED:
        raise CommandError(
            f"you can cede only to a mutual ally; {other.name} is {_level(world, theirs)} "
            "towards you"
        )


def _level(world: World, level: str) -> str:
    return "at war" if level == world.rules.diplomacy.war else level


def _item(world: World, unit: Unit) -> dict:
    return {"unit": unit.id, "type": unit.type, "square": world.grid.label(unit.sq)}


def _title(world: World, unit: Unit) -> str:
    return f"unit {unit.id} ({world.rules.unit[unit.type].title})"


def _ids(units: list[Unit]) -> str:
    return ", ".join(str(u.id) for u in units)


def check_disband(world: World, units: list[Unit]) -> None:
    listed = {u.id for u in units}
    for unit in units:
        if unit.sq in world.cities:
            continue
        left = [u for u in _aboard(world, unit) if u.id not in listed]
        if left:
            raise CommandError(
                f"{_title(world, unit)} carries {_ids(left)} outside a city; disband "
                f"{'it' if len(left) == 1 else 'them'} too, or unload first"
            )


def disband(world: World, nation: str, units: list[Unit]) -> list[ev.Event]:
    """Remove the units (checked by `check_disband`); told to the owner alone."""
    items = [_item(world, u) for u in units]
    for unit in units:
        world.remove_unit(unit)
    return [ev.UnitsDisbanded(tick=world.tick, to=[nation], nation=nation, units=items)]


def _aboard(world: World, carrier: Unit) -> list[Unit]:
    """Everything a carrier carries, and what that carries (oldest id first)."""
    out: list[Unit] = []
    for cargo in world.cargo_of(carrier):
        out.append(cargo)
        out.extend(_aboard(world, cargo))
    return sorted(out, key=lambda u: u.id)


def check_cede_units(world: World, receiver: str, units: list[Unit]) -> list[Unit]:
    """The units the cession hands over (the listed ones and their cargo), or a refusal."""
    listed = {u.id for u in units}
    for unit in units:
        if unit.carried_by is not None and unit.carried_by not in listed:
            raise CommandError(
                f"{_title(world, unit)} is aboard unit {unit.carried_by}; cede unit "
                f"{unit.carried_by} with it, or unload it first"
            )
        # only between the two: whether a third nation would have the receiver's units in
        # its city depends on relations the cedent may not see
        city = world.cities.get(unit.sq)
        if city is not None and city.owner not in (None, unit.owner, receiver):
            raise CommandError(
                f"{_title(world, unit)} is in {world.nations[city.owner].name}'s city at "
                f"{world.grid.label(unit.sq)}: units in a third nation's city cannot be ceded"
            )
    everything = {u.id: u for u in units}
    for unit in units:
        everything.update((c.id, c) for c in _aboard(world, unit))
    return [everything[i] for i in sorted(everything)]


def cede_units(world: World, nation: str, receiver: str, units: list[Unit]) -> list[ev.Event]:
    """Hand the units (from `check_cede_units`) to the receiver."""
    seen: dict[str, list[dict]] = {}
    items = [_item(world, u) for u in units]
    for unit, item in zip(units, items, strict=True):
        before = observers(world, unit.sq, unit)
        world.transfer_unit(unit, receiver)
        for other in sorted((before | observers(world, unit.sq, unit)) - {nation, receiver}):
            seen.setdefault(other, []).append(item)
    out: list[ev.Event] = [
        ev.UnitsCeded(
            tick=world.tick, to=[nation, receiver], nation=nation, receiver=receiver, units=items
        )
    ]
    groups: dict[tuple[int, ...], list[str]] = {}
    for other, listed in seen.items():
        groups.setdefault(tuple(i["unit"] for i in listed), []).append(other)
    for ids, witnesses in sorted(groups.items()):
        out.append(
            ev.UnitsCeded(
                tick=world.tick,
                to=sorted(witnesses),
                nation=nation,
                receiver=receiver,
                units=[i for i in items if i["unit"] in ids],
            )
        )
    return out


def check_cede_city(world: World, receiver: str, city: City) -> None:
    # only between the two (as for units): a third nation's units in it, whatever the
    # relations the cedent may not see, keep the city where it is; but only the units the
    # cedent sees there (its view): a hidden submarine neither blocks nor is named, it stays
    # whose it is in the ceded city, as it stays when an alliance ends
    sight = Sight(world, city.owner) if city.owner is not None else None
    strangers = sorted(
        {
            u.owner
            for u in world.units_at(city.sq)
            if u.owner not in (city.owner, receiver)
            and u.carried_by is None
            and sight is not None
            and sight.sees_unit(u)
        }
    )
    if strangers:
        raise CommandError(
            f"{world.nations[strangers[0]].name}'s units are in the city at "
            f"{world.grid.label(city.sq)}: a city with a third nation's units cannot be ceded"
        )


def cede_city(world: World, nation: str, receiver: str, city: City) -> list[ev.Event]:
    """Hand the city over as it stands; the receiver's tech must allow its build."""
    before = observers(world, city.sq)
    was = power_limit(world, nation)
    city.owner = receiver
    city.skipped = False  # a new owner: its first skipped build is news
    city.waypoint = None  # the giver's plans for its units are not the receiver's
    if city.build is not None and world.rules.unit[city.build].tech > world.nations[receiver].tech:
        city.build = default_build(world, city.designation, world.nations[receiver].tech)
        city.progress = 0
    world.cities_changed(nation, receiver)
    told = before | observers(world, city.sq) | {nation, receiver}
    return [
        ev.CityCeded(
            tick=world.tick,
            to=sorted(told),
            nation=nation,
            receiver=receiver,
            city=world.grid.label(city.sq),
        ),
        *limit_dropped(world, nation, was),
    ]
