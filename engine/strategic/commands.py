"""Typed commands: the one way in for players, moderators, scenarios and the AI.

A command names what a nation wants; `engine.strategic.orders.apply` validates it completely against
the world and the nation's rights before changing anything.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from engine.strategic.world.geometry import parse_coord


def _coord(value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        return parse_coord(value)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return int(value[0]), int(value[1])
    if isinstance(value, dict) and {"x", "y"} <= value.keys():
        return int(value["x"]), int(value["y"])
    raise ValueError(f"coordinates look like x,y (for example 12,7), not {value!r}")


Coord = Annotated[tuple[int, int], BeforeValidator(_coord)]


class Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str


class SetBuild(Command):
    """Build this unit type now (the city's designation follows); progress is lost."""

    kind: Literal["build"] = "build"
    city: Coord
    unit: str


class SetNextBuild(Command):
    """Build this unit type after the current one (up to tech + margin); None clears it."""

    kind: Literal["next_build"] = "next_build"
    city: Coord
    unit: str | None


class Designate(Command):
    """Make the city a fort, port, airport, tech centre (or base where the ruleset allows);
    it starts building that designation's first unit the nation can build."""

    kind: Literal["designate"] = "designate"
    city: Coord
    designation: str


class SetWaypoint(Command):
    """Send each unit the city builds to this square (a standing move order, at no command
    point cost); None clears it. A change of build clears it too."""

    kind: Literal["waypoint"] = "waypoint"
    city: Coord
    to: Coord | None


class Move(Command):
    kind: Literal["move"] = "move"
    units: list[int] = Field(min_length=1, max_length=64)
    to: Coord


class Attack(Command):
    """Units move next to the target square (if they are not already) and attack it; land
    units attacking an empty enemy or neutral city capture it. With `queue`, units short of
    mobility are not refused: they go towards the target and attack once in range (a
    standing order, carried on at their updates)."""

    kind: Literal["attack"] = "attack"
    units: list[int] = Field(min_length=1, max_length=64)
    target: Coord
    queue: bool = False


class SetRelation(Command):
    """Set your relation towards another nation (war, neutral, ..., allied)."""

    kind: Literal["relation"] = "relation"
    other: str = Field(description="the other nation's id")
    level: str


class Launch(Command):
    """Launch a satellite or an ICBM at a square within its range (its mobility)."""

    kind: Literal["launch"] = "launch"
    unit: int
    target: Coord


class Invest(Command):
    """Spend command points restoring a city back from a wasteland (ruleset total-war)."""

    kind: Literal["invest"] = "invest"
    city: Coord
    points: int = Field(gt=0, le=100_000)


class Board(Command):
    """Units on the square of a ship or aircraft of yours go aboard it (in port, say)."""

    kind: Literal["board"] = "board"
    units: list[int] = Field(min_length=1, max_length=64)
    carrier: int


class CancelOrders(Command):
    kind: Literal["cancel_orders"] = "cancel_orders"
    units: list[int] = Field(min_length=1, max_length=64)


class BuildCity(Command):
    kind: Literal["build_city"] = "build_city"
    unit: int


class SwitchTerrain(Command):
    kind: Literal["switch_terrain"] = "switch_terrain"
    unit: int


class Disband(Command):
    """The nation's own units are disbanded: they are gone, wherever they are."""

    kind: Literal["disband"] = "disband"
    units: list[int] = Field(min_length=1, max_length=64)


class CedeUnits(Command):
    """Units are handed to a mutual ally, where they stand (what a carrier carries goes with
    it); they become the ally's units."""

    kind: Literal["cede_units"] = "cede_units"
    units: list[int] = Field(min_length=1, max_length=64)
    receiver: str = Field(description="the mutual ally's nation id")


class CedeCity(Command):
    """A city is handed to a mutual ally as it stands (designation, build and progress)."""

    kind: Literal["cede_city"] = "cede_city"
    city: Coord
    receiver: str = Field(description="the mutual ally's nation id")


AnyCommand = Annotated[
    SetBuild
    | SetNextBuild
    | Designate
    | SetWaypoint
    | Move
    | Attack
    | SetRelation
    | CancelOrders
    | Board
    | Launch
    | BuildCity
    | SwitchTerrain
    | Disband
    | CedeUnits
    | CedeCity
    | Invest,
    Field(discriminator="kind"),
]

COMMAND_ADAPTER: TypeAdapter[AnyCommand] = TypeAdapter(AnyCommand)


def command_from_dict(data: dict) -> Command:
    return COMMAND_ADAPTER.validate_python(data)
