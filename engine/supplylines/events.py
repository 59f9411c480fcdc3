"""What happens in a Supply Lines game, as events (`engine.interface.events.Event`): each names
the players who may learn of it. The board has no fog, so a turn's outcome goes to everyone; a
supply question goes to the player asked only, and orders are never told before they resolve."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from engine.interface.events import Event

# (the deadline's events are every turn-based kind's, stored under the same names)
from engine.interface.turnbased.deadlines import DeadlineMoved, DeadlineNear


class Joined(Event):
    kind: Literal["Joined"] = "Joined"
    player: str
    name: str
    seat: int
    home: str


class Left(Event):
    kind: Literal["Left"] = "Left"
    player: str


class Started(Event):
    kind: Literal["Started"] = "Started"
    players: list[str]
    deadline: int | None  # the tick the first turn resolves at (None: no deadline)
    early: bool = True  # a turn resolves once everyone has submitted


class TurnMoved(Event):
    """Stages 1-4 of a turn: builds, moves, conflicts, captures (and units lost)."""

    kind: Literal["TurnMoved"] = "TurnMoved"
    turn: int
    disbanded: list[dict[str, Any]] = Field(default_factory=list)  # {id, type, owner, at}
    built: list[dict[str, Any]] = Field(default_factory=list)
    skipped: list[dict[str, Any]] = Field(default_factory=list)  # {player, order, why}
    moved: list[dict[str, Any]] = Field(default_factory=list)  # {id, owner, type, src, dst}
    conflicts: list[dict[str, Any]] = Field(default_factory=list)
    captured: list[dict[str, Any]] = Field(default_factory=list)  # {at, before, after}
    destroyed: list[dict[str, Any]] = Field(default_factory=list)


class SupplyAsked(Event):
    """The player chooses which units of a network get its lines, by `deadline`."""

    kind: Literal["SupplyAsked"] = "SupplyAsked"
    player: str
    turn: int
    structures: list[str]
    lines: int
    units: list[dict[str, Any]]  # {id, type, at, marks, need}
    default: list[int]
    deadline: int


class TurnEnded(Event):
    """Stages 5-8: supply, marks, concessions, defeats, victory; the next turn's deadline."""

    kind: Literal["TurnEnded"] = "TurnEnded"
    turn: int
    unsupplied: list[int] = Field(default_factory=list)
    marks: dict[int, int] = Field(default_factory=dict)  # unit -> marks now (those changed)
    immobilised: list[int] = Field(default_factory=list)
    restored: list[int] = Field(default_factory=list)
    conceded: list[str] = Field(default_factory=list)
    defeated: list[str] = Field(default_factory=list)
    winner: str | None = None
    deadline: int | None = None  # the next turn's (None: none is due, see `no_deadline`)
    ended: bool = False  # the game is over
    # the next turn resolves only once everyone has submitted (a game without deadlines);
    # False with no deadline: no new turn (the game is over, or a concession mid-turn)
    no_deadline: bool = False
    # players over their PopCap: the units the next turn's first stage disbands (in order)
    disbanding: dict[str, list[int]] = Field(default_factory=dict)
    # whose each unit named above is (a player is told of their own units' supply only; events
    # stored before it was added have none)
    owners: dict[int, str] = Field(default_factory=dict)


class OrdersCleared(Event):
    """A player took back orders of the turn: all (`number` None) or the one of that number;
    `orders` as they were written back, `left` how many stand. Only the player hears of it
    (in the reply to their command: orders are secret until the turn resolves)."""

    kind: Literal["OrdersCleared"] = "OrdersCleared"
    player: str
    turn: int
    number: int | None = None
    orders: list[str] = Field(default_factory=list)
    left: int = 0


class GameOver(Event):
    kind: Literal["GameOver"] = "GameOver"
    winner: str | None
    structures: dict[str, int]  # player -> structures held at the end
    reason: str  # "victory", "last standing", "time", "moderator", "everyone out"


AnyEvent = Annotated[
    Joined
    | Left
    | Started
    | TurnMoved
    | SupplyAsked
    | TurnEnded
    | OrdersCleared
    | DeadlineNear
    | DeadlineMoved
    | GameOver,
    Field(discriminator="kind"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyEvent)


def event_from_dict(data: dict[str, Any]) -> Event:
    result: Event = ADAPTER.validate_python(data)
    return result
