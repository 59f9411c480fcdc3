"""Fighter interception (seed 000 section 12): fighters scramble at hostile units moving near
them, attack, and fly home for free; the intercepted unit stops where it is.

- Interceptors: units that intercept (fighters) of nations not friendly or allied towards the
  mover, within the ruleset's radius of the square entered, with mobility and fuel for the
  flight out, ammo, and more than the minimum hp; their nation must see the mover there.
- No interception into a square with flak (a fort, an airport, a battleship...).
- Each fighter intercepts at most one unit per order; interception never triggers interception.
- An intercepted aircraft that survives fires back at its fighter; land units and ships do not.
"""

from __future__ import annotations

from engine.strategic import events as ev
from engine.strategic.rules.models import UnitClass
from engine.strategic.systems import combat
from engine.strategic.systems.sight import SightCache, witnesses
from engine.strategic.world import Unit, World


class Interception:
    """A walk hook for one order: remembers which fighters have flown already."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.used: set[int] = set()
        self._sights = SightCache(world)
        self._targets: dict[str, bool] = {}  # unit type -> whether fighters go for it

    def __call__(self, world: World, mover: Unit, sq: int) -> list[ev.Event] | None:
        rules = world.rules
        target = self._targets.get(mover.type)
        if target is None:
            mt = rules.unit[mover.type]
            target = self._targets[mover.type] = any(
                rules.matches(mt, sel) for sel in rules.combat.interception_targets
            )
        if not target:
            return None
        if _flak_at(world, sq, mover.owner) > 0:
            return None
        fighter = self._pick(world, mover, sq)
        if fighter is None:
            return None
        self.used.add(fighter.id)
        self._sights.clear()  # the world is about to change
        return intercept(world, fighter, mover)

    def _pick(self, world: World, mover: Unit, sq: int) -> Unit | None:
        rules = world.rules
        combat_rules = rules.combat
        grid = world.grid
        blocks = rules.diplomacy.blocks_interception
        radius = combat_rules.interception_radius
        # the cheap conditions first, for every fighter in reach; whether its nation sees the
        # mover (the costly one) only for the nearest ones, until one does: the same fighter
        # as asking it of all of them and keeping the nearest
        ready: list[tuple[int, int, Unit]] = []
        units, used, owner = world.units, self.used, mover.owner
        hostile: dict[str, bool] = {}  # per fighter's nation: may it go for the mover?
        w, h = grid.width, grid.height
        x, y = sq % w, sq // w
        # (the tile index's sets, not its own fighters, read in place: nothing moves here)
        for bucket in world.interceptors.buckets(sq, radius, besides=owner):
            for fid in bucket:
                if fid in used:
                    continue
                f = units[fid]
                dx = abs(f.sq % w - x)
                dy = abs(f.sq // w - y)
                if w - dx < dx:  # grid.distance, without calls to min and max
                    dx = w - dx
                if h - dy < dy:
                    dy = h - dy
                d = dx if dx > dy else dy
                if d > radius or f.carried_by is not None:
                    continue
                free = hostile.get(f.owner)
                if free is None:
                    free = hostile[f.owner] = not (
                        f.owner == owner or world.relation(f.owner, owner) in blocks
                    )
                if not free:
                    continue
                ft = rules.unit[f.type]
                if f.mobility < d or (ft.needs_fuel and f.fuel < d) or f.ammo < 1:
                    continue
                if f.hp < ft.hp and f.hp < combat_rules.interception_min_hp:
                    continue
                ready.append((d, fid, f))
        ready.sort()  # the nearest fighter goes, the lowest id first (ids differ: no unit compared)
        seeing: dict[str, bool] = {}  # per nation: one answer for all its fighters
        for _, _, f in ready:
            sees = seeing.get(f.owner)
            if sees is None:
                sees = seeing[f.owner] = self._sights.sees(f.owner, mover)
            if sees:
                return f
        return None


def _flak_at(world: World, sq: int, mover_owner: str) -> int:
    rules = world.rules
    flak = 0
    city = world.cities.get(sq)
    if city is not None and city.owner is not None:
        flak += rules.city[city.designation].flak or 0
    units = world.units
    for uid in world.at.get(sq, ()):  # a sum: in any order
        unit = units[uid]
        if unit.carried_by is None:
            flak += rules.unit[unit.type].flak or 0
    return flak


def intercept(world: World, fighter: Unit, mover: Unit) -> list[ev.Event]:
    rules = world.rules
    ft = rules.unit[fighter.type]
    mt = rules.unit[mover.type]
    d = world.grid.distance(fighter.sq, mover.sq)
    fighter.mobility -= d  # the flight home is free
    if ft.needs_fuel:
        fighter.fuel -= d
    out: list[ev.Event] = []
    # told to the two sides and to third nations that see both the fighter and its prey
    seers = sorted(witnesses(world, fighter, mover))
    value = combat.effective_attack(world, ft, mt, mover.sq, counter=False)
    damage = combat.damage_to(world, ft, mover, combat.roll(world, value))
    combat.spend_ammo(world, fighter)
    square = world.grid.label(mover.sq)
    alive = combat.hurt(world, mover, damage, fighter.owner, out)
    counter = 0
    if alive and mt.unit_class == UnitClass.AIR and mover.ammo >= 1:
        counter_value = combat.effective_attack(world, mt, ft, mover.sq, counter=True)
        if counter_value > 0:
            counter = combat.damage_to(world, mt, fighter, combat.roll(world, counter_value))
            combat.spend_ammo(world, mover)
    event = ev.Intercepted(
        tick=world.tick,
        to=seers,
        interceptor=fighter.owner,
        mover=mover.owner,
        square=square,
        fighter=fighter.id,
        fighter_type=fighter.type,
        unit=mover.id,
        unit_type=mover.type,
        damage=damage,
        counter=counter,
        unit_hp=max(0, mover.hp),
        fighter_hp=max(0, fighter.hp - counter),
    )
    out.insert(0, event)
    if counter:
        combat.hurt(world, fighter, counter, mover.owner, out)
    return out
