"""Caldera's rules and cards as data: the models of data/rulesets/caldera/*.toml (every table of
seed 003) and of the deck files data/caldera/decks/*.toml (the techs, the main deck and the
event cards: the project's own design), with their loaders.

    rules = load("standard")            # cached; RulesError names the file and the field
    deck = load_deck("starter", rules)  # a name in data/caldera/decks, or a path to a .toml
    deck.techs["laser-cannon"].value(2) # a tech's value at layout level 2
    deck.card("laser-cannon-3").number  # a main card by its id
    rules.event(4).outcome              # the event table's row for a card's number

Every number of the game is in the files; the code holds only mechanisms. A deck is checked
against itself and the rules (every card's tech exists, numbers 1-6, five layout values, the
starting techs and ships and the enemies' starting weapons exist, ...): a bad deck raises a
DeckError (a ValueError) naming the bad entry."""

from __future__ import annotations

import tomllib
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
RULES_DIR = DATA_DIR / "rulesets" / "caldera"
DECKS_DIR = DATA_DIR / "caldera" / "decks"
DEFAULT_RULES = "standard"
DEFAULT_DECK = "starter"

NUMBERS = range(1, 7)  # a card's top number
STATS = ("cha", "int", "eng", "arm", "com", "eco")
# the weapon types, in the order the A.I. breaks ties between equal weapons
WEAPON_TYPES: tuple[str, ...] = ("beam", "fighters", "laser", "missile", "mine")
WeaponType = Literal["beam", "fighters", "laser", "missile", "mine"]
Category = Literal["class", "engine", "weapon", "defence", "utility"]
Bonus = Literal["", "+tech", "+layout"]
EFFECTS: tuple[str, ...] = (
    "calm",
    "no-research",
    "no-design",
    "no-building",
    "no-mining",
    "no-exploring",
    "no-repair",
    "wingman",
    "rare-cargo",
    "bounty",
    "rich-veins",
)
Effect = Literal[
    "calm",
    "no-research",
    "no-design",
    "no-building",
    "no-mining",
    "no-exploring",
    "no-repair",
    "wingman",
    "rare-cargo",
    "bounty",
    "rich-veins",
]


class RulesError(ValueError):
    """A rules file is missing or malformed; the message names the file and the field."""


class DeckError(ValueError):
    """A deck file is missing or malformed; the message names the file and the bad entry."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---- the rules (data/rulesets/caldera/<name>.toml) --------------------------------------------


class StatEffects(_Model):
    choice_points: int = Field(ge=1)
    zone_time_per_cha: int = Field(ge=0)
    research_discount_percent: int = Field(ge=0, le=100)
    build_discount_percent: int = Field(ge=0, le=100)
    most_discount_percent: int = Field(ge=0, le=100)
    damage_points_per_arm: int = Field(ge=0)
    damage_percent_per_arm: int = Field(ge=0)
    defence_percent_per_arm: int = Field(ge=0)
    space_percent_per_com: int = Field(ge=0)
    land_limit_percent_per_com: int = Field(ge=0)
    income_percent_per_eco: int = Field(ge=0)
    reward_percent_per_eco: int = Field(ge=0)


class StatRules(_Model):
    order: list[str]
    points: int = Field(ge=1)
    minimum: dict[str, int]
    names: dict[str, str]
    effects: StatEffects

    @model_validator(mode="after")
    def _the_six(self) -> StatRules:
        for field in ("order", "minimum", "names"):
            keys = list(getattr(self, field))
            if sorted(keys) != sorted(STATS):
                raise ValueError(f"{field}: must name exactly the stats {', '.join(STATS)}")
        if sum(self.minimum.values()) > self.points:
            raise ValueError("the minimums add up to more than the points")
        return self


class TechFigures(_Model):
    """A starting technology's figures as the seed prints them (cost, size, size per layout)."""

    cost: int = Field(ge=0)
    size: int = Field(ge=0)
    size_per_layout: int = Field(ge=0)


class Start(_Model):
    credits: int = Field(ge=0)
    techs: list[str]
    tech_figures: dict[str, TechFigures]
    builds_per_turn: int = Field(ge=1)
    first_npc: str
    starting_event: bool


