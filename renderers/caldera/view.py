"""What the star map's picture is drawn from: plain data (frozen dataclasses), so the game's
view (engine/caldera/view.py) feeds it whatever its fog lets the viewer know, and the picture
pickles to a drawing worker as it is.

- `MapTile`: a placed tile (what it shows, the zone it was placed in);
- `MapFleet`: ships at a place (owner's name and colour, how many);
- `MapBase`: an NPC's base or homeworld at a place;
- `StarMapView`: the tiles known, the fleets visible, the places of this turn's battles, the
  bases; unexplored space is every unplaced place next to a known tile (fog); the places it
  leaves room for besides (a timelapse's frames laid out alike).

`tiles_of(starmap)` makes the tiles of an engine `StarMap`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.caldera import hexes
from engine.caldera.starmap import StarMap


@dataclass(frozen=True)
class MapTile:
    place: str  # "q,r"
    kind: str  # earth, empty, half-nebula, full-nebula, asteroids, planet
    zone: int = 1
    asteroids: tuple[str, ...] = ()  # small, average, huge
    planet: str | None = None  # earthlike, arid, cold, vulcan
    nebula: str | None = None  # asteroids inside a half-nebula or full-nebula


@dataclass(frozen=True)
class MapFleet:
    place: str
    owner: str  # the name shown in the legend
    colour: str  # "#rrggbb"
    count: int


@dataclass(frozen=True)
class MapBase:
    place: str
    label: str  # short: "JS", "P1", a captain's initials
    colour: str  # "#rrggbb"


@dataclass(frozen=True)
class StarMapView:
    tiles: tuple[MapTile, ...]
    fleets: tuple[MapFleet, ...] = ()
    battles: tuple[str, ...] = ()
    bases: tuple[MapBase, ...] = ()
    title: str = "Caldera"
    subtitle: str = ""  # the turn, the zone, the zone counter...
    # places the picture leaves room for though it draws nothing there (a timelapse's frames
    # all laid out as its last one, so each place stays where it is from frame to frame)
    extent: tuple[str, ...] = ()

    def known(self) -> dict[str, MapTile]:
        return {t.place: t for t in self.tiles}

    def unexplored(self) -> list[str]:
        """Unplaced places next to a known tile, in the seed's order."""
        known = self.known()
        out = {
            hexes.key(n)
            for t in self.tiles
            for n in hexes.neighbours(hexes.parse(t.place))
            if hexes.key(n) not in known
        }
        return hexes.sorted_places(out)


def tiles_of(starmap: StarMap) -> tuple[MapTile, ...]:
    """The tiles of an engine star map, in the seed's order."""
    return tuple(
        MapTile(
            place=k,
            kind=t.kind.value,
            zone=t.zone,
            asteroids=tuple(s.value for s in t.asteroids),
            planet=None if t.planet is None else t.planet.value,
            nebula=None if t.nebula is None else t.nebula.value,
        )
        for k, t in ((k, starmap.tiles[k]) for k in hexes.sorted_places(starmap.tiles))
    )
