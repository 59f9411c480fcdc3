"""Caldera's space battle (seed 003, "Space Battle"): the fleets of two or more sides meet at one
place and fight rounds until one team is left. A pure function of its input: `fight(sides,
rules, arm)` gives a round-by-round report and every ship's final structure; the caller (the turn)
builds the sides from its state and applies the outcome. No dice: the seed's battle has none.

The rules' numbers are the `[battle]` section of data/rulesets/caldera/standard.toml
(`BattleRules`); docs/RULES-CALDERA.md "Space battle" tells the rules as players read them,
with every decision the seed leaves open."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rulesets" / "caldera"

M = TypeVar("M", bound=BaseModel)


class SectionError(ValueError):
    """A rules file's section is missing or malformed: the message names the file and the field."""


def read_section(path: Path, section: str, model: type[M]) -> M:
    """The section `section` of a rules file (data/rulesets/caldera/<name>.toml), validated by
    `model`."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SectionError(f"{path.name}: no such rules file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SectionError(f"{path.name}: not valid TOML: {exc}") from exc
    if section not in raw:
        raise SectionError(f"{path.name}: no [{section}] section")
    try:
        return model.model_validate(raw[section])
    except ValidationError as exc:
        lines = [
            f"{path.name}: {section}.{'.'.join(map(str, e['loc']))}: {e['msg']}"
            for e in exc.errors()
        ]
        raise SectionError("\n".join(lines)) from None


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BattleRules(_Frozen):
    """The `[battle]` section: the numbers of the space battle. (Arm's effects are the captains'
    stats effects, `ArmEffects`; which defence covers which weapon type is the deck's; fleet
    limits and repair costs are other sections of the rules.)"""

    weapon_order: tuple[str, ...] = Field(min_length=1)  # the A.I.'s tie-break, first = best
    max_rounds: int = Field(ge=1)

    @model_validator(mode="after")
    def _types_once(self) -> BattleRules:
        if len(set(self.weapon_order)) != len(self.weapon_order):
            raise ValueError("weapon_order names a type twice")
        return self


class ArmEffects(_Frozen):
    """What each point of a captain's Arm (Rearmament) does, from the rules' stats effects."""

    damage_points: int = Field(ge=0)  # per point, on every hit ...
    damage_percent: int = Field(ge=0)  # ... or this percent of it, whichever is larger
    defence_percent: int = Field(ge=0)  # per point, on every defence value

    @classmethod
    def of(cls, effects: StatEffects) -> ArmEffects:
        """From the rules' `[stats.effects]` (`rules.load(name).stats.effects`)."""
        return cls(
            damage_points=effects.damage_points_per_arm,
            damage_percent=effects.damage_percent_per_arm,
            defence_percent=effects.defence_percent_per_arm,
        )


class StatEffects(Protocol):
    """What the battle reads of the rules' stats effects."""

    @property
    def damage_points_per_arm(self) -> int: ...
    @property
    def damage_percent_per_arm(self) -> int: ...
    @property
    def defence_percent_per_arm(self) -> int: ...


@cache
def battle_rules(name: str = "standard") -> BattleRules:
    return read_section(RULES_DIR / f"{name}.toml", "battle", BattleRules)


# ---- the input ----------------------------------------------------------------------------


class Weapon(_Frozen):
    """One weapon mount of a ship (two laser cannons are two mounts)."""

    tech: str  # its tech id ("laser-cannon")
    type: str  # its weapon type ("laser"), one of the rules' weapon_order
    damage: int = Field(ge=1)  # one hit's damage at the owner's layout level, before Arm


