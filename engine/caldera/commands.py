"""Caldera's commands as the host logs them: a captain's spending in a turn's window (applied at
once, privately: research, designs, building, the shipyard, repairs, refits, scrapping, the
starting bonuses), the choices of cards in their hand, their ships' move orders (carried out
when the turn resolves), submitting, and the moderator's deadline. Their shape only: `turns.py`
checks each against the state before anything changes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.interface.turnbased.deadlines import MODERATOR, SetDeadline

__all__ = [
    "Build",
    "BuyBonus",
    "COMMANDS",
    "Choose",
    "Command",
    "Fund",
    "MODERATOR",
    "MOST_SHIPS",
    "Move",
    "Recruit",
    "Refit",
    "Repair",
    "Scrap",
    "SetDeadline",
    "SetRetreat",
    "SetStats",
    "Submit",
    "Upgrade",
]

MOST_SHIPS = 200  # the longest list of ships a command names (far more than a fleet)


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SetStats(_Command):
    """The captain's character (the setup window only): the stats' points, by name
    ("cha", "int", "eng", "arm", "com", "eco")."""

    kind: Literal["stats"] = "stats"
    stats: dict[str, int] = Field(max_length=6)


class BuyBonus(_Command):
    """A starting bonus (the setup window only), by its id in the rules; `tech` names the tech
    of a "first/second level technology" bonus, `stat` the stat of a stat point."""

    kind: Literal["bonus"] = "bonus"
    bonus: str = Field(min_length=1, max_length=40)
    tech: str | None = Field(default=None, max_length=40)
    stat: str | None = Field(default=None, max_length=8)


class Choose(_Command):
    """A card of the captain's hand chosen: the next research, a design bought (its layout),
    the next loyalty mission, a tech bought at half price (the reward "Nice!"); `card` None
    takes none (where the seed lets one). `hand` "zone" chooses the zone mission (any
    captain, for all)."""

    kind: Literal["choose"] = "choose"
    hand: Literal["research", "design", "mission", "tech", "zone"]
    card: str | None = Field(default=None, max_length=40)


class Fund(_Command):
    """Credits put into the current research."""

    kind: Literal["fund"] = "fund"
    amount: int = Field(ge=1, le=10**9)


class Build(_Command):
    """A new ship at the shipyard: its class and the parts fitted in it (tech ids, a part
    as many times as it is fitted). One ship a turn."""

    kind: Literal["build"] = "build"
    klass: str = Field(min_length=1, max_length=40)
    parts: list[str] = Field(default_factory=list, max_length=60)


class Upgrade(_Command):
    """The shipyard rebuilt to a larger ship class the captain owns (`klass`), or weapons
    and defences fitted in it (`parts`)."""

    kind: Literal["upgrade"] = "upgrade"
    klass: str | None = Field(default=None, max_length=40)
    parts: list[str] = Field(default_factory=list, max_length=60)


class Repair(_Command):
    """Structure points repaired on a ship at the shipyard (`ship`), or on the shipyard
    (`ship` None); `points` None: all of it the credits pay for."""

    kind: Literal["repair"] = "repair"
    ship: int | None = None
    points: int | None = Field(default=None, ge=1, le=10**9)


class Refit(_Command):
    """A ship in the shipyard refitted with other parts (each new part paid in full)."""

    kind: Literal["refit"] = "refit"
    ship: int
    parts: list[str] = Field(max_length=60)


class Scrap(_Command):
    kind: Literal["scrap"] = "scrap"
    ship: int


class Recruit(_Command):
    """Land units bought at the shipyard (unit id -> how many more); the army goes with the
    captain's ships and fights for an enemy homeworld."""

    kind: Literal["recruit"] = "recruit"
    units: dict[str, int] = Field(min_length=1, max_length=20)


class Move(_Command):
    """Ships ordered to a place within their engines' range (carried out when the turn
    resolves); `to` None takes the order back. At most a fleet's worth from one place."""

    kind: Literal["move"] = "move"
    ships: list[int] = Field(min_length=1, max_length=MOST_SHIPS)
    to: str | None = Field(default=None, max_length=20)


class SetRetreat(_Command):
    """A ship leaves its next battle after one round (`on` False: it stays and fights)."""

    kind: Literal["retreat"] = "retreat"
    ship: int
    on: bool = True


class Submit(_Command):
    """The captain is done with this window (a command after it takes it back)."""

    kind: Literal["submit"] = "submit"


Command = Annotated[
    SetStats
    | BuyBonus
    | Choose
    | Fund
    | Build
    | Upgrade
    | Repair
    | Refit
    | Scrap
    | Recruit
    | Move
    | SetRetreat
    | Submit
    | SetDeadline,
    Field(discriminator="kind"),
]
COMMANDS: TypeAdapter[Any] = TypeAdapter(Command)