class StartingBonus(_Model):
    id: str
    name: str
    cost: int = Field(ge=0)
    kind: Literal["layout", "ship", "random-tech", "tech", "stat"]
    tech: str = ""  # layout: the tech designed
    ship: str = ""  # ship: the starting ship given
    level: int = Field(default=0, ge=0, le=6)  # tech, random-tech: the tech level

    @model_validator(mode="after")
    def _complete(self) -> StartingBonus:
        if self.kind == "layout" and not self.tech:
            raise ValueError(f"bonus {self.id}: a layout bonus names its tech")
        if self.kind == "ship" and not self.ship:
            raise ValueError(f"bonus {self.id}: a ship bonus names its ship")
        if self.kind in ("tech", "random-tech") and not self.level:
            raise ValueError(f"bonus {self.id}: a tech bonus names its level")
        return self


class StartingShip(_Model):
    """A starting ship's fixed design: its class, engine and parts (each at layout 0)."""

    name: str
    class_: str = Field(alias="class")
    engine: str
    parts: list[str]
    refittable: bool


class Shipyard(_Model):
    space_times: int = Field(ge=1)  # times the space of the highest ship class known
    structure_times: int = Field(ge=1)  # times its structure points
    all_weapons: bool
    starts_with: list[str]
    mines_earth: bool


class EventRow(_Model):
    """A row of the event table, read by a drawn card's number when a tile is scouted."""

    number: int = Field(ge=1, le=6)
    title: str
    outcome: Literal["enemy-base", "heavy-enemy", "enemy", "mission", "empty"]
    tiles: Literal["A", "B", "C"]
    enemy_ships: int = Field(ge=0)  # times the number of players


class Mission(_Model):
    number: int = Field(ge=1, le=6)
    difficulty: Literal["easy", "medium", "hard"]
    id: str
    text: str
    note: str = ""


class Reward(_Model):
    number: int = Field(ge=1, le=6)
    grade: str
    kind: Literal["nothing", "credits", "layouts", "half-price-tech"]
    text: str
    minerals: Literal["", "small", "average", "huge", "planet"] = ""  # credits: the column
    times: int = Field(default=0, ge=0)  # credits: times the minerals (single player)
    count: int = Field(default=0, ge=0)  # layouts: how many

    @model_validator(mode="after")
    def _complete(self) -> Reward:
        if self.kind == "credits" and not (self.minerals and self.times):
            raise ValueError(f"reward {self.number}: credits name their minerals and times")
        if self.kind == "layouts" and not self.count:
            raise ValueError(f"reward {self.number}: layouts give a count")
        return self


class TrustThreshold(_Model):
    at: int = Field(ge=1)  # times the number of players
    effect: Literal["protect", "control"]
    quarters: int = Field(ge=1, le=4)


class Trust(_Model):
    per_mission: int = Field(ge=0)
    start: int = Field(ge=0)
    thresholds: list[TrustThreshold]

    def shares(self, total: int, players: int) -> tuple[int, int]:
        """(protect, control): the quarters of an NPC fleet protecting the players' shipyards
        and under their control at `total` trust with `players` players (the highest
        threshold reached of each effect)."""
        protect = control = 0
        for row in self.thresholds:
            if total >= row.at * players:
                if row.effect == "protect":
                    protect = max(protect, row.quarters)
                else:
                    control = max(control, row.quarters)
        return protect, control


class ZoneCounter(_Model):
    base: int = Field(ge=1)
    per_turn: int = Field(ge=1)
    per_zone_mission: int = Field(ge=0)
    restart: Literal["start"]
    reveal_per_player: int = Field(ge=0)
    until: int = Field(ge=0)


class ZoneMission(_Model):
    number: int = Field(ge=1, le=6)
    id: str
    name: str
    text: str
    per_zone: int = Field(ge=0)  # the mission's "zone*N" factor (0: none)


class NewZone(_Model):
    enemy_tech_cards: int = Field(ge=0)
    enemy_layout_cards: int = Field(ge=0)


class Fleet(_Model):
    ships: int = Field(ge=1)
    conqueror_ships: int = Field(ge=1)
    move_group: int = Field(ge=1)
    per_place: int = Field(ge=1)


class Repair(_Model):
    ship_per_sp: int = Field(ge=0)
    shipyard_per_sp: int = Field(ge=0)


