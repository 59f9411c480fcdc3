"""Typed events. Every event names the nations that may learn of it (`to`).

The service stores events in an outbox in the same transaction as the change that caused
them; the Discord notifier turns a nation's events into DMs.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.interface.events import Event


class BuildSkipped(Event):
    kind: Literal["BuildSkipped"] = "BuildSkipped"
    nation: str
    city: str  # "x,y"
    unit: str
    power: int
    limit: int


class PowerLimitDropped(Event):
    """A nation lost a city and with it part of its power limit: the builds its cities have
    under way that counted before would now be skipped (told once, when it happens)."""

    kind: Literal["PowerLimitDropped"] = "PowerLimitDropped"
    nation: str
    limit: int  # the power limit now
    was: int  # the limit before
    power: int  # the nation's power now
    cities: list[str] = Field(description="the cities whose builds would now be skipped")


class UnitBuilt(Event):
    kind: Literal["UnitBuilt"] = "UnitBuilt"
    nation: str
    city: str
    unit: str
    unit_id: int


class CityChanged(Event):
    """A city's designation changed by itself (a finished base) or its build switched to the
    next build."""

    kind: Literal["CityChanged"] = "CityChanged"
    nation: str
    city: str
    designation: str
    build: str | None


class TechReached(Event):
    kind: Literal["TechReached"] = "TechReached"
    nation: str
    level: int


class UnitsMoved(Event):
    kind: Literal["UnitsMoved"] = "UnitsMoved"
    nation: str
    units: list[int]
    to_square: str
    arrived: list[int]
    ordered: list[int] = Field(description="units that keep a standing order to go on later")


class OrderCompleted(Event):
    kind: Literal["OrderCompleted"] = "OrderCompleted"
    nation: str
    unit: int
    square: str


class PointsSpent(Event):
    """What a nation's command cost it in command points, and what it has left (told to the
    nation only, after the command's other events: its reply says it)."""

    kind: Literal["PointsSpent"] = "PointsSpent"
    nation: str
    spent: int
    left: int


class OrderCancelled(Event):
    kind: Literal["OrderCancelled"] = "OrderCancelled"
    nation: str
    unit: int
    square: str
    reason: str


class MoveBlocked(Event):
    kind: Literal["MoveBlocked"] = "MoveBlocked"
    nation: str
    unit: int
    square: str  # where the unit stopped
    blocked_at: str
    # why, when the nation can tell (it sees the square; a unit it bumped into shows itself):
    # "unit" (another nation's unit), "city" (a city not its team's), "ship" (its team's ship
    # fills the sea square), "terrain" (the unit cannot go on it); "" when it cannot tell
    cause: str = ""


class CityFounded(Event):
    kind: Literal["CityFounded"] = "CityFounded"
    nation: str
    city: str


class TerrainSwitched(Event):
    kind: Literal["TerrainSwitched"] = "TerrainSwitched"
    nation: str
    square: str
    terrain: str


class RelationChanged(Event):
    """`nation`'s relation towards `other` changed (or, with `due_tick`, will change then)."""

    kind: Literal["RelationChanged"] = "RelationChanged"
    nation: str
    other: str
    level: str
    previous: str
    due_tick: int | None = None
    # both sides at `level` now (an alliance formed, a war both ways), and both sides were at
    # `previous` before (an alliance this change ends): what the channel's news tells
    mutual: bool = False
    was_mutual: bool = False


class NationJoined(Event):
    kind: Literal["NationJoined"] = "NationJoined"
    nation: str
    name: str
    home: str | None = None  # told to the nation itself only


class NationLeft(Event):
    kind: Literal["NationLeft"] = "NationLeft"
    nation: str
    name: str
    resigned: bool


class GameStarted(Event):
    kind: Literal["GameStarted"] = "GameStarted"
    nations: list[str]
    end_tick: int


