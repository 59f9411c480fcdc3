"""Caldera's space tiles as data: what a tile shows (`Face`: Earth, empty space, a half or full
nebula, an asteroid system of small/average/huge asteroids, maybe inside a nebula, or a planet
of one of four types) and the tile sets a map is scouted from (`TileSet`, read from
data/caldera/tiles/<name>.toml and validated on load: A asteroid systems, B planets, C empty
space and nebulas, each tile with how many of it the set holds).

    tiles = load()                  # data/caldera/tiles/starter.toml
    tiles.deck("A")                 # ["a-small", "a-small", ...]: one id per tile, unshuffled
    tiles.card("a-small")           # its TileCard
"""

from __future__ import annotations

import tomllib
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

TILES_DIR = Path(__file__).resolve().parents[2] / "data" / "caldera" / "tiles"
DEFAULT_TILES = "starter"

TILE_SETS = ("A", "B", "C")
TileSetName = Literal["A", "B", "C"]


class TilesError(ValueError):
    """A tiles file is missing or malformed; the message names the file, the tile and the
    field."""


class Kind(StrEnum):
    EARTH = "earth"
    EMPTY = "empty"
    HALF_NEBULA = "half-nebula"
    FULL_NEBULA = "full-nebula"
    ASTEROIDS = "asteroids"
    PLANET = "planet"


class Size(StrEnum):
    SMALL = "small"
    AVERAGE = "average"
    HUGE = "huge"


class PlanetType(StrEnum):
    EARTHLIKE = "earthlike"
    ARID = "arid"
    COLD = "cold"
    VULCAN = "vulcan"


NEBULAS = (Kind.HALF_NEBULA, Kind.FULL_NEBULA)
SPACE = (Kind.EMPTY, Kind.HALF_NEBULA, Kind.FULL_NEBULA)  # what a C tile may be

# which kinds each tile set holds
SET_KINDS: dict[str, tuple[Kind, ...]] = {
    "A": (Kind.ASTEROIDS,),
    "B": (Kind.PLANET,),
    "C": SPACE,
}


class Face(BaseModel):
    """What a tile shows: its kind, its asteroids (an asteroid system: one size per
    asteroid), its planet type (a planet), and the nebula an asteroid system lies in."""

    model_config = ConfigDict(extra="forbid")

    kind: Kind
    asteroids: list[Size] = Field(default_factory=list)
    planet: PlanetType | None = None
    nebula: Literal[Kind.HALF_NEBULA, Kind.FULL_NEBULA] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Face:
        if self.kind == Kind.ASTEROIDS and not self.asteroids:
            raise ValueError("an asteroid system needs at least one asteroid size (asteroids)")
        if self.kind != Kind.ASTEROIDS and self.asteroids:
            raise ValueError(f"a {self.kind.value} tile has no asteroids")
        if self.kind == Kind.PLANET and self.planet is None:
            raise ValueError("a planet needs its type (planet: earthlike, arid, cold or vulcan)")
        if self.kind != Kind.PLANET and self.planet is not None:
            raise ValueError(f"a {self.kind.value} tile has no planet type")
        if self.nebula is not None and self.kind != Kind.ASTEROIDS:
            raise ValueError("only an asteroid system lies inside a nebula (nebula)")
        return self

    @property
    def is_planet(self) -> bool:
        return self.kind == Kind.PLANET

    @property
    def is_asteroids(self) -> bool:
        return self.kind == Kind.ASTEROIDS

    @property
    def medium(self) -> Kind:
        """The space a ship crosses there: a half or full nebula (the tile's own, or the one
        its asteroids lie in), else empty space."""
        if self.kind in NEBULAS:
            return self.kind
        if self.nebula is not None:
            return self.nebula
        return Kind.EMPTY


class TileCard(Face):
    """A tile of a tile set: its id (a card id in the set's deck), its set and how many of it
    the set holds."""

    id: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    set: TileSetName
    name: str = ""
    count: int = Field(ge=1)

    @model_validator(mode="after")
    def _kind_fits_set(self) -> TileCard:
        allowed = SET_KINDS[self.set]
        if self.kind not in allowed:
            kinds = ", ".join(k.value for k in allowed)
            raise ValueError(f"a tile of set {self.set} is {kinds}, not {self.kind.value}")
        return self

    def face(self) -> Face:
        return Face(
            kind=self.kind, asteroids=self.asteroids, planet=self.planet, nebula=self.nebula
        )


class TileSet(BaseModel):
    """The tiles a map is scouted from: three decks, A, B and C."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str = ""
    description: str = ""
    tiles: list[TileCard]

    @model_validator(mode="after")
    def _complete(self) -> TileSet:
        ids = [t.id for t in self.tiles]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"tile ids used twice: {', '.join(twice)}")
        empty = [s for s in TILE_SETS if not any(t.set == s for t in self.tiles)]
        if empty:
            raise ValueError(f"no tiles in set {', '.join(empty)} (every set needs one)")
        return self

    def card(self, card_id: str) -> TileCard:
        for t in self.tiles:
            if t.id == card_id:
                return t
        raise KeyError(f"no tile {card_id!r} in the tiles {self.name!r}")

    def deck(self, tile_set: str) -> list[str]:
        """The card ids of one set, one per tile (`count` of each), in the file's order:
        shuffled by the game's chance before use."""
        return [t.id for t in self.tiles if t.set == tile_set for _ in range(t.count)]


def available() -> list[str]:
    return sorted(p.stem for p in TILES_DIR.glob("*.toml"))


def _where(raw: dict, loc: tuple) -> str:
    """A validation error's place, naming the tile by its id when it has one."""
    parts = [str(x) for x in loc]
    if len(loc) >= 2 and loc[0] == "tiles" and isinstance(loc[1], int):
        tiles = raw.get("tiles")
        tile = tiles[loc[1]] if isinstance(tiles, list) and loc[1] < len(tiles) else None
        tile_id = tile.get("id") if isinstance(tile, dict) else None
        name = f"tile {tile_id!r}" if tile_id else f"tile #{loc[1] + 1}"
        parts = [name, *[str(x) for x in loc[2:] if not str(x).startswith("function-")]]
    return ".".join(parts) or "(top level)"


def _message(msg: str) -> str:
    return msg.removeprefix("Value error, ")


def parse(raw: dict, source: str) -> TileSet:
    """A tile set from a file's data; `TilesError` names what is wrong."""
    try:
        return TileSet.model_validate(raw)
    except ValidationError as exc:
        lines = [
            f"{source}: {_where(raw, tuple(e['loc']))}: {_message(e['msg'])}" for e in exc.errors()
        ]
        raise TilesError("\n".join(lines)) from None


def load_file(path: Path) -> TileSet:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise TilesError(f"{path}: no such tiles file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise TilesError(f"{path.name}: not valid TOML: {exc}") from exc
    return parse(raw, path.name)


@cache
def load(name: str = DEFAULT_TILES) -> TileSet:
    if name not in available():
        raise TilesError(f"unknown tiles {name!r}; available: {', '.join(available())}")
    return load_file(TILES_DIR / f"{name}.toml")