class Ship(_Frozen):
    id: int
    cls: int = Field(ge=1)  # the class number (interceptor 1, frigate 2 ...); ignored for a yard
    structure: int = Field(ge=1)  # structure points now
    max_structure: int | None = None  # when whole (None: `structure`): damaged A.I. ships go home
    weapons: tuple[Weapon, ...] = ()
    # weapon type -> the points its defences take off each hit of that type, before Arm (the
    # sum of the values of the defences covering the type: `defences_by_type`)
    defences: dict[str, int] = Field(default_factory=dict)
    engine: int = Field(default=0, ge=0)  # its engine's range: the faster side starts
    shipyard: bool = False  # joins after every ship, fires every weapon, targeted last
    protected: bool = False  # an escorted A.I. ship (wingman, rare cargo): its enemies hit it last
    # a captain's order: leave when the structure is at or below this (fights one more round);
    # the full structure or more: leave after its first round. A.I. ships never retreat.
    retreat_at: int | None = None

    @property
    def whole(self) -> int:
        return self.structure if self.max_structure is None else self.max_structure


class Side(_Frozen):
    """One captain's or one NPC's ships at the place."""

    id: str  # a captain's id or an NPC's id
    team: str  # sides of one team are allies ("players", or the enemy NPC's id)
    ai: bool = False  # an A.I. (NPC) side: never retreats; damaged ships go home afterwards
    arm: int = Field(default=0, ge=0)  # the captain's Arm (Rearmament)
    defence_percent: int = Field(default=0, ge=0)  # more defence (a cold planet's owner: 50)
    moved_from_cost: int | None = (
        None  # the move cost of the place it came from (None: it was here)
    )
    order: int = 0  # the earlier race has the smaller number (Earth's captains first)
    ships: tuple[Ship, ...]


# ---- the report ---------------------------------------------------------------------------


class Salvo(_Frozen):
    """All the same weapons of one side firing together in a round."""

    side: str
    weapon: str  # tech id
    type: str
    hits: int  # weapons fired (each fires once a round)
    damage: int  # one hit's damage with Arm, before the target's defences
    ships: tuple[int, ...]  # the ships that fired it


class Damage(_Frozen):
    """What one ship took in a round (from every enemy)."""

    ship: int
    side: str
    points: int  # structure lost
    absorbed: int  # stopped by its defences
    structure: int  # left after the round (0 or less: destroyed)
    by: dict[str, int]  # the points each enemy side dealt it


class Round(_Frozen):
    number: int  # 1, 2 ...
    joined: tuple[int, ...]  # ships fighting from this round on
    salvos: tuple[Salvo, ...]
    damage: tuple[Damage, ...]
    wasted: dict[str, int]  # team -> damage no enemy ship could take (all absorbed)
    destroyed: tuple[int, ...]
    marked: tuple[int, ...]  # tokens marked down: they fight the next round, then leave
    left: tuple[int, ...]  # retreated after this round, back to the tile they came from


class ShipOutcome(_Frozen):
    id: int
    side: str
    structure: int  # at the end (0 or less: destroyed)
    destroyed: bool
    retreated: bool  # back to the tile it came from
    goes_home: bool  # a damaged A.I. ship: withdraws to its base for repairs
    fought: bool  # it joined at least one round
    # the enemy side that dealt it the most in the round it was destroyed (ties: the side
    # first in the battle's order: the starter first), for kills counted to a captain
    destroyed_by: str | None = None


End = Literal["won", "none-left", "stalemate", "round-cap"]


class BattleReport(_Frozen):
    starter: str  # the side that starts (the attacker)
    rounds: tuple[Round, ...]
    ships: tuple[ShipOutcome, ...]
    end: End
    winner: str | None  # the team left at the place (None: nobody, or a stalemate)


# ---- the rules as functions ----------------------------------------------------------------


def defences_by_type(parts: Iterable[tuple[Iterable[str], int]]) -> dict[str, int]:
    """A ship's `defences` from its defence parts: (the weapon types a part covers, its value)."""
    table: dict[str, int] = {}
    for covers, value in parts:
        for weapon_type in covers:
            table[weapon_type] = table.get(weapon_type, 0) + value
    return table


