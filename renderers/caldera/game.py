"""What the star map's picture reads from a game's view (`engine.caldera.view.View`): the known
tiles, every fleet by owner (the captains in their colours, the NPCs in theirs: friends greens,
enemies oranges and reds, in the order they appeared), the NPCs' bases and the battles. The map,
ships and NPCs are shared in Caldera, so every captain's picture is the same."""

from __future__ import annotations

from collections.abc import Iterable

from engine.caldera.view import View
from renderers.caldera.view import MapBase, MapFleet, StarMapView, tiles_of

# the NPCs' colours, in the order they appear (friends greens, enemies oranges and reds)
FRIENDS = ("#3cb44b", "#7fd17f", "#2e8b57", "#9acd32")
ENEMIES = (
    "#ff9a30",
    "#d2403a",
    "#c77c02",
    "#b8336a",
    "#ff6f3c",
    "#8b4513",
    "#fabed4",
    "#ffe119",
    "#9a6324",
    "#e6194b",
)


def npc_colours(view: View) -> dict[str, str]:
    out: dict[str, str] = {}
    friends = enemies = 0
    for npc_id, npc in view.npcs.items():
        if npc.friend:
            out[npc_id] = FRIENDS[friends % len(FRIENDS)]
            friends += 1
        else:
            out[npc_id] = ENEMIES[enemies % len(ENEMIES)]
            enemies += 1
    return out


def _short(name: str) -> str:
    letters = "".join(w[0] for w in name.replace("'", "").split() if w[:1].isalnum())
    return (letters or name[:2]).upper()[:3]


def star_map_of(
    view: View, *, title: str, battles: Iterable[str] = (), subtitle: str | None = None
) -> StarMapView:
    colours = npc_colours(view)
    counts: dict[tuple[str, str], int] = {}
    for ship in view.ships:
        counts[(ship.at, ship.owner)] = counts.get((ship.at, ship.owner), 0) + 1
    fleets = []
    for (place, owner), n in sorted(counts.items()):
        captain = view.captains.get(owner)
        npc = view.npcs.get(owner)
        if captain is not None:
            fleets.append(MapFleet(place, captain.name, captain.colour, n))
        elif npc is not None:
            fleets.append(MapFleet(place, npc.name, colours[owner], n))
    bases = tuple(
        MapBase(npc.home, _short(npc.name), colours[npc_id])
        for npc_id, npc in view.npcs.items()
        if npc.home and npc.home in view.map.tiles
    )
    return StarMapView(
        tiles=tiles_of(view.map),
        fleets=tuple(fleets),
        battles=tuple(dict.fromkeys(battles)),
        bases=bases,
        title=f"Caldera: {title}",
        subtitle=subtitle
        if subtitle is not None
        else f"Turn {view.turn} · zone {view.zone} · zone counter {view.zone_counter}",
    )
