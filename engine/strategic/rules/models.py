"""Pydantic models of a ruleset: every number of the game lives in data/rulesets/strategic-initiative/*.toml.

Code holds mechanisms; these models hold the numbers and the switches that choose between
mechanisms. Both rulesets load into the same models, so no code ever asks which ruleset it runs.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitClass(StrEnum):
    LAND = "land"
    SEA = "sea"
    AIR = "air"
    TECH = "tech"


class MovesOn(StrEnum):
    LAND = "land"
    SEA = "sea"
    AIR = "air"
    LAND_AND_SEA = "land_and_sea"
    NONE = "none"  # launched, never moved (satellites, ICBMs)


class RefuelPlace(StrEnum):
    AIRPORT = "airport"
    BASE = "base"
    ANY_CITY = "any_city"
    CARRIER = "carrier"
    CAPITAL_SHIP = "capital_ship"


class UnitType(Strict):
    """One row of a seed's unit table plus the flags its notes column implies."""

    name: str
    title: str
    unit_class: UnitClass
    moves_on: MovesOn
    built_in: str = Field(description="city designation that builds it")
    tech: int = Field(ge=0)
    cost_hours: int = Field(gt=0)
    mobility: int = Field(ge=0)
    sight: int | None = Field(default=None, ge=0, description="null: sees by radar")
    attack: int | None = Field(default=None, ge=0, description="null: bombs or blasts instead")
    bomb_percent: int | None = Field(default=None, ge=0, le=100)
    ammo: int | None = Field(default=None, ge=0)
    flak: int | None = Field(default=None, ge=0)
    cannon: int | None = Field(default=None, ge=0)
    hp: int = Field(gt=0)
    capacity: int = Field(default=0, ge=0)
    weight: int = Field(default=1, ge=0)
    carries: list[str] = Field(default_factory=list, description="selectors of what it may carry")
    picks_up: bool = Field(
        default=False, description="takes what it may carry from the square it leaves"
    )
    tags: list[str] = Field(default_factory=list)
    capital: bool = False
    sees_subs: int = Field(default=0, ge=0, description="radius at which it sees subs; 0: never")
    stealth: bool = False
    light_air: bool = False
    needs_supply: bool = True
    needs_fuel: bool = False
    fuel: int | None = Field(default=None, ge=0, description="full tank; null: the mobility stat")
    refuel_at: list[RefuelPlace] = Field(default_factory=list)
    counts_for_power: bool = True
    supplies_land: bool = False
    supplies_sea: bool = False
    can_attack_land: bool = False
    can_attack_sea: bool = False
    launchable: bool = False
    blast_radius: int | None = Field(default=None, ge=0)
    satellite_sight: int | None = Field(default=None, ge=0)
    builds_cities: bool = False
    switches_terrain: bool = False
    interdict_radius: int | None = Field(default=None, ge=0)
    escort: bool = False
    intercepts: bool = False
    structure: str | None = Field(
        default=None,
        pattern="^(becomes|research)$",
        description="a build option that is not a unit: what it does to its city",
    )
    becomes: str | None = Field(
        default=None, description="structure 'becomes': the new designation"
    )
    tech_bonus: int = Field(
        default=0, ge=0, description="extra tech centres while a city builds it"
    )
    # --- two-part ICBMs (seed 002; ruleset total-war): none of these in other rulesets
    icbm_part: str | None = Field(
        default=None,
        pattern="^(base|warhead)$",
        description="half of a two-part ICBM: the missile base or the warhead",
    )
    hit_percent: int = Field(
        default=0, ge=0, description="a base's chance to hit; a warhead's bonus to it"
    )
    blast_damage_percent: int | None = Field(
        default=None, ge=0, description="a warhead: damage to each unit in the blast, % of full hp"
    )
    captures: bool = Field(default=True, description="a land unit that may take a city")
    generation_of: str | None = Field(
        default=None,
        description="seed 002: the unit type this one is the next generation of (inherits its "
        "effectiveness rows)",
    )
    notes: str = ""

    @property
    def full_fuel(self) -> int:
        return self.fuel if self.fuel is not None else self.mobility


