"""Naval interdiction (seed 000 section 11; seed 001 section 10 for battle formations).

When a ship moves, every hostile unit able to interdict that sees it come within its
interdiction radius closes in and fires once; the ship stops where it is and does not fire
back. Hostile means any nation not friendly or allied towards the mover.

Who interdicts (unit data: `interdict_radius`, `sees_subs`, `escort`):
- ships with ammo, at least the ruleset's minimum hp, and mobility to close in, that are in
  supply (`classic`) or in a battle formation, within the formation radius of a port of their
  team or a capital ship of theirs (`standard`);
- against a sub only units that see subs, at their sub-sight radius;
- escorts (destroyers, cruisers) within the escort radius of a capital ship of theirs only go
  after subs, or ships already next to them;
- tanks on the coast fire at ships passing next to them (they do not move);
- naval bombers fly out to ships within their radius and back for free.
No interdiction happens on a square with cannons (a port, a fort, a base), and interdiction
moves never trigger interdiction.
"""

from __future__ import annotations

from itertools import chain

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitClass
from engine.strategic.systems import combat
from engine.strategic.systems.interception import Interception
from engine.strategic.systems.movement import MoveContext, plan_move, refuel, walk
from engine.strategic.systems.sight import SightCache, witnesses
from engine.strategic.systems.supply import in_supply
from engine.strategic.world import Unit, World