class Refit(_Model):
    full_part_cost: bool
    in_shipyard: bool
    changes_layouts: bool
    starting_ships: bool


class Design(_Model):
    cost_divisor: int = Field(ge=1)
    layouts: int = Field(ge=1)
    per_turn: int = Field(ge=1)


class Research(_Model):
    level_step: int = Field(ge=0)


class Distance(_Model):
    layer: int = Field(ge=1)
    step: int = Field(ge=1)  # from a tile next to it
    from_earth: int = Field(ge=1)
    half_nebula: int = Field(ge=1)  # through a half nebula, or from empty space to empty space
    full_nebula: int = Field(ge=1)


class Minerals(_Model):
    zone: int = Field(ge=1)
    small: int = Field(ge=0)
    average: int = Field(ge=0)
    huge: int = Field(ge=0)
    planet: int = Field(ge=0)

    def of(self, size: str) -> int:
        """The minerals of a system of `size` (small, average, huge or planet)."""
        if size not in ("small", "average", "huge", "planet"):
            raise KeyError(size)
        return int(getattr(self, size))


class MapRules(_Model):
    half_nebula_times: int = Field(ge=1)
    full_nebula_times: int = Field(ge=1)
    empty_to_empty: Literal["half-nebula"]
    between_planets: Literal["A", "B", "C"]
    distances: list[Distance]
    minerals: list[Minerals]

    @model_validator(mode="after")
    def _in_order(self) -> MapRules:
        if [d.layer for d in self.distances] != list(range(1, len(self.distances) + 1)):
            raise ValueError("distances: the layers must be 1, 2, 3, ... in order")
        if [m.zone for m in self.minerals] != list(range(1, len(self.minerals) + 1)):
            raise ValueError("minerals: the zones must be 1, 2, 3, ... in order")
        return self

    def distance(self, layer: int) -> Distance:
        """The distance table's row of `layer` (>= 1); past the table its pattern goes on."""
        if layer < 1:
            raise ValueError(f"layer {layer}: layers start at 1")
        if layer <= len(self.distances):
            return self.distances[layer - 1]
        return Distance(
            layer=layer,
            step=layer,
            from_earth=layer * (layer + 1) // 2,
            half_nebula=self.half_nebula_times * layer,
            full_nebula=self.full_nebula_times * layer,
        )

    def minerals_of(self, zone: int, size: str, players: int = 1) -> int:
        """The most a system of `size` placed in `zone` gives in a turn, times the players
        (past the table: its last row)."""
        row = self.minerals[min(max(zone, 1), len(self.minerals)) - 1]
        return row.of(size) * players


class Planet(_Model):
    land_tech: int = Field(ge=0)
    army_times: int = Field(ge=1)
    ships_percent: int = Field(ge=0)
    defence_percent: int = Field(ge=0)
    weapon_layouts: int = Field(ge=0)


class NpcRules(_Model):
    base_share_percent: int = Field(ge=0, le=100)
    one_friend_per_zone: bool
    fallback_target: Literal["closest-homeworld"]
    enemy_sships: int = Field(ge=0)  # an enemy's starting fleet, times the players
    friend_weapon: str  # a friend's weapon when its cards give none
    friend_points_per_turn: int = Field(ge=0)


class NpcDesign(_Model):
    """ "Designing a ship for NPC": the class tech's level, the engine's level (0: the seed
    names none), and how many tech and layout cards are drawn."""

    class_level: int = Field(ge=1, le=6)
    engine_level: int = Field(ge=0, le=6)
    techs: int = Field(ge=0)
    layouts: int = Field(ge=0)


class NpcFriend(_Model):
    id: str
    name: str
    short: str
    group: str
    zone: int = Field(ge=1)
    dships: list[int]  # a count per ship class, interceptors first
    sships: int = Field(ge=0)  # times the number of players
    design: NpcDesign


class NpcEnemy(_Model):
    id: str
    name: str
    group: str
    zone: int = Field(ge=1)
    dships: list[int]
    lsize: int = Field(ge=0)  # the land army, times the number of players
    design: NpcDesign


class NpcDesignCards(_Model):
    plus_tech_for_tech: int = Field(ge=1)
    plus_layout_for_layout: int = Field(ge=1)