class BattleRoll(BaseModel):
    """Seed 002 (ruleset total-war): one attack of a battle in rounds. A roll of 1..n at or
    under `need` (the attack) destroys the target; n = the attack + the target's defence.
    `bonus`: the attacker was effective (an attack) or weak (so a counter-attack gained)."""

    model_config = ConfigDict(frozen=True)

    need: int
    n: int
    roll: int
    bonus: bool = False


class Attacked(Event):
    """One attack: the first fire of the square (flak or cannons), the hit, the counter-attack.
    In a battle in rounds (`turn` > 0), `attack_roll`/`counter_roll` are the dice: a hit
    destroys (its damage is the target's hp)."""

    kind: Literal["Attacked"] = "Attacked"
    attacker: str
    defender: str
    square: str  # the attacked square
    from_square: str
    attacker_unit: int
    attacker_type: str
    defender_unit: int
    defender_type: str
    first_fire: int = 0  # damage the square's flak or cannons did to the attacker first
    damage: int = 0
    counter: int = 0
    attacker_hp: int
    defender_hp: int
    turn: int = 0  # seed 002: the battle's turn (1 the attacker's first ...); 0: not a battle
    attack_roll: BattleRoll | None = None
    counter_roll: BattleRoll | None = None


class Bombed(Event):
    kind: Literal["Bombed"] = "Bombed"
    attacker: str
    square: str
    bomber: int
    bomber_type: str
    first_fire: int = 0
    hits: list[dict] = Field(default_factory=list)  # {unit, type, owner, damage, hp}
    victims: list[str] = Field(default_factory=list)  # nations hit


class Intercepted(Event):
    """A fighter scrambled and attacked a unit moving near it; the mover stopped there."""

    kind: Literal["Intercepted"] = "Intercepted"
    interceptor: str  # nation
    mover: str  # nation
    square: str
    fighter: int
    fighter_type: str
    unit: int
    unit_type: str
    damage: int
    counter: int
    unit_hp: int
    fighter_hp: int


class Interdicted(Event):
    """A unit closed in on a moving ship and fired once; the ship stopped there."""

    kind: Literal["Interdicted"] = "Interdicted"
    interdictor: str  # nation
    mover: str  # nation
    square: str
    from_square: str
    unit: int
    unit_type: str
    ship: int
    ship_type: str
    damage: int
    ship_hp: int


class SubSighted(Event):
    """A hidden sub showed itself to a nation (by attacking it, or when bumped into)."""

    kind: Literal["SubSighted"] = "SubSighted"
    nation: str  # who sees it now
    owner: str
    unit: int
    square: str
    until_tick: int


class EnemiesSighted(Event):
    """Units of a nation at war with `nation` came within the ruleset's threat radius of its
    city, where `nation` sees them (told to it alone, once: again only after a tick at which it
    saw none of that enemy's units near the city, `systems/threats.py`)."""

    kind: Literal["EnemiesSighted"] = "EnemiesSighted"
    nation: str
    city: str  # "x,y"
    enemy: str
    units: list[dict] = Field(description="{unit, type, square} of each, nearest first")


class SatelliteLaunched(Event):
    kind: Literal["SatelliteLaunched"] = "SatelliteLaunched"
    nation: str
    square: str | None = Field(default=None, description="only in the owner's copy")


class IcbmLaunched(Event):
    kind: Literal["IcbmLaunched"] = "IcbmLaunched"
    nation: str
    unit_type: str
    square: str
    radius: int
    counter: bool = Field(description="an automatic MAD counter-launch")
    devastated: list[str] = Field(default_factory=list, description="cities destroyed")
    destroyed: int = 0
    war_with: list[str] = Field(default_factory=list)
    # two-part ICBMs (ruleset total-war): whether it hit (a miss explodes harmlessly) and its
    # chance; its cities became wastelands (`devastated`) until `returns`; the world's
    # ecological meter after it and the collapse threshold (public)
    hit: bool | None = None
    chance: int | None = None
    returns: int | None = Field(default=None, description="tick its wastelands return")
    ecology: int | None = None
    collapse_at: int | None = None