class Interdiction:
    """A walk hook for one order."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.fired: set[int] = set()
        self._sights = SightCache(world)
        # per unit: whether it is ready (`_ready`) and escorting (`_escorting`), kept through
        # one mover's walk. Both read only the unit's own nation's ships, cities and supply,
        # which the walk's steps never change (the mover is not of its team); firing does (a
        # ship closing in, a bomber flying out), and so may what a command does between two
        # units' walks (a battle): both forget them
        self._readiness: dict[int, bool] = {}
        self._escorts: dict[int, bool] = {}
        self._mover: int | None = None

    def __call__(self, world: World, mover: Unit, sq: int) -> list[ev.Event] | None:
        rules = world.rules
        mt = rules.unit[mover.type]
        if mt.unit_class != UnitClass.SEA or mover.carried_by is not None:
            return None
        city = world.cities.get(sq)
        if (
            city is not None
            and city.owner is not None
            and (rules.city[city.designation].cannon or 0) > 0
        ):
            return None
        if mover.id != self._mover:
            self._mover = mover.id
            self._readiness.clear()
            self._escorts.clear()
        out: list[ev.Event] = []
        for unit in self._candidates(world, mover, sq):
            if mover.id not in world.units:
                break
            self.fired.add(unit.id)
            out.extend(self._fire(world, unit, mover))
            self._readiness.clear()
            self._escorts.clear()
        if out:
            self._sights.clear()
        return out or None

    def _candidates(self, world: World, mover: Unit, sq: int) -> list[Unit]:
        rules = world.rules
        combat_rules = rules.combat
        grid = world.grid
        mt = rules.unit[mover.type]
        blocks = rules.diplomacy.blocks_interception
        found: list[tuple[int, int, Unit]] = []
        hostile: dict[str, bool] = {}  # per nation: may its units go for the mover?
        seeing: dict[str, bool] = {}  # per nation: does it see the mover?
        owner = mover.owner
        units = world.units
        reach = rules.interdiction_reach
        w, h = grid.width, grid.height
        x, y = sq % w, sq // w
        # only units within the widest radius can react: the tile index finds them (its sets
        # read in place, in any order: what is found is sorted at the end, and the checks only
        # read the world)
        for uid in chain.from_iterable(world.interdictors.buckets(sq, reach, besides=owner)):
            unit = units[uid]
            dx = abs(unit.sq % w - x)
            dy = abs(unit.sq // w - y)
            if w - dx < dx:  # grid.distance, without calls to min and max
                dx = w - dx
            if h - dy < dy:
                dy = h - dy
            d = dx if dx > dy else dy
            if d > reach:
                continue  # beyond every unit's radius
            nation = unit.owner
            free = hostile.get(nation)
            if free is None:
                free = hostile[nation] = not (
                    nation == owner or world.relation(nation, owner) in blocks
                )
            if not free:
                continue
            ut = rules.unit[unit.type]
            if unit.id in self.fired or unit.carried_by is not None or unit.ammo < 1:
                continue
            if mt.stealth:
                radius = ut.sees_subs
            else:
                # the index holds only unit types with an interdict_radius (World._reactive)
                assert ut.interdict_radius is not None
                radius = ut.interdict_radius
            if radius <= 0 or d > radius:
                continue
            if unit.hp < ut.hp and unit.hp < combat_rules.interdiction_min_hp:
                continue
            if ut.unit_class == UnitClass.LAND and (d != 1 or not world.is_coastal(unit.sq)):
                continue
            if ut.unit_class == UnitClass.SEA:
                if unit.mobility < max(0, d - 1):
                    continue
                ready = self._readiness.get(uid)
                if ready is None:
                    ready = self._readiness[uid] = self._ready(world, unit)
                if not ready:
                    continue
                if ut.escort and not mt.stealth and d > 1:
                    escorting = self._escorts.get(uid)
                    if escorting is None:
                        escorting = self._escorts[uid] = self._escorting(world, unit)
                    if escorting:
                        continue
            if ut.unit_class == UnitClass.AIR and (
                unit.mobility < d or (ut.needs_fuel and unit.fuel < d)
            ):
                continue
            sees = seeing.get(nation)
            if sees is None:  # one answer for all the nation's units
                sees = seeing[nation] = self._sights.sees(nation, mover)
            if not sees:
                continue
            found.append((d, unit.id, unit))
        found.sort(key=lambda t: (t[0], t[1]))
        return [u for _, _, u in found]

    def _ready(self, world: World, unit: Unit) -> bool:
        """A ship interdicts in supply (classic) or in a battle formation (standard)."""
        rules = world.rules
        if rules.combat.interdiction_needs_supply:
            return in_supply(world, unit)
        radius = rules.combat.battle_formation_radius
        if radius is None:
            return True
        grid = world.grid
        team = world.team(unit.owner)
        cities = world.cities
        # the squares round the ship when there are fewer of them than cities
        near = grid.within(unit.sq, radius) if (2 * radius + 1) ** 2 < len(cities) else None
        for city in cities.values() if near is None else filter(None, map(cities.get, near)):
            if (
                city.owner in team
                and rules.city[city.designation].supplies_sea
                and grid.distance(city.sq, unit.sq) <= radius
            ):
                return True
        return _capital_within(world, unit, radius, sea_only=False)

    def _escorting(self, world: World, unit: Unit) -> bool:
        return _capital_within(world, unit, world.rules.combat.escort_radius, sea_only=True)

    def _fire(self, world: World, unit: Unit, mover: Unit) -> list[ev.Event]:
        rules = world.rules
        ut = rules.unit[unit.type]
        mt = rules.unit[mover.type]
        out: list[ev.Event] = []
        home = unit.sq
        d = world.grid.distance(unit.sq, mover.sq)
        if ut.unit_class == UnitClass.SEA and d > 1:
            ctx = MoveContext(world, unit.owner)
            path = plan_move(world, ctx, unit, mover.sq, approach=True)
            if path is None or len(path) > unit.mobility:
                return out
            walk(world, ctx, unit, path)  # no hooks: interdiction never triggers interdiction
            if world.grid.distance(unit.sq, mover.sq) != 1:
                return out
        elif ut.unit_class == UnitClass.AIR:
            unit.mobility -= d  # the flight back is free
            if ut.needs_fuel:
                unit.fuel -= d
            grid = world.grid
            near = min(grid.neighbours(mover.sq), key=lambda n: (grid.distance(n, home), n))
            world.move_unit(unit, near)
            # an interdicting naval bomber may itself be intercepted on its way out
            met = Interception(world)(world, unit, near)
            if met:
                if unit.id in world.units:
                    world.move_unit(unit, home)
                return met
        value = combat.effective_attack(world, ut, mt, mover.sq, counter=False)
        damage = combat.damage_to(world, ut, mover, combat.roll(world, value))
        combat.spend_ammo(world, unit)
        seers = sorted(witnesses(world, unit, mover))  # the two sides, and who sees both
        out.append(
            ev.Interdicted(
                tick=world.tick,
                to=seers,
                interdictor=unit.owner,
                mover=mover.owner,
                square=world.grid.label(mover.sq),
                unit=unit.id,
                unit_type=unit.type,
                ship=mover.id,
                ship_type=mover.type,
                damage=damage,
                ship_hp=max(0, mover.hp - damage),
                from_square=world.grid.label(home),
            )
        )
        combat.hurt(world, mover, damage, unit.owner, out)
        if ut.unit_class == UnitClass.AIR:
            world.move_unit(unit, home)
            refuel(world, unit)  # back home, where it rearms if it may
        return out


def _capital_within(world: World, unit: Unit, radius: int, *, sea_only: bool) -> bool:
    """Whether another capital ship of the unit's nation (`sea_only`: a ship) is within
    `radius` of it."""
    if world.capital_ships(unit.owner) == 0:
        return False
    rules = world.rules
    grid = world.grid
    units = world.units
    for uid in world.capital_ids(unit.owner):  # (its capital units, not all its units)
        other = units[uid]
        ot = rules.unit[other.type]
        if (
            uid != unit.id
            and (not sea_only or ot.unit_class == UnitClass.SEA)
            and grid.distance(other.sq, unit.sq) <= radius
        ):
            return True
    return False
