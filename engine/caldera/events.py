"""What happens in a Caldera game, as events (`engine.interface.events.Event`), each naming the
captains who may learn of it. The star map, the NPCs, the trust, the zone and the event card
are shared, so a turn's outcome goes to everyone; a captain's hand, credits, income and the
details of their spending go to them alone (`to=[captain]`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from engine.interface.events import Event

# (the deadline's events are every turn-based kind's, stored under the same names)
from engine.interface.turnbased.deadlines import DeadlineMoved, DeadlineNear


class Joined(Event):
    kind: Literal["Joined"] = "Joined"
    captain: str
    name: str
    seat: int


class Left(Event):
    kind: Literal["Left"] = "Left"
    captain: str


class Started(Event):
    kind: Literal["Started"] = "Started"
    captains: list[str]
    deadline: int | None  # the tick the setup window resolves at (None: no deadline)
    early: bool = True
    event: str | None = None  # the starting event card


class HandDrawn(Event):
    """Cards drawn into a captain's hand, waiting for their choice (told to them only)."""

    kind: Literal["HandDrawn"] = "HandDrawn"
    captain: str
    hand: str  # "research", "design", "mission", "tech"
    cards: list[str]


class ZoneHand(Event):
    """The zone mission cards to choose from (any captain chooses, for everyone)."""

    kind: Literal["ZoneHand"] = "ZoneHand"
    cards: list[str]


class Spent(Event):
    """A captain's spending or choice, as done (told to them only: the reply to their
    command): `what` the command's kind, `detail` what it did, `credits` left."""

    kind: Literal["Spent"] = "Spent"
    captain: str
    what: str
    detail: dict[str, Any] = Field(default_factory=dict)
    credits: int = 0


class ResearchDone(Event):
    kind: Literal["ResearchDone"] = "ResearchDone"
    captain: str
    tech: str


class TurnResolved(Event):
    """A turn's resolution as everyone sees it on the shared map: the moves, the NPCs' turn,
    the battles (places and losses), the tiles scouted, the zone and its counter."""

    kind: Literal["TurnResolved"] = "TurnResolved"
    turn: int
    moved: list[dict[str, Any]] = Field(default_factory=list)  # {ship, owner, src, dst}
    returned: list[dict[str, Any]] = Field(default_factory=list)  # over the fleet limit
    battles: list[dict[str, Any]] = Field(default_factory=list)  # {at, sides, destroyed}
    scouted: list[dict[str, Any]] = Field(default_factory=list)  # {at, tile, result, by}
    npcs: list[str] = Field(default_factory=list)  # NPCs made this turn
    npc_turn: list[dict[str, Any]] = Field(default_factory=list)  # what each NPC did, in order
    zone: int = 1
    zone_counter: int = 0
    zone_changed: bool = False
    event: str | None = None  # the event card in play after the turn
    missions: list[dict[str, Any]] = Field(default_factory=list)  # {captain, mission}
    trust: int = 0
    deadline: int | None = None  # the next window's
    ended: bool = False


class BattleReport(Event):
    """One battle, told to the captains whose ships fought in it."""

    kind: Literal["BattleReport"] = "BattleReport"
    at: str
    rounds: list[dict[str, Any]] = Field(default_factory=list)
    destroyed: list[int] = Field(default_factory=list)
    damaged: dict[int, int] = Field(default_factory=dict)  # ship -> damage now
    retreated: list[int] = Field(default_factory=list)
    winner: str | None = None  # "captains", "enemy" or None (both sides left)


class LandReport(Event):
    """A land battle for an enemy homeworld, told to the captains whose ships are there."""

    kind: Literal["LandReport"] = "LandReport"
    at: str
    npc: str
    captain: str
    won: bool
    steps: list[dict[str, Any]] = Field(default_factory=list)
    armies: dict[str, dict[str, int]] = Field(default_factory=dict)  # what is left


class Income(Event):
    """A captain's income of the turn (told to them only)."""

    kind: Literal["Income"] = "Income"
    captain: str
    mined: dict[str, int] = Field(default_factory=dict)  # place -> minerals mined there
    credits: int = 0  # credits earned
    total: int = 0  # credits now


class MissionDone(Event):
    kind: Literal["MissionDone"] = "MissionDone"
    captain: str | None  # None: the zone mission (everyone's)
    mission: int
    rewards: list[int] = Field(default_factory=list)
    trust: int = 0


class ZoneChanged(Event):
    kind: Literal["ZoneChanged"] = "ZoneChanged"
    zone: int
    zone_counter: int
    mission: int | None
    revealed: list[str] = Field(default_factory=list)


class GameOver(Event):
    kind: Literal["GameOver"] = "GameOver"
    result: str  # "won", "lost", "time", "moderator"
    standings: list[dict[str, Any]] = Field(default_factory=list)  # best first


AnyEvent = Annotated[
    Joined
    | Left
    | Started
    | HandDrawn
    | ZoneHand
    | Spent
    | ResearchDone
    | TurnResolved
    | BattleReport
    | LandReport
    | Income
    | MissionDone
    | ZoneChanged
    | DeadlineNear
    | DeadlineMoved
    | GameOver,
    Field(discriminator="kind"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyEvent)


def event_from_dict(data: dict[str, Any]) -> Event:
    result: Event = ADAPTER.validate_python(data)
    return result
