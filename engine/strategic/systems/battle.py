"""Seed 002 (ruleset total-war): an attack on a square is a battle in turns between the
attacking units and every defender there.

Each side's turn, each of its units attacks once: a target it is effective against first,
else one at random. With N = its attack (+ the effective bonus) + the target's defence (its hp
now, times the square's factors), a roll of 1..N at or under the attack destroys the target;
else a target that can fire back counter-attacks once (+ the weak bonus), and a
counter-attack is never answered. The attackers go first (the square's flak and cannons fire
before them, as in any attack); a side's turn ends early after ceil(troops / the ruleset's
number) misses; the battle ends when a side is gone or after the ruleset's turns. Every
number is in the ruleset's [battle] section; docs/RULES.md "Ruleset total-war" says why.

Each attack is told as an `Attacked` event (with its dice) to the two sides and to the
nations that see both units; a destroyed unit's `UnitDestroyed` to those that see it.
"""

from __future__ import annotations

import math

from engine.strategic import events as ev
from engine.strategic.rules.models import Battle, Effect, UnitClass
from engine.strategic.systems import combat
from engine.strategic.systems.sight import Sight, show, witnesses
from engine.strategic.world import Unit, World


def with_bonus(value: int, percent: int) -> int:
    """A value raised by a percentage, rounded up (an attack of 1 still gains)."""
    return -(-value * (100 + percent) // 100)


def defence(world: World, unit: Unit) -> int:
    """A unit's defence: its hp now; in a city, aircraft and ships count the part of it that
    the city factors leave (÷2, ÷3 in the standard numbers), and a fort multiplies it by the
    fort divisor for the units it protects (at least 1)."""
    rules = world.rules
    cb = rules.combat
    dt = rules.unit[unit.type]
    value = unit.hp
    city = world.cities.get(unit.sq)
    if city is not None and city.owner is not None:
        if dt.unit_class == UnitClass.AIR:
            value = math.ceil(value / cb.air_in_city_factor)
        elif dt.unit_class == UnitClass.SEA:
            value = math.ceil(value / cb.ship_in_port_factor)
        if any(rules.matches(dt, sel) for sel in rules.city[city.designation].halves_damage_to):
            value *= cb.fort_divisor
    return max(1, value)


def attack_of(world: World, unit: Unit, target: Unit, *, counter: bool) -> tuple[int, bool]:
    """The attack a unit brings against a target, and whether the effectiveness table raised
    it: an attack gains when the attacker is effective, a counter-attack when the unit it
    answers is weak against it."""
    rules = world.rules
    battle = rules.battle
    assert battle is not None
    ut, dt = rules.unit[unit.type], rules.unit[target.type]
    value = combat.effective_attack(world, ut, dt, target.sq, counter=counter)
    if value <= 0:
        return 0, False
    if counter:
        if rules.effect(target.type, unit.type) == Effect.WEAK:
            return with_bonus(value, battle.weak_bonus_percent), True
    elif rules.effect(unit.type, target.type) == Effect.EFFECTIVE:
        return with_bonus(value, battle.effective_bonus_percent), True
    return value, False


class _Battle:
    def __init__(self, world: World, battle: Battle, nation: str, target_sq: int) -> None:
        self.world = world
        self.rules = battle
        self.nation = nation  # the attacking nation
        self.target_sq = target_sq
        self.out: list[ev.Event] = []
        self.first: dict[int, int] = {}  # first fire each attacker took, told with its attack

    def alive(self, units: list[Unit]) -> list[Unit]:
        return [u for u in units if u.id in self.world.units]

    def roll(self, need: int, target: Unit) -> ev.BattleRoll:
        n = need + defence(self.world, target)
        return ev.BattleRoll(need=need, n=n, roll=self.world.rng.randint(1, n))

    def choose(self, unit: Unit, foes: list[Unit]) -> Unit | None:
        """A target it may hit and sees (the attacking side strikes blind at what hides on the
        square when it sees nothing there): one it is effective against first, else any; a
        die of 1..k picks among k (by unit id) when there is a choice."""
        world, rules = self.world, self.world.rules
        ut = rules.unit[unit.type]
        able = [
            f
            for f in sorted(foes, key=lambda f: f.id)
            if combat.can_hit(world, ut, f.sq, rules.unit[f.type])
            and attack_of(world, unit, f, counter=False)[0] > 0
        ]
        sight = Sight(world, unit.owner)
        pool = [f for f in able if sight.sees_unit(f)]
        if not pool and unit.owner == self.nation:
            pool = able
        if not pool:
            return None
        pool = [f for f in pool if rules.effect(unit.type, f.type) == Effect.EFFECTIVE] or pool
        if len(pool) == 1:
            return pool[0]
        return pool[world.rng.randint(1, len(pool)) - 1]

    def exchange(self, unit: Unit, foes: list[Unit], turn: int) -> bool | None:
        """One unit's attack and its target's counter-attack; whether it hit (None: it had
        nothing it could attack)."""
        world, rules = self.world, self.world.rules
        if unit.ammo < 1:
            return None
        target = self.choose(unit, foes)
        if target is None:
            return None
        ut, dt = rules.unit[unit.type], rules.unit[target.type]
        seers = sorted(witnesses(world, unit, target))
        shown = (
            [] if Sight(world, unit.owner).sees_unit(target) else show(world, unit.owner, target)
        )
        if ut.stealth:
            shown += show(world, target.owner, unit)  # a sub that attacks shows itself
        need, effective = attack_of(world, unit, target, counter=False)
        attack = self.roll(need, target).model_copy(update={"bonus": effective})
        combat.spend_ammo(world, unit)
        hit = attack.roll <= attack.need
        counter: ev.BattleRoll | None = None
        if (
            not hit
            and target.ammo >= 1
            and combat.can_hit(world, dt, unit.sq, ut, counter=True)
            and (back := attack_of(world, target, unit, counter=True))[0] > 0
        ):
            counter = self.roll(back[0], unit).model_copy(update={"bonus": back[1]})
            combat.spend_ammo(world, target)
        killed = counter is not None and counter.roll <= counter.need
        self.out.extend(shown)
        self.out.append(
            ev.Attacked(
                tick=world.tick,
                to=seers,
                attacker=unit.owner,
                defender=target.owner,
                square=world.grid.label(target.sq),
                from_square=world.grid.label(unit.sq),
                attacker_unit=unit.id,
                attacker_type=unit.type,
                defender_unit=target.id,
                defender_type=target.type,
                first_fire=self.first.pop(unit.id, 0),
                damage=target.hp if hit else 0,
                counter=unit.hp if killed else 0,
                attacker_hp=0 if killed else unit.hp,
                defender_hp=0 if hit else target.hp,
                turn=turn,
                attack_roll=attack,
                counter_roll=counter,
            )
        )
        if hit:
            combat.destroy(world, target, unit.owner, self.out)
        if killed:
            combat.destroy(world, unit, target.owner, self.out)
        return hit

    def side_turn(self, side: list[Unit], foes: list[Unit], turn: int) -> bool:
        """Each unit of a side attacks once, until the side has missed ceil(troops / n)
        times; whether any unit attacked."""
        units = self.alive(side)
        limit = math.ceil(len(units) / self.rules.misses_per_troops)
        misses = 0
        fought = False
        for unit in units:
            left = self.alive(foes)
            if not left:
                break
            if unit.id not in self.world.units:
                continue
            hit = self.exchange(unit, left, turn)
            if hit is None:
                continue
            fought = True
            if not hit:
                misses += 1
                if misses >= limit:
                    break
        return fought

    def first_fire(self, attackers: list[Unit], owners: set[str]) -> None:
        """The square's flak and cannons fire first at each attacking aircraft and ship, as in
        any attack (damage to its hp, so to its defence)."""
        world = self.world
        by = sorted(owners)[0]
        for unit in attackers:
            damage = combat.square_fire(world, unit, self.target_sq, owners)
            if damage and combat.hurt(world, unit, damage, by, self.out):
                self.first[unit.id] = damage

    def fight(self, attackers: list[Unit], defenders: list[Unit]) -> None:
        self.first_fire(attackers, {u.owner for u in defenders})
        sides = (attackers, defenders)
        turn = 0
        for _ in range(self.rules.turns):
            for side, foes in (sides, sides[::-1]):
                turn += 1
                if not self.alive(side) or not self.alive(foes):
                    return
                self.side_turn(side, foes, turn)


def resolve_battle(world: World, attackers: list[Unit], target_sq: int) -> list[ev.Event]:
    """Units of one nation, each next to the square, attack it together (checks done by the
    caller; each pays the mobility of one attack). Bombers bomb first, as in any attack."""
    battle = world.rules.battle
    assert battle is not None and attackers
    nation = attackers[0].owner
    fight = _Battle(world, battle, nation, target_sq)
    out = fight.out
    fighters: list[Unit] = []
    for unit in attackers:
        at = world.rules.unit[unit.type]
        if combat.is_bomber(at) and not (combat.at_sea(world, target_sq) and at.can_attack_sea):
            out.extend(combat.resolve_attack(world, unit, target_sq, moved=True))
        else:
            fighters.append(unit)
    defenders = combat.defenders_at(world, nation, target_sq)
    fighters = [u for u in fighters if u.id in world.units]
    if not defenders or not fighters:
        return out
    for unit in fighters:
        unit.mobility -= combat.attack_cost(world, unit)
    fight.fight(fighters, defenders)
    return out
