"""A Caldera captain's character: the six stats, what each does, and the starting bonuses bought
with the 500 starting credits ("Starting the game", "Player skills").

    stats = Stats(cha=3, int=3, eng=3, arm=2, com=2, eco=2)
    check_stats(stats, rules)                       # CaptainError if not 15 points, Cha/Int/Eng >= 2
    me = new_character(stats, rules)                # 500 credits, the starting techs at layout 0
    me = buy(me, "earth-interceptor", rules, deck, state)
    research_cost(deck.techs["frigate"].research_cost, me.stats, rules)

Every number comes from the rules ([stats], [start], [bonuses]); the functions only apply
them. Costs and bonuses are whole credits and points, rounded down. A purchase that cannot be
made raises CaptainError with a message for the captain and changes nothing."""

from __future__ import annotations

import builtins

from pydantic import BaseModel, ConfigDict, Field

from engine.caldera import chance
from engine.caldera.chance import Seeded
from engine.caldera.rules import STATS, Deck, Rules


class CaptainError(ValueError):
    """A character or a purchase the rules refuse; the message is for the captain."""


class Stats(BaseModel):
    """The six stats (the field `int` is Intelligence, hence `builtins.int` here)."""

    model_config = ConfigDict(extra="forbid")

    cha: builtins.int = Field(default=0, ge=0)
    int: builtins.int = Field(default=0, ge=0)
    eng: builtins.int = Field(default=0, ge=0)
    arm: builtins.int = Field(default=0, ge=0)
    com: builtins.int = Field(default=0, ge=0)
    eco: builtins.int = Field(default=0, ge=0)

    def total(self) -> builtins.int:
        return sum(getattr(self, s) for s in STATS)

    def get(self, stat: str) -> builtins.int:
        if stat not in STATS:
            raise KeyError(stat)
        return builtins.int(getattr(self, stat))


class Character(BaseModel):
    """A captain's character while setting up: stats, credits, the techs known (tech id ->
    layout level), the starting ships bought (their starting_ships ids) and the bonuses
    bought (ids, in order)."""

    model_config = ConfigDict(extra="forbid")

    stats: Stats
    credits: int = Field(ge=0)
    techs: dict[str, int] = Field(default_factory=dict)
    ships: list[str] = Field(default_factory=list)
    bought: list[str] = Field(default_factory=list)


def check_stats(stats: Stats, rules: Rules, extra_points: int = 0) -> None:
    """Refuse stats that are not the rules' points (15, plus `extra_points` bought) or leave a
    stat under its minimum (Cha, Int and Eng at least 2)."""
    points = rules.stats.points + extra_points
    low = [
        f"{rules.stats.names[s]} at least {rules.stats.minimum[s]}"
        for s in rules.stats.order
        if stats.get(s) < rules.stats.minimum[s]
    ]
    if low:
        raise CaptainError(f"Your stats need {', '.join(low)}.")
    if stats.total() != points:
        raise CaptainError(
            f"Distribute exactly {points} points between your stats (these add up to {stats.total()})."
        )


def new_character(stats: Stats, rules: Rules) -> Character:
    """A new captain: checked stats, the starting credits, the starting techs at layout 0."""
    check_stats(stats, rules)
    return Character(
        stats=stats, credits=rules.start.credits, techs=dict.fromkeys(rules.start.techs, 0)
    )


# ---- what each stat does ----------------------------------------------------------------------


def choices(points: int, rules: Rules) -> int:
    """Cards for a stat's choice: one for each two points, rounded down ("Int/2")."""
    return max(points, 0) // rules.stats.effects.choice_points


def mission_choices(stats: Stats, rules: Rules) -> int:
    """Mission cards drawn to choose the next mission from (Cha/2)."""
    return choices(stats.cha, rules)


def reward_cards(stats: Stats, rules: Rules) -> int:
    """Mission rewards drawn (and all given) when a mission is completed (Cha/2)."""
    return choices(stats.cha, rules)


def research_choices(stats: Stats, rules: Rules) -> int:
    """Research cards drawn to choose the next research from (Int/2)."""
    return choices(stats.int, rules)


def design_choices(stats: Stats, rules: Rules) -> int:
    """Design cards drawn each turn to choose a design from (Eng/2)."""
    return choices(stats.eng, rules)


def _discounted(cost: int, percent: int, rules: Rules) -> int:
    off = min(percent, rules.stats.effects.most_discount_percent)
    return cost * (100 - off) // 100


def research_cost(cost: int, stats: Stats, rules: Rules) -> int:
    """A research's cost after Int's discount (5% a point, rounded down)."""
    return _discounted(cost, stats.int * rules.stats.effects.research_discount_percent, rules)


def build_cost(cost: int, stats: Stats, rules: Rules) -> int:
    """A ship's total building cost after Eng's discount (5% a point, rounded down)."""
    return _discounted(cost, stats.eng * rules.stats.effects.build_discount_percent, rules)


def design_cost(research: int, rules: Rules) -> int:
    """One design step (a layout) of a tech of research cost `research`: a fifth of it; no
    stat discounts it (the project's reading: Int cuts research, Eng building)."""
    return research // rules.design.cost_divisor


def zone_time(cha: int, rules: Rules) -> int:
    """What a captain's Cha adds to the starting zone timer (1 a point)."""
    return cha * rules.stats.effects.zone_time_per_cha


def zone_counter_start(chas: list[int], rules: Rules) -> int:
    """The zone counter at the start: 10 + the players' average Cha (rounded down)."""
    average = sum(chas) // len(chas) if chas else 0
    return rules.zone_counter.base + zone_time(average, rules)