class EnemyAi(_Model):
    number: int = Field(ge=1, le=6)
    id: str
    name: str
    points: Literal[
        "controlled-systems",
        "scouted-systems",
        "mined-systems",
        "controlled-tiles",
        "turns",
        "destroyed-ships",
    ]
    per: int = Field(ge=1)
    homeworld_counts: int = Field(ge=1)
    group: int = Field(ge=1)
    target: Literal[
        "closest-system-fewest-ships",
        "closest-unexplored",
        "closest-resources",
        "closest-system",
        "closest-asteroids",
        "closest-homeworld",
    ]
    weapon: str  # a weapon tech of the deck
    opening_attack: bool
    text: str


class LandArmy(_Model):
    size_divisor: int = Field(ge=1)
    unit_limit: int = Field(ge=1)
    ai_unlimited: str


class LandUnit(_Model):
    name: str
    level: int = Field(ge=1)
    hp: int = Field(ge=1)
    damage: int = Field(ge=0)
    targets: int = Field(ge=1)
    size: int = Field(ge=1)
    cost: int = Field(ge=0)


def _numbered(rows: list[Any], what: str) -> None:
    """Rows read by a card's number: exactly one for each of 1-6, in order."""
    if [r.number for r in rows] != list(NUMBERS):
        raise ValueError(f"{what}: needs exactly one row for each number 1-6, in order")


class Rules(_Model):
    # the battle engineer's sections, validated by their own models (engine/caldera/battle.py,
    # land.py)
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    description: str
    deck: str
    final_zone: int = Field(ge=1)
    stats: StatRules
    start: Start
    bonuses: list[StartingBonus]
    starting_ships: dict[str, StartingShip]
    shipyard: Shipyard
    events: list[EventRow]
    missions: list[Mission]
    rewards: list[Reward]
    trust: Trust
    zone_counter: ZoneCounter
    zone_missions: list[ZoneMission]
    new_zone: NewZone
    fleet: Fleet
    repair: Repair
    refit: Refit
    design: Design
    research: Research
    map: MapRules
    planets: dict[str, Planet]
    npc: NpcRules
    npc_friends: list[NpcFriend]
    npc_enemies: list[NpcEnemy]
    npc_design: NpcDesignCards
    enemy_ai: list[EnemyAi]
    land_army: LandArmy
    land_units: dict[str, LandUnit]
    battle: dict[str, Any] = Field(default_factory=dict)  # [battle]: engine/caldera/battle.py
    land: dict[str, Any] = Field(default_factory=dict)  # [land]: engine/caldera/land.py

    @model_validator(mode="after")
    def _consistent(self) -> Rules:
        for rows, what in (
            (self.events, "events"),
            (self.missions, "missions"),
            (self.rewards, "rewards"),
            (self.zone_missions, "zone_missions"),
            (self.enemy_ai, "enemy_ai"),
        ):
            _numbered(rows, what)
        ids = [b.id for b in self.bonuses]
        if len(set(ids)) != len(ids):
            raise ValueError("bonuses: two bonuses share an id")
        for bonus in self.bonuses:
            if bonus.kind == "ship" and bonus.ship not in self.starting_ships:
                raise ValueError(f"bonus {bonus.id}: no starting ship {bonus.ship!r}")
        missing = [t for t in self.start.tech_figures if t not in self.start.techs]
        if missing:
            raise ValueError(f"start.tech_figures: {missing} are not starting techs")
        friends = [f.id for f in self.npc_friends]
        if self.start.first_npc not in friends:
            raise ValueError(f"start.first_npc: no NPC friend {self.start.first_npc!r}")
        for zones, what in (
            ([f.zone for f in self.npc_friends], "npc_friends"),
            ([e.zone for e in self.npc_enemies], "npc_enemies"),
        ):
            if zones != list(range(1, len(zones) + 1)):
                raise ValueError(f"{what}: the zone levels must be 1, 2, 3, ... in order")
        if self.land_army.ai_unlimited not in self.land_units:
            raise ValueError(
                f"land_army.ai_unlimited: no land unit {self.land_army.ai_unlimited!r}"
            )
        if sorted(self.trust.thresholds, key=lambda t: t.at) != self.trust.thresholds:
            raise ValueError("trust.thresholds: in rising order of `at`")
        return self

    # -- lookups by a card's number or a zone -----------------------------------------------
    def event(self, number: int) -> EventRow:
        return self.events[number - 1]

    def mission(self, number: int) -> Mission:
        return self.missions[number - 1]

    def reward(self, number: int) -> Reward:
        return self.rewards[number - 1]

    def zone_mission(self, number: int) -> ZoneMission:
        return self.zone_missions[number - 1]

    def ai_type(self, number: int) -> EnemyAi:
        return self.enemy_ai[number - 1]

    def bonus(self, bonus_id: str) -> StartingBonus | None:
        return next((b for b in self.bonuses if b.id == bonus_id), None)

    def friend_of_zone(self, zone: int) -> NpcFriend | None:
        """The NPC ally created when `zone` opens (None past the table)."""
        return next((f for f in self.npc_friends if f.zone == zone), None)

    def enemy_of_zone(self, zone: int) -> NpcEnemy:
        """The NPC enemy created in `zone` (past the table: its last row)."""
        return self.npc_enemies[min(max(zone, 1), len(self.npc_enemies)) - 1]

    def fleet_limit(self, ai_type: str | None = None) -> int:
        """The most ships one fleet owner has: 5, or 6 for conquerors."""
        return self.fleet.conqueror_ships if ai_type == "conquerors" else self.fleet.ships


