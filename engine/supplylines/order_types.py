"""The orders of Supply Lines as data (parsed from the seed's words by `orders.parse`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Order(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Build(_Order):
    kind: Literal["build"] = "build"
    count: int = Field(ge=1, le=99)
    unit: str
    at: str

    def text(self) -> str:
        return f"Build {self.count} {self.unit.title()}@{self.at}"


class Hold(_Order):
    kind: Literal["hold"] = "hold"
    at: str

    def text(self) -> str:
        return f"Hold@{self.at}"


class Move(_Order):
    kind: Literal["move"] = "move"
    src: str
    dst: str
    # unit type -> how many; None: every unit at `src` that can move and no other move takes
    units: dict[str, int] | None = None

    def text(self) -> str:
        if self.units is None:
            return f"{self.src} > {self.dst}"
        what = " + ".join(f"{n} {t.title()}" for t, n in sorted(self.units.items()))
        return f"{what} @ {self.src} > {self.dst}"


class Concede(_Order):
    kind: Literal["concede"] = "concede"

    def text(self) -> str:
        return "Concede"


Order = Annotated[Build | Hold | Move | Concede, Field(discriminator="kind")]