class Radar(Strict):
    """radius = max(min, base + floor(tech) // tech_divisor)"""

    base: int = Field(ge=0)
    tech_divisor: int = Field(gt=0)
    min: int = Field(ge=0)

    def radius(self, tech: float) -> int:
        return max(self.min, self.base + int(tech) // self.tech_divisor)


class CityType(Strict):
    name: str
    title: str
    flak: int | None = Field(default=None, ge=0)
    cannon: int | None = Field(default=None, ge=0)
    sight: int = Field(ge=0)
    radar: Radar | None = Field(default=None, description="sight that grows with tech")
    designatable: bool = Field(default=True, description="a player may choose it directly")
    builds_units: bool = True
    needs_coast: bool = False
    supplies_land: bool = True
    supplies_sea: bool = False
    ship_passage: bool = False
    halves_damage_to: list[str] = Field(default_factory=list, description="selectors of defenders")
    tech_weight: int = Field(default=0, ge=0)
    counts_as_base: bool = Field(default=False, description="counts in the regen formula's bases")

    def sight_at(self, tech: float) -> int:
        return max(self.sight, self.radar.radius(tech)) if self.radar else self.sight


class RegenRule(Strict):
    """Command points per tick = clamp((cities*per_city + bases*per_base_extra
    + capital_ships*per_capital_ship) // divisor, min, max)."""

    per_city: int = 1
    per_base_extra: int = 2
    per_capital_ship: int = 1
    divisor: int = Field(default=1, gt=0)
    min: int = Field(ge=0)
    max: int = Field(ge=0)


class CommandPointCosts(Strict):
    move: int = Field(ge=0)
    attack: int = Field(ge=0)
    capture: int = Field(ge=0)
    launch_satellite: int = Field(ge=0)
    switch_terrain: int = Field(ge=0)
    launch_icbm: int = Field(ge=0)
    build_city: int = Field(ge=0)
    city_orders: int = Field(ge=0)
    diplomacy: int = Field(ge=0)
    disband: int = Field(ge=0, description="disbanding units (one order, however many)")
    cede: int = Field(ge=0, description="ceding a city or units to a mutual ally")


class CommandPoints(Strict):
    start: int = Field(ge=0)
    max: int = Field(gt=0)
    regen: RegenRule
    costs: CommandPointCosts


class Power(Strict):
    hours_per_point: int = Field(
        gt=0, description="power is counted in units of this many build hours"
    )
    limit_per_city: int = Field(gt=0)


class Tech(Strict):
    max: float = Field(gt=0)
    daily_gain: list[float] = Field(
        min_length=2, description="by number of tech centres; the last repeats"
    )
    leak_top_divisor: float = Field(gt=0)
    leak_ally_divisor: float = Field(gt=0)
    next_build_margin: int = Field(ge=0)

    def gain_for(self, centres: int) -> float:
        return self.daily_gain[min(centres, len(self.daily_gain) - 1)]


class Supply(Strict):
    radius: int = Field(ge=0)
    out_of_supply_step_cost: int = Field(ge=1)


class Healing(Strict):
    in_city_percent: int = Field(ge=0, le=100)
    in_supply_percent: int = Field(ge=0, le=100)
    in_supply_cap_percent: int = Field(ge=0, le=100)


class Mobility(Strict):
    cap_multiple: int = Field(gt=0)
    new_unit_multiple: int = Field(ge=0)
    fleet_spread: int = Field(
        ge=1, description="ships given one order: squares around the goal they spread over"
    )


class Time(Strict):
    minutes_per_tick: int = Field(gt=0)
    unit_update_hours: int = Field(gt=0, description="mobility and healing period")
    default_length_days: int = Field(gt=0)


class Sighting(Strict):
    memory_hours: int = Field(ge=0)
    sub_memory_hours: int = Field(ge=0)
    threat_radius: int | None = Field(
        default=None,
        ge=0,
        description="enemy units seen this near an own city are reported; null: never",
    )


class Engineer(Strict):
    build_city_mobility: int = Field(ge=0)
    switch_terrain_mobility: int = Field(ge=0)
    build_city_on_water: bool
    city_blocked_by: str = Field(pattern="^(other_player|enemy)$")


class Transport(Strict):
    pickup_min_hp: int = Field(ge=0, description="hurt infantry below this stays in a city")


class Capture(Strict):
    hp_loss: int = Field(ge=0)
    new_designation: str


class Multiplier(Strict):
    attacker: str
    defender: str
    factor: int = Field(gt=0)
    exclude: list[str] = Field(default_factory=list)


class Combat(Strict):
    damage_min_fraction: float = Field(gt=0, le=1)
    minimal_attack: int = Field(ge=0)
    minimal_attack_cases: list[str]
    multipliers: list[Multiplier]
    air_in_city_factor: int = Field(gt=0)
    ship_in_port_factor: int = Field(gt=0)
    fort_divisor: int = Field(gt=0)
    bomb_rounding: str = Field(pattern="^(up|down)$")
    naval_adjacent_counter: bool
    interception_radius: int = Field(ge=0)
    interception_targets: list[str]
    interception_min_hp: int = Field(ge=0)
    interdiction_min_hp: int = Field(ge=0)
    interdiction_needs_supply: bool
    battle_formation_radius: int | None = Field(default=None, ge=0)
    escort_radius: int = Field(ge=0)
    mad_threshold: int = Field(ge=0)
    mad_city_score: int = Field(ge=0)
    mad_relation_modifier: dict[str, int]


# --- seed 002 (ruleset total-war): battles in rounds, effectiveness, generations -------------


class Effect(StrEnum):
    EFFECTIVE = "effective"
    NORMAL = "normal"
    WEAK = "weak"


class Battle(Strict):
    """Seed 002: an attack on a square is a battle in turns between the attacking units and
    every defender there; each unit attack destroys its target or misses (docs/RULES.md,
    "Ruleset total-war"). `effective[a]` / `weak[a]`: the defender types attacker type `a` is
    effective / weak against (unlisted pairs are normal)."""

    turns: int = Field(gt=0, description="turns each side gets at most in one battle")
    misses_per_troops: int = Field(
        gt=0, description="a side's turn ends after ceil(its troops / this) misses"
    )
    effective_bonus_percent: int = Field(ge=0, description="attack bonus when effective")
    weak_bonus_percent: int = Field(ge=0, description="the defender's counter bonus when weak")
    effective: dict[str, list[str]] = Field(default_factory=dict)
    weak: dict[str, list[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _no_pair_twice(self) -> Battle:
        for attacker, defenders in self.weak.items():
            both = set(defenders) & set(self.effective.get(attacker, []))
            if both:
                raise ValueError(f"{attacker} is both effective and weak against {sorted(both)}")
        return self


class Diplomacy(Strict):
    levels: list[str] = Field(min_length=2, description="lowest first")
    start: str
    war: str = "war"
    max_allies: int | None = Field(default=None, ge=0)
    notice_hours: dict[str, int] = Field(
        default_factory=dict, description="level -> notice to leave it"
    )
    shares_sightings: list[str] = Field(default_factory=list)
    blocks_interception: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _known_levels(self) -> Diplomacy:
        for name in [
            self.start,
            self.war,
            *self.notice_hours,
            *self.shares_sightings,
            *self.blocks_interception,
        ]:
            if name not in self.levels:
                raise ValueError(f"unknown diplomacy level {name!r}")
        return self

    def rank(self, level: str) -> int:
        return self.levels.index(level)


class StartPosition(Strict):
    cities: list[str] = Field(min_length=1, description="designation of each starting city")
    units: dict[str, int] = Field(
        default_factory=dict, description="unit type -> count, in the first city"
    )
    second_units: dict[str, int] = Field(default_factory=dict, description="in the second city")
    neutral_cities_near_home: int = Field(ge=0)


class IcbmDefence(Strict):
    tech: int = Field(ge=0, description="from this tech level")
    percent: int = Field(ge=0, le=100, description="taken off the chance to hit its cities")


class TwoPartIcbms(Strict):
    """Seed 002's ICBMs: a missile base and a warhead launched together (ruleset total-war)."""

    capture_destroy_percent: int = Field(
        ge=0, le=100, description="chance each part in a captured city is destroyed"
    )
    effective_against: list[str] = Field(description="selectors of defenders it is effective on")
    effective_exclude: list[str] = Field(default_factory=list)
    effective_damage_percent: int = Field(
        gt=0, description="damage against those, in % of the warhead's damage"
    )
    defence: list[IcbmDefence] = Field(
        default_factory=list, description="a nation's ICBM defence by its tech level"
    )

    def defence_at(self, tech: float) -> int:
        return max((d.percent for d in self.defence if d.tech <= tech), default=0)


class Wastelands(Strict):
    """Seed 002's wastelands and ecological collapse (ruleset total-war)."""

    days: int = Field(gt=0, description="a wasteland returns to its former owner after this")
    returns_at_percent: int = Field(
        gt=0, le=100, description="its output then, in % of what it produced before"
    )
    invest_points: int = Field(gt=0, description="command points a point of output costs")
    ecology_per_wasteland: int = Field(gt=0)
    collapse_at: int = Field(gt=0, description="the meter at which society collapses")


class Ruleset(Strict):
    name: str
    title: str
    description: str = ""
    time: Time
    command_points: CommandPoints
    power: Power
    tech: Tech
    supply: Supply
    healing: Healing
    mobility: Mobility
    sighting: Sighting
    engineer: Engineer
    capture: Capture
    transport: Transport
    combat: Combat
    diplomacy: Diplomacy
    start: StartPosition
    cities: list[CityType]
    units: list[UnitType]
    # seed 002 (ruleset total-war); None: today's one-piece ICBMs and waste
    icbm: TwoPartIcbms | None = None
    wastelands: Wastelands | None = None
    battle: Battle | None = Field(
        default=None, description="seed 002: battles in rounds (none: one exchange per attack)"
    )

    @model_validator(mode="after")
    def _consistent(self) -> Ruleset:
        city_names = {c.name for c in self.cities}
        unit_names = [u.name for u in self.units]
        if len(set(unit_names)) != len(unit_names):
            raise ValueError("duplicate unit names")
        for u in self.units:
            if u.built_in not in city_names:
                raise ValueError(f"unit {u.name!r}: built_in {u.built_in!r} is not a city type")
        for u in self.units:
            if (u.structure == "becomes") != (u.becomes is not None):
                raise ValueError(
                    f"unit {u.name!r}: structure 'becomes' needs `becomes` (and only it)"
                )
            if u.becomes is not None and u.becomes not in city_names:
                raise ValueError(f"unit {u.name!r}: becomes {u.becomes!r} is not a city type")
        for d in self.start.cities:
            if d not in city_names:
                raise ValueError(f"start.cities: {d!r} is not a city type")
        for name in [*self.start.units, *self.start.second_units]:
            if name not in unit_names:
                raise ValueError(f"start units: {name!r} is not a unit type")
        if self.capture.new_designation not in city_names:
            raise ValueError(f"capture.new_designation {self.capture.new_designation!r} unknown")
        parts = {u.icbm_part for u in self.units if u.icbm_part is not None}
        if parts and (self.icbm is None or parts != {"base", "warhead"}):
            raise ValueError("two-part ICBMs need an [icbm] section, a base and a warhead")
        self._check_generations(set(unit_names))
        return self

    def _check_generations(self, names: set[str]) -> None:
        """Seed 002: every name in the effectiveness table is a unit type; a new generation
        follows a unit type that exists and needs more tech than it."""
        by_name = {u.name: u for u in self.units}
        for u in self.units:
            if u.generation_of is None:
                continue
            old = by_name.get(u.generation_of)
            if old is None:
                raise ValueError(
                    f"unit {u.name!r}: generation_of {u.generation_of!r} is not a unit"
                )
            if old.tech >= u.tech:
                raise ValueError(
                    f"unit {u.name!r}: a new generation needs more tech than {old.name!r}"
                )
        if self.battle is None:
            return
        for section, table in (("effective", self.battle.effective), ("weak", self.battle.weak)):
            for attacker, defenders in table.items():
                for name in [attacker, *defenders]:
                    if name not in names:
                        raise ValueError(
                            f"battle.{section}.{attacker}: {name!r} is not a unit type"
                        )

    # --- lookups -------------------------------------------------------------------------

    @cached_property
    def unit(self) -> dict[str, UnitType]:
        return {u.name: u for u in self.units}

    @cached_property
    def city(self) -> dict[str, CityType]:
        return {c.name: c for c in self.cities}

    @cached_property
    def stealthy(self) -> frozenset[str]:
        """Names of the unit types only sub-sight sees (submarines)."""
        return frozenset(u.name for u in self.units if u.stealth)

    @cached_property
    def interdiction_reach(self) -> int:
        """The widest radius at which any unit interdicts (or sees a sub to interdict it)."""
        return max((max(u.interdict_radius or 0, u.sees_subs) for u in self.units), default=0)

    # (cached: the engine and the host's passes over every game ask these all the time, and
    # a ruleset never changes once loaded)
    @cached_property
    def ticks_per_hour(self) -> int:
        return 60 // self.time.minutes_per_tick

    @cached_property
    def ticks_per_day(self) -> int:
        return 24 * self.ticks_per_hour

    @cached_property
    def ticks_per_unit_update(self) -> int:
        return self.time.unit_update_hours * self.ticks_per_hour

    def clock(self, tick: int) -> str:
        """Game time at a tick as 'day D hh:mm' (day 1 starts at tick 0)."""
        minutes = tick * self.time.minutes_per_tick
        return f"day {minutes // 1440 + 1} {minutes % 1440 // 60:02d}:{minutes % 60:02d}"

    def builds_of(self, designation: str) -> list[UnitType]:
        return [u for u in self.units if u.built_in == designation]

    def matches(self, unit: UnitType, selector: str) -> bool:
        """A selector names a unit type (and its newer generations), `class:<land|sea|air|tech>`,
        `tag:<tag>` or `capital`."""
        if selector.startswith("class:"):
            return unit.unit_class == selector[6:]
        if selector.startswith("tag:"):
            return selector[4:] in unit.tags
        if selector == "capital":
            return unit.capital
        if selector == "light_air":
            return unit.light_air
        return unit.name == selector or selector in self._lineages[unit.name]

    def lineage(self, name: str) -> list[str]:
        """A unit type and the older generations it follows, newest first."""
        return list(self._lineages[name])

    @cached_property
    def _lineages(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for unit in self.units:
            line = [unit.name]
            while (old := self.unit[line[-1]].generation_of) is not None and old not in line:
                line.append(old)
            out[unit.name] = tuple(line)
        return out

    def newest(self, name: str, tech: float) -> str:
        """The newest generation of a unit type that this tech may build (itself if none)."""
        best = name
        for u in self.units:
            reached = u.tech <= tech + 1e-9
            if reached and name in self._lineages[u.name] and u.tech > self.unit[best].tech:
                best = u.name
        return best

    def effect(self, attacker: str, defender: str) -> Effect:
        """Seed 002: how an attacker type fares against a defender type. A new generation has
        its own rows and those of the generations it follows; normal without a battle table."""
        return self._effects.get((attacker, defender), Effect.NORMAL)

    @cached_property
    def _effects(self) -> dict[tuple[str, str], Effect]:
        """Each pair's nearest row: its own before one inherited from an older generation."""
        out: dict[tuple[str, str], Effect] = {}
        if self.battle is None:
            return out
        tables = ((Effect.EFFECTIVE, self.battle.effective), (Effect.WEAK, self.battle.weak))
        for a in self.unit:
            for d in self.unit:
                rows = [
                    (i + j, rank, effect)
                    for rank, (effect, table) in enumerate(tables)
                    for i, old_a in enumerate(self.lineage(a))
                    for j, old_d in enumerate(self.lineage(d))
                    if old_d in table.get(old_a, [])
                ]
                if rows:
                    out[(a, d)] = min(rows)[2]
        return out

    def multiplier(self, attacker: UnitType, defender: UnitType) -> int:
        factor = 1
        for m in self.combat.multipliers:
            if (
                self.matches(attacker, m.attacker)
                and self.matches(defender, m.defender)
                and not any(self.matches(defender, e) for e in m.exclude)
            ):
                factor = max(factor, m.factor)
        return factor