# ---- the deck (data/caldera/decks/<name>.toml) ------------------------------------------------


class Tech(_Model):
    name: str
    category: Category
    level: int = Field(ge=1, le=6)
    research_cost: int = Field(ge=0)
    size: int = Field(ge=0)
    build_cost: int = Field(ge=0)
    base: int = Field(ge=0)
    layouts: list[int]
    structure: int = Field(default=0, ge=0)  # a class's structure points
    weapon: WeaponType | None = None  # a weapon's type
    covers: list[WeaponType] = Field(default_factory=list)  # a defence's

    def value(self, layout: int) -> int:
        """Its value at layout level `layout` (0: as researched; 1-5: after each design)."""
        return self.base if layout <= 0 else self.layouts[min(layout, len(self.layouts)) - 1]


class Card(_Model):
    id: str = ""  # "<tech>-<number>" when not given
    number: int
    tech: str
    bonus: Bonus = ""


class EventCard(_Model):
    id: str
    name: str
    text: str
    turns: int = Field(ge=1)
    z: bool  # the turns are multiplied by the current zone
    effect: Effect
    amount: int = Field(default=0, ge=0)
    trust: int = Field(default=0, ge=0)

    def duration(self, zone: int) -> int:
        return self.turns * max(zone, 1) if self.z else self.turns


class Deck(_Model):
    name: str
    title: str
    description: str
    cards: list[Card]
    techs: dict[str, Tech]
    event_cards: list[EventCard]

    def card(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def event_card(self, card_id: str) -> EventCard:
        return next(e for e in self.event_cards if e.id == card_id)

    def card_ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def event_ids(self) -> list[str]:
        return [e.id for e in self.event_cards]

    def of_category(self, category: str) -> list[str]:
        """The techs of `category`, by level then id."""
        found = [t for t, tech in self.techs.items() if tech.category == category]
        return sorted(found, key=lambda t: (self.techs[t].level, t))

    def best(self, category: str, level: int) -> str | None:
        """The tech of `category` of the highest level at most `level` (an NPC's "3 engine"
        when the deck has no engine of level 3: the best below it)."""
        found = [t for t in self.of_category(category) if self.techs[t].level <= level]
        return found[-1] if found else None

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}