class UnitDestroyed(Event):
    kind: Literal["UnitDestroyed"] = "UnitDestroyed"
    nation: str  # the owner
    unit: int
    unit_type: str
    square: str
    by: str | None = None
    wasteland: bool = False  # it ended a tick in a wasteland (ruleset total-war)


class CityCaptured(Event):
    kind: Literal["CityCaptured"] = "CityCaptured"
    nation: str
    previous: str | None
    city: str
    unit: int
    hp_lost: int = 0  # what taking the city cost the unit (the ruleset's capture hp_loss)
    hp: int | None = None  # the unit's hp after it (0: it died of it)
    # ICBM parts in the city (ruleset total-war): ids destroyed, ids now the captor's
    parts_destroyed: list[int] = Field(default_factory=list)
    parts_taken: list[int] = Field(default_factory=list)


class UnitsDisbanded(Event):
    """The nation disbanded its own units (told to it alone)."""

    kind: Literal["UnitsDisbanded"] = "UnitsDisbanded"
    nation: str
    units: list[dict] = Field(description="{unit, type, square} of each unit disbanded")


class UnitsCeded(Event):
    """`nation` handed units to `receiver`. The two sides are told of every unit; a third
    nation is told only of the units it sees (never cargo)."""

    kind: Literal["UnitsCeded"] = "UnitsCeded"
    nation: str
    receiver: str
    units: list[dict] = Field(description="{unit, type, square} of each unit ceded")


class CityCeded(Event):
    """`nation` handed its city to `receiver` (told to both and to those who see the city)."""

    kind: Literal["CityCeded"] = "CityCeded"
    nation: str
    receiver: str
    city: str


class WastelandReturned(Event):
    """A wasteland is its former owner's city again, at a fraction of its output (told to
    the owner and to those who see it)."""

    kind: Literal["WastelandReturned"] = "WastelandReturned"
    nation: str
    city: str
    output: int = Field(description="its output now, in %")


class CityInvested(Event):
    """The nation spent command points restoring a city's output (told to it alone)."""

    kind: Literal["CityInvested"] = "CityInvested"
    nation: str
    city: str
    spent: int
    output: int
    cap: int


class NationEliminated(Event):
    kind: Literal["NationEliminated"] = "NationEliminated"
    nation: str
    name: str


class GameEnded(Event):
    kind: Literal["GameEnded"] = "GameEnded"
    standings: list[dict] = Field(description="teams, best first: {nations, cities}")
    winners: list[str]
    by_moderator: bool = False
    collapse: bool = False  # society collapsed (ruleset total-war): every nation lost


class PlayerChanged(Event):
    """A moderator handed the nation to another player (None: nobody, or the AI)."""

    kind: Literal["PlayerChanged"] = "PlayerChanged"
    nation: str
    player: str | None
    previous: str | None


AnyEvent = Annotated[
    BuildSkipped
    | PowerLimitDropped
    | UnitBuilt
    | CityChanged
    | TechReached
    | UnitsMoved
    | OrderCompleted
    | PointsSpent
    | OrderCancelled
    | MoveBlocked
    | CityFounded
    | TerrainSwitched
    | RelationChanged
    | NationJoined
    | NationLeft
    | PlayerChanged
    | GameStarted
    | Attacked
    | Intercepted
    | Interdicted
    | SubSighted
    | EnemiesSighted
    | SatelliteLaunched
    | IcbmLaunched
    | Bombed
    | UnitDestroyed
    | CityCaptured
    | UnitsDisbanded
    | UnitsCeded
    | CityCeded
    | WastelandReturned
    | CityInvested
    | NationEliminated
    | GameEnded,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[AnyEvent] = TypeAdapter(AnyEvent)


def event_from_dict(data: dict) -> Event:
    return EVENT_ADAPTER.validate_python(data)
