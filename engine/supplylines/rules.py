"""Supply Lines' rules as data: the models of data/rulesets/supply-lines/*.toml and their loader.
Every number of the game is in the file; the code holds only mechanisms."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rulesets" / "supply-lines"
DEFAULT_RULES = "standard"


class RulesError(ValueError):
    """A rules file is missing or malformed; the message names the file and the field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Marks(_Model):
    immobile_at: int = Field(ge=1)
    most: int = Field(ge=1)  # marks stop adding up here
    penalty: int = Field(ge=0)
    restoration: int = Field(ge=0)


class OrderLimits(_Model):
    """How many orders one player may give in a turn: what the rules could ever use, worked
    out from the player's position (`orders.limit`), and never more than `most`."""

    most: int = Field(ge=1)


class Reminders(_Model):
    """When the players who have not submitted are reminded of a turn's deadline."""

    hours_before: float = Field(gt=0)
    short_turn_part: float = Field(gt=0, le=1)  # in a short turn: this part of it before


class UnitType(_Model):
    strength: int = Field(ge=0)
    popcap: int = Field(ge=0)
    supply: int = Field(ge=0)


class StructureType(_Model):
    letter: str = Field(min_length=1, max_length=1, pattern="^[A-Z]$")
    popcap: int = Field(ge=0)
    supply: int = Field(ge=0)
    builds: bool
    victory: bool


class Rules(_Model):
    name: str
    title: str
    description: str
    start_units: list[str] = Field(default_factory=list)  # at each home city at the start
    marks: Marks
    orders: OrderLimits
    reminders: Reminders
    units: dict[str, UnitType]
    structures: dict[str, StructureType]

    @model_validator(mode="after")
    def _letters_unique(self) -> Rules:
        letters = [s.letter for s in self.structures.values()]
        if len(set(letters)) != len(letters):
            raise ValueError("two structure types share a letter")
        if not self.units:
            raise ValueError("no unit types")
        unknown = [u for u in self.start_units if u not in self.units]
        if unknown:
            raise ValueError(f"start_units: unknown unit types {unknown}")
        return self

    def structure_of_letter(self, letter: str) -> str | None:
        for name, kind in self.structures.items():
            if kind.letter == letter.upper():
                return name
        return None

    def unit_named(self, text: str) -> str | None:
        """The unit type a player means ("Tank", "tanks", "inf"), if any."""
        word = text.strip().lower()
        for name in self.units:
            if word in (name, name + "s") or (len(word) >= 3 and name.startswith(word)):
                return name
        return None


def available() -> list[str]:
    return sorted(p.stem for p in RULES_DIR.glob("*.toml"))


def load_file(path: Path) -> Rules:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RulesError(f"{path}: no such rules file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{path}: not valid TOML: {exc}") from exc
    try:
        return Rules.model_validate(raw)
    except ValidationError as exc:
        lines = [
            f"{path.name}: {'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}"
            for e in exc.errors()
        ]
        raise RulesError("\n".join(lines)) from None


@cache
def load(name: str = DEFAULT_RULES) -> Rules:
    if name not in available():
        raise RulesError(f"unknown rules {name!r}; available: {', '.join(available())}")
    return load_file(RULES_DIR / f"{name}.toml")