def _check_deck(deck: Deck, rules: Rules | None) -> list[str]:
    """What is wrong with a deck (its cross references, and against `rules`): one line each."""
    bad: list[str] = []
    techs = deck.techs
    for tech_id, tech in techs.items():
        where = f"techs.{tech_id}"
        if len(tech.layouts) != 5:
            bad.append(f"{where}: layouts must be exactly 5 values, not {len(tech.layouts)}")
        if any(b < a for a, b in zip([tech.base, *tech.layouts], tech.layouts, strict=False)):
            bad.append(f"{where}: layout values must not fall (base {tech.base}, {tech.layouts})")
        if tech.category == "class":
            if not tech.structure:
                bad.append(f"{where}: a ship class needs structure points")
            if tech.base != tech.size:
                bad.append(f"{where}: a ship class's base (its space) must equal its size")
        elif tech.structure:
            bad.append(f"{where}: only a ship class has structure points")
        if (tech.category == "weapon") != (tech.weapon is not None):
            bad.append(f"{where}: a weapon (and only a weapon) has a weapon type")
        if (tech.category == "defence") != bool(tech.covers):
            bad.append(f"{where}: a defence (and only a defence) covers weapon types")
    class_levels = sorted(t.level for t in techs.values() if t.category == "class")
    if class_levels != list(range(1, len(class_levels) + 1)) or not class_levels:
        bad.append(
            f"techs: the ship classes' levels must be 1, 2, 3, ... once each, not {class_levels}"
        )
    if not any(t.category == "engine" and t.level == 1 for t in techs.values()):
        bad.append("techs: no engine of level 1")
    ids = [c.id for c in deck.cards]
    for i, card in enumerate(deck.cards):
        where = f"cards[{i}] ({card.id})"
        if card.tech not in techs:
            bad.append(f"{where}: no tech {card.tech!r} in the deck's techs")
        if card.number not in NUMBERS:
            bad.append(f"{where}: number {card.number} is not 1-6")
    for twice in sorted({i for i in ids if ids.count(i) > 1}):
        bad.append(f"cards: two cards have the id {twice!r} (give them an `id`)")
    numbers = {c.number for c in deck.cards}
    for n in NUMBERS:
        if n not in numbers:
            bad.append(f"cards: no card has the number {n}")
    event_ids = [e.id for e in deck.event_cards]
    for twice in sorted({i for i in event_ids if event_ids.count(i) > 1}):
        bad.append(f"event_cards: two event cards have the id {twice!r}")
    if not deck.event_cards:
        bad.append("event_cards: the deck has no event card")
    if rules is not None:
        bad += _check_against_rules(deck, rules)
    return bad


def _check_against_rules(deck: Deck, rules: Rules) -> list[str]:
    bad: list[str] = []
    techs = deck.techs

    def need(tech_id: str, where: str, category: str | None = None) -> None:
        if tech_id not in techs:
            bad.append(f"{where}: the deck has no tech {tech_id!r}")
        elif category and techs[tech_id].category != category:
            bad.append(f"{where}: {tech_id!r} is not a {category} tech")

    for tech_id in rules.start.techs:
        need(tech_id, "start.techs (the rules)")
    for tech_id, fig in rules.start.tech_figures.items():
        tech = techs.get(tech_id)
        if tech is None:
            continue
        if tech.build_cost != fig.cost or tech.size != fig.size:
            bad.append(
                f"techs.{tech_id}: cost {tech.build_cost} and size {tech.size} must be the "
                f"rules' starting figures {fig.cost} and {fig.size}"
            )
        if tech.category == "class" and any(
            v != fig.size + (i + 1) * fig.size_per_layout for i, v in enumerate(tech.layouts)
        ):
            bad.append(
                f"techs.{tech_id}: layouts must be {fig.size}+layout*{fig.size_per_layout} "
                "as the rules' starting technologies give"
            )
    for ship_id, ship in rules.starting_ships.items():
        where = f"starting_ships.{ship_id} (the rules)"
        need(ship.class_, where, "class")
        need(ship.engine, where, "engine")
        for part in ship.parts:
            need(part, where)
        if all(p in techs for p in [ship.class_, ship.engine, *ship.parts]):
            used = sum(techs[p].size for p in [ship.engine, *ship.parts])
            if used > techs[ship.class_].size:
                bad.append(
                    f"{where}: its parts take {used} space, its class gives {techs[ship.class_].size}"
                )
    for bonus in rules.bonuses:
        if bonus.kind == "layout":
            need(bonus.tech, f"bonus {bonus.id} (the rules)")
    for tech_id in rules.shipyard.starts_with:
        need(tech_id, "shipyard.starts_with (the rules)")
    for ai in rules.enemy_ai:
        need(ai.weapon, f"enemy_ai {ai.id} (the rules)", "weapon")
    need(rules.npc.friend_weapon, "npc.friend_weapon (the rules)", "weapon")
    classes = {t.level for t in techs.values() if t.category == "class"}
    npcs = [(f.id, f.design) for f in rules.npc_friends] + [
        (e.id, e.design) for e in rules.npc_enemies
    ]
    for npc_id, design in npcs:
        if design.class_level not in classes:
            bad.append(
                f"npc {npc_id} (the rules): the deck has no ship class of level {design.class_level}"
            )
    return bad


