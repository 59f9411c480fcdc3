"""What Caldera's NPCs decide, as pure functions of the state (seed 003, "NPC Guide"): the order
the NPCs play their turn in, the ship points each enemy A.I. type gains, where each type sends
its ships, and the next step of a ship towards where it is sent. `npcs.py` carries the
decisions out (it moves and builds); nothing here changes the state.

"Closest" is the fewest hex steps from the NPC's base; ties go north first, then clockwise
round the base (the seed's "clockwise starting from north"). A place an NPC controls is one
where its ships are and nobody else's ships are (its base is counted apart, by the rules'
`homeworld_counts`). A star system is any placed tile but Earth and the NPCs' bases; one with
resources has asteroids or a planet.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.caldera import hexes
from engine.caldera.rules import EnemyAi
from engine.caldera.state import EARTH, Npc, State

# --- the order of the NPCs' turn --------------------------------------------------------------


def turn_order(state: State) -> list[str]:
    """The NPCs in the order of their turn (the seed's part 4): the friends first (in the order
    they were made), then each enemy whose base still stands, the closest to Earth first, then
    north, then clockwise."""
    friends = [n.id for n in state.npcs.values() if n.friend]
    enemies = sorted(
        (n for n in state.enemies() if not n.conquered and n.home is not None),
        key=lambda n: (hexes.key_order(n.home or EARTH), n.id),
    )
    return friends + [n.id for n in enemies]


# --- places ---------------------------------------------------------------------------------


def around(home: str, place: str) -> tuple[int, int, tuple[int, int]]:
    """The sort key of "closest to `home`, then north, then clockwise round it"."""
    h, p = hexes.parse(home), hexes.parse(place)
    d = (p[0] - h[0], p[1] - h[1])
    return (hexes.distance(h, p), hexes.ring_index(d), hexes.order(p))


def bases(state: State) -> set[str]:
    """Earth and every NPC's base or homeworld."""
    return {EARTH} | {n.home for n in state.npcs.values() if n.home is not None}


def unexplored(state: State) -> list[str]:
    """The unplaced places next to the map."""
    tiles = state.map.tiles
    out = {
        hexes.key(n)
        for place in tiles
        for n in hexes.neighbours(hexes.parse(place))
        if hexes.key(n) not in tiles
    }
    return hexes.sorted_places(out)


def has_resources(state: State, place: str) -> bool:
    tile = state.map.tiles.get(place)
    return tile is not None and tile.kind in ("planet", "asteroids")


def held(state: State, npc: Npc) -> list[str]:
    """The places `npc` controls: its ships there and nobody else's (its base not counted)."""
    owners: dict[str, set[str]] = {}
    for ship in state.ships.values():
        owners.setdefault(ship.at, set()).add(ship.owner)
    return hexes.sorted_places(
        at for at, who in owners.items() if who == {npc.id} and at != npc.home
    )


def homeworlds(state: State, npc: Npc) -> list[str]:
    """The homeworlds `npc` attacks: Earth, the captains' (the enemies never fight each other:
    a battle is where the captains' ships or shipyards are, so another enemy's base is no
    homeworld to attack)."""
    return [] if npc.home == EARTH else [EARTH]


# --- ship points ------------------------------------------------------------------------------


CLAIMED = ("controlled-systems", "mined-systems", "controlled-tiles")  # points by places held


def claims(state: State, npc: Npc, ai: EnemyAi) -> list[str]:
    """The places that count for `npc`'s ship points for the first time now: those it controls
    (not a base, not counted before) that its type counts: a star system (Scaredy-cats), one
    with resources, which its ships mine (Hoarders), any tile (Surveyors)."""
    if ai.points not in CLAIMED:
        return []
    not_base = bases(state)
    found = [
        p
        for p in held(state, npc)
        if p in state.map.tiles and p not in not_base and p not in npc.claimed
    ]
    if ai.points == "mined-systems":
        found = [p for p in found if has_resources(state, p)]
    return found


def points_gained(state: State, npc: Npc, ai: EnemyAi) -> int:
    """The ship points (the Conquerors: ships) `npc` gains in this turn's "get new ships":
    Manufacturers 1 a turn; Explorers 1 per new place its ships scouted; Conquerors 1 per ship
    of others its ships destroyed; Scaredy-cats 1 per 2 star systems it has controlled, its
    base counting 2, Hoarders 1 per system with resources it has mined and Surveyors 1 per
    tile it has controlled, the base counting 1: each place counted once, the first time
    (`claims`), so only the points not given yet."""
    tiles = state.map.tiles
    if ai.points == "turns":
        return 1 // ai.per
    if ai.points == "scouted-systems":
        return sum(1 for p in npc.scouting if p in tiles) // ai.per
    if ai.points == "destroyed-ships":
        return max(0, npc.destroyed - npc.destroyed_seen) // ai.per
    units = len(npc.claimed) + len(claims(state, npc, ai)) + ai.homeworld_counts
    return max(0, units // ai.per - npc.claim_points)


# --- where ships are sent -----------------------------------------------------------------------


def targets(state: State, npc: Npc, ai: EnemyAi, taken: set[str]) -> list[str]:
    """Where `npc` sends its next group, best first, by its A.I. type; `taken` are the places
    it controls or has sent ships to already (skipped). Empty: nowhere uncontrolled (the
    caller attacks the closest homeworld). The Conquerors' are the homeworlds."""
    home = npc.home or EARTH
    if ai.target == "closest-homeworld":
        return homeworlds(state, npc)
    if ai.target == "closest-unexplored":
        found = [p for p in unexplored(state) if p not in taken]
        return sorted(found, key=lambda p: around(home, p))
    not_base = bases(state)
    systems = [p for p in state.map.tiles if p not in not_base and p not in taken]
    if ai.target == "closest-resources":
        systems = [p for p in systems if has_resources(state, p)]
    elif ai.target == "closest-asteroids":
        systems = [p for p in systems if state.map.tiles[p].kind == "asteroids"]
    if ai.target == "closest-system-fewest-ships":
        ships: dict[str, int] = {}
        for ship in state.ships.values():
            ships[ship.at] = ships.get(ship.at, 0) + 1

        def key(p: str) -> tuple[object, ...]:
            d, ring, order = around(home, p)
            return (d, ships.get(p, 0), ring, order)

        return sorted(systems, key=key)
    return sorted(systems, key=lambda p: around(home, p))


# --- moving ------------------------------------------------------------------------------------


def step(
    frm: str, to: str, reach: dict[str, int], to_go: dict[str, int], placed: Collection[str]
) -> str:
    """Where a ship at `frm` sent to `to` goes this turn, given the places its engine reaches
    (`reach`: place -> cost) and what moving between each place and `to` costs at the
    cheapest (`to_go`): `to` if it reaches it, else the reachable placed tile nearest `to` by
    that cost (then the cheaper to reach, then the seed's order), if it is nearer than `frm`;
    else it stays. It never stops in unexplored space it was not sent to."""
    if to in reach:
        return to
    options = [p for p in reach if p in placed and p in to_go]
    if not options:
        return frm
    best = min(options, key=lambda p: (to_go[p], reach[p], hexes.key_order(p)))
    if frm in to_go and to_go[best] >= to_go[frm]:
        return frm
    return best
