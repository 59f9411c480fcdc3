"""Supply Lines' commands as the host logs them: a player's orders for the turn in the seed's
words, clearing them, submitting them, and answering a supply question."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.interface.turnbased.deadlines import MODERATOR, SetDeadline
from engine.supplylines.rules import available as available_rules
from engine.supplylines.rules import load as load_rules

__all__ = [
    "COMMANDS",
    "MOST_ORDERS",
    "MODERATOR",
    "ChooseSupply",
    "Command",
    "ClearOrders",
    "GiveOrder",
    "SetDeadline",
    "SubmitOrders",
]

# the most orders a player may have in a turn under any of the rules (`orders.limit`): every
# one of them can be taken back by its number
MOST_ORDERS = max(load_rules(name).orders.most for name in available_rules())


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GiveOrder(_Command):
    """One order for this turn, in the seed's words ("Build 1 Tank@M1", "C2 > C3")."""

    kind: Literal["order"] = "order"
    text: str = Field(min_length=1, max_length=200)


class ClearOrders(_Command):
    """Take back this turn's orders: all of them, or the one of this number (1: the first
    given, as `/orders list` numbers them)."""

    kind: Literal["clear"] = "clear"
    number: int | None = Field(default=None, ge=1, le=MOST_ORDERS)


class SubmitOrders(_Command):
    kind: Literal["submit"] = "submit"


class ChooseSupply(_Command):
    """The units to supply, answering this turn's supply question(s)."""

    kind: Literal["supply"] = "supply"
    units: list[int] = Field(max_length=200)


Command = Annotated[
    GiveOrder | ClearOrders | SubmitOrders | ChooseSupply | SetDeadline,
    Field(discriminator="kind"),
]
COMMANDS: TypeAdapter[Any] = TypeAdapter(Command)