# ---- loading ----------------------------------------------------------------------------------


def _read(path: Path, error: type[ValueError]) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise error(f"{path}: no such file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from exc


def _lines(path: Path, exc: ValidationError, raw: dict[str, Any]) -> str:
    """A validation error as lines naming the bad entry (a card by its tech and number)."""
    lines = []
    for e in exc.errors():
        loc = list(e["loc"])
        where = ".".join(map(str, loc)) or "(top level)"
        if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
            try:
                card = raw["cards"][loc[1]]
                where = f"cards[{loc[1]}] ({card.get('tech', '?')} {card.get('number', '?')})"
                where += "".join(f".{p}" for p in loc[2:])
            except (KeyError, IndexError, TypeError, AttributeError):
                pass
        lines.append(f"{path.name}: {where}: {e['msg']}")
    return "\n".join(lines)


def available() -> list[str]:
    return sorted(p.stem for p in RULES_DIR.glob("*.toml"))


def load_file(path: Path) -> Rules:
    raw = _read(path, RulesError)
    try:
        return Rules.model_validate(raw)
    except ValidationError as exc:
        raise RulesError(_lines(path, exc, raw)) from None


def load(name: str = DEFAULT_RULES) -> Rules:
    """The ruleset `name` of data/rulesets/caldera (cached: the same object each time)."""
    return _load_named(name)


@cache
def _load_named(name: str) -> Rules:
    if name not in available():
        raise RulesError(f"unknown rules {name!r}; available: {', '.join(available())}")
    return load_file(RULES_DIR / f"{name}.toml")


def decks_available() -> list[str]:
    return sorted(p.stem for p in DECKS_DIR.glob("*.toml"))


def deck_path(name_or_path: str | Path) -> Path:
    """A deck's file: a name of data/caldera/decks ("starter"), or a path to a .toml file."""
    text = str(name_or_path)
    if text in decks_available():
        return DECKS_DIR / f"{text}.toml"
    path = Path(text)
    if path.suffix == ".toml":
        return path
    raise DeckError(
        f"unknown deck {text!r}; available: {', '.join(decks_available())} (or a path to a .toml file)"
    )


def load_deck_file(path: Path, rules: Rules | None = None) -> Deck:
    """A deck read from `path` and checked (against `rules` too when given)."""
    raw = _read(path, DeckError)
    if isinstance(raw.get("cards"), list):
        for card in raw["cards"]:
            if isinstance(card, dict) and not card.get("id"):
                card["id"] = f"{card.get('tech', '')}-{card.get('number', '')}"
    try:
        deck = Deck.model_validate(raw)
    except ValidationError as exc:
        raise DeckError(_lines(path, exc, raw)) from None
    bad = _check_deck(deck, rules)
    if bad:
        raise DeckError("\n".join(f"{path.name}: {line}" for line in bad))
    return deck


@cache
def _load_named_deck(name: str, rules_name: str | None) -> Deck:
    return load_deck_file(DECKS_DIR / f"{name}.toml", load(rules_name) if rules_name else None)


def load_deck(
    name_or_path: str | Path = DEFAULT_DECK, rules: Rules | str | None = DEFAULT_RULES
) -> Deck:
    """The deck `name_or_path` (a name of data/caldera/decks or a .toml path), checked against
    itself and the rules (a Rules, a ruleset's name, or None for the deck alone). A named deck
    checked against a named ruleset is cached (the same object each time); a file given by
    its path is read again each time (a server may edit its own deck)."""
    path = deck_path(name_or_path)
    if isinstance(rules, Rules):
        return load_deck_file(path, rules)
    if path == DECKS_DIR / f"{name_or_path}.toml":
        return _load_named_deck(str(name_or_path), rules)
    return load_deck_file(path, load(rules) if rules else None)