def hit_damage(weapon: Weapon, arm: int, effects: ArmEffects) -> int:
    """One hit's damage with the firing captain's Arm: each point adds one point or 10% of the
    hit (rounded down), whichever is larger."""
    per_point = max(effects.damage_points, weapon.damage * effects.damage_percent // 100)
    return weapon.damage + arm * per_point


def defence(ship: Ship, side: Side, weapon_type: str, effects: ArmEffects) -> int:
    """The points a hit of `weapon_type` loses on `ship`: its defences covering that type,
    raised 25% per Arm point (and by a planet's bonus), rounded down."""
    percent = 100 + side.arm * effects.defence_percent + side.defence_percent
    return ship.defences.get(weapon_type, 0) * percent // 100


def starter(sides: Sequence[Side]) -> Side:
    """Who starts: among the sides that arrived (all, if none moved) the one with the faster
    engine (its fastest ship's), then the one that came from the nearest place, then the earlier
    race."""
    movers = [s for s in sides if s.moved_from_cost is not None] or list(sides)
    return min(
        movers,
        key=lambda s: (
            -max((sh.engine for sh in s.ships), default=0),
            s.moved_from_cost if s.moved_from_cost is not None else 0,
            s.order,
        ),
    )


# ---- the battle ------------------------------------------------------------------------------


@dataclass
class _Live:
    ship: Ship
    side: Side
    structure: int
    joined: bool = False
    marked: bool = False
    fought: bool = False
    left: bool = False
    destroyed_by: str | None = None

    @property
    def here(self) -> bool:
        return self.structure > 0 and not self.left


@dataclass
class _Hit:
    index: int
    live: _Live
    weapon: Weapon
    damage: int


def _target_order(enemies: list[_Live]) -> list[_Live]:
    """The order the damage goes to: the largest class first (the weakest of a class first, to
    kill as many as possible), the shipyard as the smallest, protected A.I. ships after all."""
    return sorted(
        enemies,
        key=lambda e: (e.ship.protected, e.ship.shipyard, -e.ship.cls, e.structure, e.ship.id),
    )


def _effective(hit: _Hit, target: _Live, arm: ArmEffects) -> int:
    return max(0, hit.damage - defence(target.ship, target.side, hit.weapon.type, arm))


def _chosen_weapons(
    live: _Live, target: _Live, rules: BattleRules, arm: ArmEffects
) -> list[Weapon]:
    """The weapons a ship fires this round: its class number of them (a shipyard: all), those
    dealing the most against the first ship its damage goes to; ties in the rules' type order."""
    rank = {t: i for i, t in enumerate(rules.weapon_order)}
    mounts = list(enumerate(live.ship.weapons))

    def key(item: tuple[int, Weapon]) -> tuple[int, int, int]:
        index, weapon = item
        dealt = max(
            0,
            hit_damage(weapon, live.side.arm, arm)
            - defence(target.ship, target.side, weapon.type, arm),
        )
        return (-dealt, rank[weapon.type], index)

    limit = len(mounts) if live.ship.shipyard else live.ship.cls
    return [w for _, w in sorted(mounts, key=key)[:limit]]


def _kill_with(hits: list[_Hit], target: _Live, arm: ArmEffects) -> list[_Hit] | None:
    """The hits that destroy `target` with the least waste (the largest until one hit can finish
    it, then the smallest that does), or None when all of them cannot."""
    useful = sorted(
        (h for h in hits if _effective(h, target, arm) > 0),
        key=lambda h: (-_effective(h, target, arm), h.index),
    )
    if sum(_effective(h, target, arm) for h in useful) < target.structure:
        return None
    picked: list[_Hit] = []
    dealt = 0
    while True:
        need = target.structure - dealt
        finishers = [h for h in useful if _effective(h, target, arm) >= need]
        if finishers:
            last = min(finishers, key=lambda h: (_effective(h, target, arm), h.index))
            return [*picked, last]
        first = useful.pop(0)
        picked.append(first)
        dealt += _effective(first, target, arm)


def _distribute(
    hits: list[_Hit], enemies: list[_Live], arm: ArmEffects, taken: dict[int, list[_Hit]]
) -> int:
    """Spreads one team's hits over its enemies as the A.I. does (kill as many of the largest
    ships as possible, then the next largest; what is left to the largest ship left); returns
    the damage no enemy could take."""
    order = _target_order(enemies)
    remaining = list(hits)
    survivors: list[_Live] = []
    for target in order:
        kill = _kill_with(remaining, target, arm)
        if kill is None:
            survivors.append(target)
            continue
        used = {h.index for h in kill}
        remaining = [h for h in remaining if h.index not in used]
        taken[target.ship.id].extend(kill)
    wasted = 0
    for hit in remaining:
        to = next((t for t in survivors if _effective(hit, t, arm) > 0), None)
        if to is None:
            wasted += hit.damage
        else:
            taken[to.ship.id].append(hit)
    return wasted


def _salvos(hits: list[_Hit]) -> tuple[Salvo, ...]:
    groups: dict[tuple[str, str, int], list[_Hit]] = {}
    for hit in hits:
        key = (hit.live.side.id, hit.weapon.tech, hit.damage)
        groups.setdefault(key, []).append(hit)
    return tuple(
        Salvo(
            side=side,
            weapon=tech,
            type=group[0].weapon.type,
            hits=len(group),
            damage=damage,
            ships=tuple(sorted({h.live.ship.id for h in group})),
        )
        for (side, tech, damage), group in groups.items()
    )


def _check(sides: Sequence[Side], rules: BattleRules) -> None:
    if len({s.team for s in sides}) < 2:
        raise ValueError("a battle needs sides of two teams or more")
    ids = [sh.id for s in sides for sh in s.ships]
    if len(set(ids)) != len(ids):
        raise ValueError("two ships share an id")
    if len({s.id for s in sides}) != len(sides):
        raise ValueError("two sides share an id")
    for s in sides:
        for sh in s.ships:
            for w in sh.weapons:
                if w.type not in rules.weapon_order:
                    raise ValueError(f"ship {sh.id}: unknown weapon type {w.type!r}")


def fight(sides: Sequence[Side], rules: BattleRules, arm: ArmEffects) -> BattleReport:
    """The whole battle at one place, round by round."""
    _check(sides, rules)
    first = starter(sides)
    ordered = [first, *(s for s in sides if s is not first)]
    lives = [_Live(ship=sh, side=s, structure=sh.structure) for s in ordered for sh in s.ships]
    for live in lives:
        _mark_if_leaving(live)
    classes = sorted({lv.ship.cls for lv in lives if not lv.ship.shipyard})
    stages: list[int | None] = [*classes]  # a class joins; None: the shipyards join
    if any(lv.ship.shipyard for lv in lives):
        stages.append(None)
    stage = 0
    rounds: list[Round] = []
    end: End = "round-cap"

    while True:
        if len({lv.side.team for lv in lives if lv.here}) < 2:
            end = "won" if any(lv.here for lv in lives) else "none-left"
            break
        if len(rounds) >= rules.max_rounds:
            break
        # a stage where fewer than two teams would have ships in the fight joins the next at once
        joined_now: list[int] = []
        while True:
            joined_now += _join(lives, stages[: stage + 1])
            teams = {lv.side.team for lv in lives if lv.here and lv.joined}
            if len(teams) >= 2 or stage == len(stages) - 1:
                break
            stage += 1
        all_in = stage == len(stages) - 1
        played = _round(len(rounds) + 1, lives, joined_now, rules, arm)
        rounds.append(played)
        if all_in and not played.damage and not played.left and not played.marked:
            end = "stalemate"  # every ship is in and nothing changed: the same round forever
            break
        if not all_in:
            stage += 1

    teams_left = {lv.side.team for lv in lives if lv.here}
    return BattleReport(
        starter=first.id,
        rounds=tuple(rounds),
        ships=tuple(_outcome(lv) for lv in lives),
        end=end,
        winner=next(iter(teams_left)) if end == "won" else None,
    )


def _join(lives: list[_Live], stages: list[int | None]) -> list[int]:
    """Lets in the ships of the stages reached; returns the ships that joined just now."""
    largest = max((c for c in stages if c is not None), default=0)
    yards = None in stages
    joined = []
    for lv in lives:
        can = yards if lv.ship.shipyard else lv.ship.cls <= largest
        if can and not lv.joined and lv.here:
            lv.joined = True
            joined.append(lv.ship.id)
    return joined


def _mark_if_leaving(live: _Live) -> bool:
    ship = live.ship
    if live.side.ai or live.marked or ship.retreat_at is None or ship.shipyard:
        return False
    if live.structure > 0 and live.structure <= ship.retreat_at:
        live.marked = True
        return True
    return False


def _round(
    number: int, lives: list[_Live], joined_now: list[int], rules: BattleRules, arm: ArmEffects
) -> Round:
    fighters = [lv for lv in lives if lv.here and lv.joined]
    teams = sorted({lv.side.team for lv in fighters}, key=lambda t: _first_index(fighters, t))
    taken: dict[int, list[_Hit]] = {lv.ship.id: [] for lv in fighters}
    all_hits: list[_Hit] = []
    wasted: dict[str, int] = {}
    for team in teams:
        enemies = [lv for lv in fighters if lv.side.team != team]
        if not enemies:
            continue
        target = _target_order(enemies)[0]
        hits: list[_Hit] = []
        for lv in fighters:
            if lv.side.team != team:
                continue
            lv.fought = True
            for weapon in _chosen_weapons(lv, target, rules, arm):
                points = hit_damage(weapon, lv.side.arm, arm)
                hits.append(_Hit(len(all_hits) + len(hits), lv, weapon, points))
        all_hits.extend(hits)
        lost = _distribute(hits, enemies, arm, taken)
        if lost:
            wasted[team] = lost
    # the damage of every team lands at once, at the end of the round
    order = {side: i for i, side in enumerate(dict.fromkeys(lv.side.id for lv in lives))}
    damage: list[Damage] = []
    for lv in fighters:
        got = taken[lv.ship.id]
        if not got:
            continue
        points = sum(_effective(h, lv, arm) for h in got)
        absorbed = sum(h.damage for h in got) - points
        lv.structure -= points
        by: dict[str, int] = {}
        for hit in sorted(got, key=lambda h: h.index):
            if (dealt := _effective(hit, lv, arm)) > 0:
                by[hit.live.side.id] = by.get(hit.live.side.id, 0) + dealt
        if lv.structure <= 0:
            lv.destroyed_by = max(by, key=lambda side: (by[side], -order[side]))
        damage.append(
            Damage(
                ship=lv.ship.id,
                side=lv.side.id,
                points=points,
                absorbed=absorbed,
                structure=lv.structure,
                by=by,
            )
        )
    destroyed = tuple(lv.ship.id for lv in fighters if lv.structure <= 0)
    left = []
    for lv in fighters:
        if lv.here and lv.marked:
            lv.left = True
            left.append(lv.ship.id)
    marked = tuple(lv.ship.id for lv in fighters if lv.here and _mark_if_leaving(lv))
    return Round(
        number=number,
        joined=tuple(sorted(joined_now)),
        salvos=_salvos(all_hits),
        damage=tuple(damage),
        wasted=wasted,
        destroyed=destroyed,
        marked=marked,
        left=tuple(left),
    )


def _first_index(fighters: list[_Live], team: str) -> int:
    return next(i for i, lv in enumerate(fighters) if lv.side.team == team)


def _outcome(lv: _Live) -> ShipOutcome:
    destroyed = lv.structure <= 0
    return ShipOutcome(
        id=lv.ship.id,
        side=lv.side.id,
        structure=lv.structure,
        destroyed=destroyed,
        retreated=lv.left,
        goes_home=(
            lv.side.ai and not destroyed and not lv.ship.shipyard and lv.structure < lv.ship.whole
        ),
        fought=lv.fought,
        destroyed_by=lv.destroyed_by,
    )