def zone_mission_choices(chas: list[int], rules: Rules) -> int:
    """Cards drawn for the first zone mission: one for each 2 points of the players' average
    Cha (the average rounded down first)."""
    return choices(sum(chas) // len(chas) if chas else 0, rules)


def damage(base: int, stats: Stats, rules: Rules) -> int:
    """A weapon's damage with Arm: each point adds one point or 10%, whichever is more (the
    project's reading of "one point or 10%"; the 10% of the base, rounded down)."""
    e = rules.stats.effects
    per_point = max(e.damage_points_per_arm, base * e.damage_percent_per_arm // 100)
    return base + stats.arm * per_point


def defence(base: int, stats: Stats, rules: Rules) -> int:
    """A defence's value with Arm: 25% more a point, rounded down."""
    return base * (100 + stats.arm * rules.stats.effects.defence_percent_per_arm) // 100


def space(base: int, stats: Stats, rules: Rules) -> int:
    """A ship's (or the shipyard's) space with Com: 25% more a point, rounded down."""
    return base * (100 + stats.com * rules.stats.effects.space_percent_per_com) // 100


def land_army_size(largest_ship_space: int, stats: Stats, rules: Rules) -> int:
    """The most land units' size a captain's army holds: "(Largest ship size + compaction
    bonus)/5", rounded down (the largest ship's space with Com's bonus)."""
    return space(largest_ship_space, stats, rules) // rules.land_army.size_divisor


def land_unit_limit(stats: Stats, rules: Rules) -> int:
    """The most units of each land unit type: 5, and 25% more a point of Com (rounded down)."""
    e = rules.stats.effects
    return rules.land_army.unit_limit * (100 + stats.com * e.land_limit_percent_per_com) // 100


def income(mined: int, stats: Stats, rules: Rules) -> int:
    """Credits from `mined` minerals with Eco: 10% more a point, rounded down."""
    return mined * (100 + stats.eco * rules.stats.effects.income_percent_per_eco) // 100


def reward_credits(credits: int, stats: Stats, rules: Rules) -> int:
    """A mission's credit reward with Eco: 10% more a point, rounded down."""
    return credits * (100 + stats.eco * rules.stats.effects.reward_percent_per_eco) // 100


def highest_level(techs: dict[str, int], deck: Deck) -> int:
    """The highest level among the techs known (0: none)."""
    return max((deck.techs[t].level for t in techs if t in deck.techs), default=0)


def can_research(tech: str, techs: dict[str, int], deck: Deck, rules: Rules) -> bool:
    """Whether `tech` is a research choice for a captain knowing `techs`: not known yet, and at
    most `research.level_step` levels above the best known (the project's rule)."""
    if tech in techs or tech not in deck.techs:
        return False
    return deck.techs[tech].level <= highest_level(techs, deck) + rules.research.level_step


def can_design(tech: str, techs: dict[str, int], rules: Rules) -> bool:
    """Whether `tech` is a design choice: known, and not at its last layout yet."""
    return tech in techs and techs[tech] < rules.design.layouts


# ---- starting bonuses -------------------------------------------------------------------------


def buy(
    me: Character,
    bonus_id: str,
    rules: Rules,
    deck: Deck,
    state: Seeded,
    *,
    tech: str = "",
    stat: str = "",
) -> Character:
    """`me` after buying the starting bonus `bonus_id` once (a new Character; `me` is left as
    it was). A tech bonus needs the `tech` chosen (of its level, not known yet); a stat point
    the `stat`; a random tech is drawn through `chance` from the techs of its level the
    captain lacks. Refused (CaptainError) when unknown, unaffordable or impossible."""
    bonus = rules.bonus(bonus_id)
    if bonus is None:
        known = ", ".join(b.id for b in rules.bonuses)
        raise CaptainError(f"There is no starting bonus {bonus_id!r} (the bonuses: {known}).")
    if bonus.cost > me.credits:
        raise CaptainError(f"{bonus.name} costs {bonus.cost} credits; you have {me.credits} left.")
    new = me.model_copy(deep=True)
    new.credits -= bonus.cost
    new.bought.append(bonus.id)
    if bonus.kind == "layout":
        level = new.techs.get(bonus.tech)
        if level is None:
            raise CaptainError(f"{bonus.name}: you do not know {deck.techs[bonus.tech].name} yet.")
        if level >= rules.design.layouts:
            raise CaptainError(
                f"{bonus.name}: {deck.techs[bonus.tech].name} has every layout already."
            )
        new.techs[bonus.tech] = level + 1
    elif bonus.kind == "ship":
        new.ships.append(bonus.ship)
    elif bonus.kind == "stat":
        if stat not in STATS:
            raise CaptainError(f"{bonus.name}: name the stat to raise ({', '.join(STATS)}).")
        setattr(new.stats, stat, new.stats.get(stat) + 1)
    else:
        lacking = [
            t
            for t in sorted(deck.techs)
            if deck.techs[t].level == bonus.level and t not in new.techs
        ]
        if not lacking:
            raise CaptainError(f"{bonus.name}: you know every level {bonus.level} tech already.")
        if bonus.kind == "random-tech":
            tech = chance.pick(state, f"bonus {bonus.id}", lacking)
        elif tech not in lacking:
            names = ", ".join(deck.techs[t].name for t in lacking)
            raise CaptainError(f"{bonus.name}: choose one of {names}.")
        new.techs[tech] = 0
    return new
