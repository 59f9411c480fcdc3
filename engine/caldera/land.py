"""Caldera's land armies and land battles (seed 003, "Land army", "Land battle"). Pure functions:
`fight(attacker, defender, units, rules)` gives the battle step by step and the armies left;
`army_problems` checks an army against its limits; `npc_army` fills an NPC's army with the best
units it can get.

An army is a count per land unit type ("space-cadet": 12); all the units of one type of a side
are one stack. The unit types' numbers (hp, damage, targets, size, cost, level) are the rules'
land units table, passed in as a mapping (any model with those fields: `UnitStats`); the
limits are the captain's (`captain.land_army_size`, `captain.land_unit_limit`). This module's
own numbers are the `[land]` section of data/rulesets/caldera/standard.toml (`LandRules`).
docs/RULES-CALDERA.md "Land battle" tells the rules as players read them."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from engine.caldera.battle import RULES_DIR, read_section

Army = Mapping[str, int]  # land unit type -> how many


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LandRules(_Frozen):
    """The `[land]` section: the numbers of the land battle."""

    max_cycles: int = Field(ge=1)  # the battle stops after this many cycles (all stacks used)


@cache
def land_rules(name: str = "standard") -> LandRules:
    return read_section(RULES_DIR / f"{name}.toml", "land", LandRules)


class UnitStats(Protocol):
    """A land unit type's row of the rules' table (the rules' `LandUnit` is one)."""

    @property
    def name(self) -> str: ...
    @property
    def level(self) -> int: ...  # its row: the land units tech needed
    @property
    def hp(self) -> int: ...
    @property
    def damage(self) -> int: ...
    @property
    def targets(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def cost(self) -> int: ...


class UnitType(_Frozen):
    """A land unit type on its own (the rules' table has the same fields)."""

    name: str
    level: int = Field(ge=1)
    hp: int = Field(ge=1)
    damage: int = Field(ge=0)
    targets: int = Field(ge=1)
    size: int = Field(ge=1)
    cost: int = Field(ge=0)


# ---- armies ---------------------------------------------------------------------------------


def army_size(army: Army, units: Mapping[str, UnitStats]) -> int:
    return sum(count * units[unit].size for unit, count in army.items())


def army_problems(
    army: Army,
    units: Mapping[str, UnitStats],
    size_limit: int,
    unit_limit: int,
    unlimited: Collection[str] = (),
) -> list[str]:
    """What is wrong with an army (nothing: an empty list): an unknown unit, a count below
    zero, more of a type than `unit_limit` (types in `unlimited` excepted: the A.I.'s space
    cadets), a total size over `size_limit`."""
    problems = [f"there is no land unit {unit!r}" for unit in army if unit not in units]
    if problems:
        return problems
    for unit, count in army.items():
        name = units[unit].name
        if count < 0:
            problems.append(f"{name}: {count} is fewer than none")
        elif count > unit_limit and unit not in unlimited:
            problems.append(f"{name}: {count} is more than the {unit_limit} allowed")
    size = army_size(army, units)
    if size > size_limit:
        problems.append(f"the army's size is {size}, more than the {size_limit} it can have")
    return problems


def npc_army(
    size: int,
    land_tech: int,
    units: Mapping[str, UnitStats],
    unit_limit: int,
    unlimited: Collection[str] = (),
) -> dict[str, int]:
    """An NPC's land army of `size` size points: always the best unit it can get (the highest
    level up to `land_tech`), until that unit's limit is reached or it no longer fits, then the
    next best, and so on (the types in `unlimited` have no limit)."""
    army: dict[str, int] = {}
    room = size
    for unit, stats in sorted(units.items(), key=lambda u: (-u[1].level, u[0])):
        if stats.level > land_tech:
            continue
        most = room // stats.size
        if unit not in unlimited:
            most = min(most, unit_limit)
        if most > 0:
            army[unit] = most
            room -= most * stats.size
    return army


# ---- the battle -------------------------------------------------------------------------------


class LandSide(_Frozen):
    id: str  # a captain's or an NPC's id
    army: dict[str, int]
    defence_percent: int = Field(default=0, ge=0)  # the defender of a cold planet: 50


class Strike(_Frozen):
    """One stack of a side striking one enemy stack."""

    side: str
    unit: str
    count: int  # units striking
    target: str  # the enemy's unit type
    killed: int


class Step(_Frozen):
    cycle: int  # 1, 2 ... (a cycle ends when every stack has been used)
    number: int  # within the cycle
    strikes: tuple[Strike, ...]  # one per side with an unused stack left, at the same time


LandEnd = Literal["won", "none-left", "stalemate", "cycle-cap"]


class LandReport(_Frozen):
    steps: tuple[Step, ...]
    armies: dict[str, dict[str, int]]  # side -> the units left (types with none left omitted)
    end: LandEnd
    winner: str | None  # the side left (None: nobody, or a stalemate: the defender holds)


def hits_to_kill(attacker: UnitStats, target: UnitStats, defence_percent: int) -> int | None:
    """Hits of `attacker` one `target` unit takes to die (None: it cannot be hurt at all): its
    hp, raised by the defender's bonus, over the attacker's damage, rounded up."""
    if attacker.damage <= 0:
        return None
    hp = target.hp * (100 + defence_percent)
    return -(-hp // (100 * attacker.damage))


def kills(
    attacker: UnitStats, count: int, target: UnitStats, targets_left: int, defence_percent: int
) -> int:
    """How many of a stack of `targets_left` units `count` attackers kill in one strike: each
    attacker hits `targets` different units once; a unit dies when it has taken enough hits;
    hits on a unit that does not die are lost (units cannot be injured); the hits are spread to
    kill as many as possible."""
    needed = hits_to_kill(attacker, target, defence_percent)
    if needed is None or needed > count:
        return 0  # more hits than attackers: no unit can take enough (one hit per attacker)
    return min(targets_left, count * attacker.targets // needed)


@dataclass
class _Stack:
    unit: str
    count: int
    used: bool = False


def _choice(
    stacks: list[_Stack],
    enemies: list[_Stack],
    units: Mapping[str, UnitStats],
    defence_percent: int,
) -> tuple[_Stack, _Stack, int] | None:
    """The A.I.'s strike: of its unused stacks and the enemy's stacks, the pair killing the most
    (by the killed units' cost, then their number); ties: against the enemy's best unit, with
    its own weakest stack (keeping the best for later)."""
    best: tuple[tuple[int, int, int, int, str, str], _Stack, _Stack, int] | None = None
    for mine in stacks:
        if mine.used or mine.count <= 0:
            continue
        for theirs in enemies:
            if theirs.count <= 0:
                continue
            a, t = units[mine.unit], units[theirs.unit]
            killed = kills(a, mine.count, t, theirs.count, defence_percent)
            key = (-killed * t.cost, -killed, -t.level, a.level, theirs.unit, mine.unit)
            if best is None or key < best[0]:
                best = (key, mine, theirs, killed)
    return None if best is None else (best[1], best[2], best[3])


def fight(
    attacker: LandSide,
    defender: LandSide,
    units: Mapping[str, UnitStats],
    rules: LandRules,
) -> LandReport:
    """The land battle: each side picks one unused stack and a target stack; the strikes land at
    once and the dead are removed; until every stack has been used, then again."""
    for side in (attacker, defender):
        unknown = [u for u in side.army if u not in units]
        if unknown:
            raise ValueError(f"{side.id}: unknown land units {unknown}")
    order = sorted(units, key=lambda u: (units[u].level, u))
    armies = {
        side.id: [_Stack(u, side.army[u]) for u in order if side.army.get(u, 0) > 0]
        for side in (attacker, defender)
    }
    guard = {attacker.id: defender.defence_percent, defender.id: attacker.defence_percent}
    sides: Sequence[LandSide] = (attacker, defender)
    steps: list[Step] = []
    end: LandEnd = "cycle-cap"
    cycle = 0

    while True:
        alive = [s.id for s in sides if any(st.count > 0 for st in armies[s.id])]
        if len(alive) < 2:
            end = "won" if alive else "none-left"
            break
        if cycle >= rules.max_cycles:
            break
        cycle += 1
        for stack in (st for s in sides for st in armies[s.id]):
            stack.used = False
        killed_in_cycle = 0
        number = 0
        while True:
            picks = []
            for side, enemy in ((attacker, defender), (defender, attacker)):
                choice = _choice(armies[side.id], armies[enemy.id], units, guard[side.id])
                if choice is not None:
                    picks.append((side, choice))
            if not picks:
                break
            number += 1
            strikes = []
            for side, (mine, theirs, killed) in picks:
                mine.used = True
                strikes.append(
                    Strike(
                        side=side.id,
                        unit=mine.unit,
                        count=mine.count,
                        target=theirs.unit,
                        killed=killed,
                    )
                )
            for _, (_, theirs, killed) in picks:  # all at once, after every pick
                theirs.count -= killed
                killed_in_cycle += killed
            steps.append(Step(cycle=cycle, number=number, strikes=tuple(strikes)))
        if killed_in_cycle == 0:
            end = "stalemate"  # the next cycle would be the same
            break

    left = {
        side.id: {st.unit: st.count for st in armies[side.id] if st.count > 0} for side in sides
    }
    winners = [s for s in left if left[s]]
    return LandReport(
        steps=tuple(steps),
        armies=left,
        end=end,
        winner=winners[0] if end == "won" and winners else None,
    )
