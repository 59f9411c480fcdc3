"""The board of a Supply Lines game: a graph of structures (cities C, home cities H, refineries
R, military bases M) joined by roads. A structure's type is the letter its label starts with
(`C2`, `H1`); home cities belong to a seat (1, 2, ...). Maps are data
(data/maps/supply-lines/*.toml) or made by the generator (`mapgen`); the board travels inside
the game's state, so a game never depends on a map file after it was made.

A map file:

    name = "Crossroads"
    title = "Crossroads (2 players)"
    seats = 2
    [structures]
    H1 = { x = 0.0, y = 0.5, seat = 1 }
    C1 = { x = 0.5, y = 0.5 }
    ...
    roads = [["H1", "C1"], ...]

x and y (0..1) only place the structure in pictures.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.supplylines.rules import Rules

MAPS_DIR = Path(__file__).resolve().parents[2] / "data" / "maps" / "supply-lines"
LABEL = re.compile(r"^([A-Z])([1-9][0-9]*)$")
MAP_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")


class MapError(ValueError):
    """A map is malformed; the message says what is wrong."""


class Structure(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    x: float = Field(ge=0.0, le=1.0)
    y: float = Field(ge=0.0, le=1.0)
    seat: int | None = Field(default=None, ge=1)  # a home city's seat


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    seats: int = Field(ge=2)
    structures: dict[str, Structure]
    roads: list[tuple[str, str]]

    @model_validator(mode="after")
    def _well_formed(self) -> Board:
        for label in self.structures:
            if not LABEL.match(label):
                raise ValueError(f"structure {label!r}: a label is a letter and a number (C2)")
        homes = sorted(s.seat for s in self.structures.values() if s.seat is not None)
        if homes != list(range(1, self.seats + 1)):
            raise ValueError(f"the {self.seats} seats need one home city each (seats {homes})")
        seen: set[frozenset[str]] = set()
        for a, b in self.roads:
            for end in (a, b):
                if end not in self.structures:
                    raise ValueError(f"road {a}-{b}: there is no structure {end}")
            if a == b:
                raise ValueError(f"road {a}-{b} leads nowhere")
            if frozenset((a, b)) in seen:
                raise ValueError(f"road {a}-{b} is there twice")
            seen.add(frozenset((a, b)))
        return self

    def check(self, rules: Rules) -> Board:
        """The board against the rules: every label's letter names a structure type, home
        cities are those with a seat. Returns the board; raises `MapError`."""
        home = rules.structures.get("home")
        for label, s in self.structures.items():
            kind = rules.structure_of_letter(label[0])
            if kind is None:
                raise MapError(f"structure {label}: no structure type has the letter {label[0]}")
            if (s.seat is not None) != (home is not None and kind == "home"):
                raise MapError(f"structure {label}: only home cities have a seat")
            if s.seat is not None and label != f"{label[0]}{s.seat}":
                raise MapError(f"structure {label}: the home city of seat {s.seat} is named so")
        if not nx.is_connected(self.graph):
            raise MapError(f"map {self.name}: some structures cannot be reached from the others")
        return self

    # --- reading --------------------------------------------------------------------------------

    @cached_property
    def graph(self) -> nx.Graph[str]:
        g: nx.Graph[str] = nx.Graph()
        g.add_nodes_from(self.structures)
        g.add_edges_from(self.roads)
        return g

    def kind_of(self, label: str, rules: Rules) -> str:
        kind = rules.structure_of_letter(label[0])
        if kind is None:
            raise MapError(f"structure {label}: no structure type has the letter {label[0]}")
        return kind

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Board:
        """A copy, without the road graph worked out for this board (roads may differ)."""
        copy = super().model_copy(update=update, deep=deep)
        copy.__dict__.pop("graph", None)
        return copy

    def adjacent(self, a: str, b: str) -> bool:
        return self.graph.has_edge(a, b)

    def neighbours(self, label: str) -> list[str]:
        return sorted(self.graph.neighbors(label), key=label_order)

    def home_of(self, seat: int) -> str:
        return next(label for label, s in self.structures.items() if s.seat == seat)

    def labels(self) -> list[str]:
        return sorted(self.structures, key=label_order)

    def find(self, text: str) -> str | None:
        """The structure a player means ("c2", " C2 "), if there is one."""
        label = text.strip().upper()
        return label if label in self.structures else None


def label_order(label: str) -> tuple[str, int]:
    """C2 before C10."""
    m = LABEL.match(label)
    return (label[0], int(m.group(2))) if m else (label, 0)


def sorted_labels(labels: Iterable[str]) -> list[str]:
    return sorted(labels, key=label_order)


def available() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.toml"))


def load_map(name: str, rules: Rules) -> Board:
    """A hand-made map by its name (one of `available()`: a name is never a path)."""
    path = MAPS_DIR / f"{name}.toml"
    if not MAP_NAME.match(name) or not path.is_file():
        raise MapError(f"there is no map {name!r} (maps: {', '.join(available())})")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{path.name}: not valid TOML: {exc}") from exc
    raw.setdefault("name", name)
    try:
        board = Board.model_validate(raw)
    except ValueError as exc:
        raise MapError(f"{path.name}: {exc}") from None
    return board.check(rules)
