"""TEMPORARY stand-ins for the other Caldera engineers' modules, under the names the shared
design gives them, so the core runs and is tested before their branches land:

- `chance.draw` (wt-cal-rules), the rules' numbers and the starter deck (wt-cal-rules:
  `rules.py`, `data/rulesets/caldera/standard.toml`, `data/caldera/decks/starter.toml`),
- the hex map's order and the tile decks, scouting and movement costs (wt-cal-map:
  `hexes.py`, `starmap.py`),
- the space battle (wt-cal-battle: `battle.py`).

Each is replaced by the real module when its branch is merged into the core's, and this module
is deleted with the last of them. The numbers here are the seed's where it gives them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.caldera.state import State

# --- chance (wt-cal-rules: chance.py) ---------------------------------------------------------


def draw(state: State, purpose: str) -> random.Random:
    """A random source for one draw, from the game's seed and the draws made so far."""
    state.draws += 1
    return random.Random(f"{state.seed}:{state.draws}:{purpose}")


# --- the hex map's order (wt-cal-map: hexes.py) -----------------------------------------------

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def parse(text: str) -> Hex:
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError(f"a place is 'q,r' (two whole numbers), not {text!r}")
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        raise ValueError(f"a place is 'q,r' (two whole numbers), not {text!r}") from None


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def neighbours(place: str) -> list[str]:
    q, r = parse(place)
    return [key((q + dq, r + dr)) for dq, dr in DIRECTIONS]


def layer(place: str) -> int:
    q, r = parse(place)
    return (abs(q) + abs(r) + abs(q + r)) // 2


def _ring(n: int) -> list[str]:
    if n == 0:
        return ["0,0"]
    h = (0, -n)
    out = []
    for d in (DIRECTIONS[2], DIRECTIONS[3], DIRECTIONS[4], DIRECTIONS[5], DIRECTIONS[0], DIRECTIONS[1]):
        for _ in range(n):
            out.append(key(h))
            h = (h[0] + d[0], h[1] + d[1])
    return out


def key_order(place: str) -> tuple[int, int]:
    """Closest to Earth first, then from straight north clockwise."""
    n = layer(place)
    return (n, _ring(n).index(place))


def sorted_places(places: list[str] | set[str]) -> list[str]:
    return sorted(places, key=key_order)


# --- the rules' numbers and the deck (wt-cal-rules) ------------------------------------------


@dataclass(frozen=True)
class Tech:
    id: str
    type: str  # "class", "engine", "weapon", "defence", "utility"
    level: int
    research: int  # research cost
    size: int
    cost: int  # build cost
    values: tuple[int, ...]  # by layout level 0-5 (a class: its structure; an engine: range)
    space: int = 0  # a class: its space at layout 0 (+ `space_step` a layout)
    space_step: int = 0


TECHS: dict[str, Tech] = {
    t.id: t
    for t in (
        Tech("interceptor", "class", 1, 30, 0, 20, (10, 12, 14, 16, 18, 20), 30, 3),
        Tech("frigate", "class", 2, 150, 0, 80, (30, 34, 38, 42, 46, 50), 60, 6),
        Tech("destroyer", "class", 3, 400, 0, 200, (70, 78, 86, 94, 102, 110), 100, 10),
        Tech("nuclear-engine", "engine", 1, 10, 5, 5, (3, 4, 5, 6, 7, 8)),
        Tech("cold-fusion-drive", "engine", 2, 80, 8, 20, (6, 7, 8, 9, 10, 12)),
        Tech("laser-cannon", "weapon", 1, 40, 5, 10, (3, 4, 5, 6, 7, 8)),
        Tech("fusion-cannon", "weapon", 2, 120, 8, 30, (6, 7, 8, 9, 10, 12)),
        Tech("nuclear-missile", "weapon", 2, 120, 8, 30, (7, 8, 9, 10, 11, 12)),
        Tech("plating", "defence", 1, 40, 5, 10, (2, 3, 4, 5, 6, 7)),
        Tech("mining-bots", "utility", 1, 10, 10, 10, (10, 12, 14, 16, 18, 20)),
    )
}
STARTING_TECHS = ("interceptor", "nuclear-engine", "mining-bots")
WEAPON_TYPES = {"laser-cannon": "laser", "fusion-cannon": "laser", "nuclear-missile": "missile"}


@dataclass(frozen=True)
class Card:
    id: str
    number: int
    tech: str
    bonus: str = ""


CARDS: dict[str, Card] = {}
for _i, (_n, _t) in enumerate(
    (n, t) for n in range(1, 7) for t in sorted(TECHS) if TECHS[t].level <= 2 or n > 3
):
    CARDS[f"c{_i + 1:02d}"] = Card(f"c{_i + 1:02d}", _n, _t)


@dataclass(frozen=True)
class EventCard:
    id: str
    name: str
    turns: int
    z: bool  # the duration is multiplied by the zone
    effect: str  # what it forbids ("no-build", "no-research", "no-design", "no-move") or ""


EVENT_CARDS: dict[str, EventCard] = {
    e.id: e
    for e in (
        EventCard("e1", "Calm space", 2, False, ""),
        EventCard("e2", "Shipyard strike", 1, True, "no-build"),
        EventCard("e3", "Solar storm", 3, False, "no-move"),
        EventCard("e4", "Budget cuts", 2, False, "no-research"),
    )
}


def new_decks(state: State) -> None:
    """Every deck shuffled from the game's chance: the main deck, the events, the tiles."""
    from engine.caldera.state import Pile

    sources = {
        "main": sorted(CARDS),
        "events": sorted(EVENT_CARDS),
        "A": [f"a{i}" for i in range(12)],
        "B": [f"b{i}" for i in range(8)],
        "C": [f"c{i}" for i in range(16)],
    }
    for name, cards in sources.items():
        pile = list(cards)
        draw(state, f"shuffle {name}").shuffle(pile)
        state.decks[name] = Pile(draw=pile)


def deal(state: State, deck: str, count: int) -> list[str]:
    """`count` cards from the top of a deck (the discard shuffled back when it runs out)."""
    pile = state.decks[deck]
    out: list[str] = []
    for _ in range(count):
        if not pile.draw:
            if not pile.discard:
                break
            pile.draw, pile.discard = pile.discard, []
            draw(state, f"reshuffle {deck}").shuffle(pile.draw)
        out.append(pile.draw.pop())
    return out


def discard(state: State, deck: str, cards: list[str]) -> None:
    state.decks[deck].discard.extend(cards)


@dataclass(frozen=True)
class Bonus:
    id: str
    cost: int
    effect: str  # "layout", "ship", "random-tech", "tech", "stat"
    tech: str = ""  # the layout's or the ship's class
    level: int = 0  # a tech bonus's level
    parts: tuple[str, ...] = ()  # a ship bonus's parts


@dataclass(frozen=True)
class Numbers:
    stat_points: int = 15
    stat_least: dict[str, int] = field(default_factory=lambda: {"cha": 2, "int": 2, "eng": 2})
    default_stats: dict[str, int] = field(
        default_factory=lambda: {"cha": 3, "int": 3, "eng": 3, "arm": 2, "com": 2, "eco": 2}
    )
    credits: int = 500
    zone_counter: int = 10
    zone_mission_bonus: int = 5
    final_zone: int = 5
    repair: int = 10  # credits a structure point
    shipyard_factor: int = 3
    fleet: int = 5
    move_fleet: int = 5
    discount: int = 5  # % a point of Int (research) or Eng (building)
    income_eco: int = 10  # % a point of Eco
    reward_eco: int = 10  # % a point of Eco
    bonuses: dict[str, Bonus] = field(
        default_factory=lambda: {
            b.id: b
            for b in (
                Bonus("nuclear-engine-layout", 30, "layout", "nuclear-engine"),
                Bonus(
                    "earth-interceptor",
                    50,
                    "ship",
                    "interceptor",
                    parts=("nuclear-engine", "laser-cannon", "laser-cannon"),
                ),
                Bonus(
                    "earth-frigate",
                    200,
                    "ship",
                    "frigate",
                    parts=("cold-fusion-drive",) + ("fusion-cannon",) * 4,
                ),
                Bonus("random-tech-1", 60, "random-tech", level=1),
                Bonus("tech-1", 100, "tech", level=1),
                Bonus("random-tech-2", 150, "random-tech", level=2),
                Bonus("tech-2", 250, "tech", level=2),
                Bonus("stat-point", 350, "stat"),
            )
        }
    )
    presence: dict[str, int] = field(
        default_factory=lambda: {"heavy-presence": 4, "presence": 2}  # x players
    )
    # minerals a turn by zone (1-based) and size, times the players
    minerals: dict[str, tuple[int, ...]] = field(
        default_factory=lambda: {
            "small": (10, 20, 40, 80, 150, 300),
            "average": (20, 40, 80, 150, 300, 500),
            "huge": (40, 80, 150, 300, 500, 1000),
            "planet": (80, 150, 300, 500, 1000, 2000),
        }
    )


NUMBERS = Numbers()

# --- the tile decks and scouting (wt-cal-map) -------------------------------------------------

# the event table: a card's number -> (what is found, the tile set drawn)
EVENT_TABLE: dict[int, tuple[str, str]] = {
    1: ("enemy-base", "B"),
    2: ("heavy-presence", "A"),
    3: ("presence", "A"),
    4: ("mission", "A"),
    5: ("mission", "C"),
    6: ("empty", "C"),
}
_FACES = {
    "A": [("asteroids", ["small"]), ("asteroids", ["average"]), ("asteroids", ["huge"])],
    "B": [("planet", [])],
    "C": [("empty", []), ("empty", []), ("half-nebula", []), ("full-nebula", [])],
}
_PLANETS = ("earthlike", "arid", "cold", "vulcan")


def scout(state: State, place: str, tile_set: str, by: str | None) -> list[str]:
    """A tile of the set drawn and placed at `place` (no neighbour rule here); the places
    a tile was put, the drawn one last."""
    from engine.caldera.state import Tile

    card = deal(state, tile_set, 1)
    n = int(card[0][1:]) if card else 0
    kind, asteroids = _FACES[tile_set][n % len(_FACES[tile_set])]
    state.map.tiles[place] = Tile(
        kind=kind,
        asteroids=list(asteroids),
        planet=_PLANETS[n % 4] if kind == "planet" else None,
        zone=state.zone,
        card=card[0] if card else None,
        turn=state.turn + 1,
        scouted_by=by,
    )
    return [place]


def unexplored(state: State) -> list[str]:
    out = {n for p in state.map.tiles for n in neighbours(p) if n not in state.map.tiles}
    return sorted_places(out)


def tile_minerals(state: State, at: str) -> int:
    tile = state.map.tiles[at]
    zone = min(tile.zone, 6) - 1
    if tile.kind in ("planet", "earth"):
        one = NUMBERS.minerals["planet"][zone]
    else:
        one = sum(NUMBERS.minerals[a][zone] for a in tile.asteroids)
    return one * state.players()


def mining(techs: dict[str, int]) -> int:
    return TECHS["mining-bots"].values[techs.get("mining-bots", 0)]


def entry_cost(state: State, frm: str, to: str) -> int:
    """The movement points entering `to` from `frm` costs: its layer, doubled through a half
    nebula or from empty space to empty space, four times through a full nebula."""
    n = max(1, layer(to))
    tile = state.map.tiles.get(to)
    came = state.map.tiles.get(frm)
    kind = tile.kind if tile else "space"
    if kind == "half-nebula" or (kind == "space" and came is not None and came.kind == "space"):
        return 2 * n
    if kind == "full-nebula":
        return 4 * n
    return n


def reachable(state: State, frm: str, points: int) -> dict[str, int]:
    """Places a ship at `frm` with `points` of range reaches (placed tiles, and unexplored
    places next to them: it stops there), with what each costs."""
    best = {frm: 0}
    todo = [frm]
    while todo:
        todo.sort(key=lambda p: (best[p], key_order(p)))
        here = todo.pop(0)
        if here not in state.map.tiles:
            continue  # unexplored: it stops there
        for nxt in neighbours(here):
            cost = best[here] + entry_cost(state, here, nxt)
            if cost <= points and cost < best.get(nxt, cost + 1):
                best[nxt] = cost
                todo.append(nxt)
    best.pop(frm)
    return best


# --- what a captain's stats do (wt-cal-rules: captain.py) -------------------------------------


def choices(points: int) -> int:
    """Cards drawn for a choice: one for every two points of the stat (one at least)."""
    return max(1, points // 2)


def research_cost(stats: dict[str, int], tech: str) -> int:
    return TECHS[tech].research * (100 - NUMBERS.discount * stats.get("int", 0)) // 100


def build_cost(stats: dict[str, int], cost: int) -> int:
    return cost * (100 - NUMBERS.discount * stats.get("eng", 0)) // 100


def space(stats: dict[str, int], klass: str, layout: int) -> int:
    t = TECHS[klass]
    return (t.space + t.space_step * layout) * (100 + 25 * stats.get("com", 0)) // 100


def income(stats: dict[str, int], mined: int) -> int:
    return mined * (100 + NUMBERS.income_eco * stats.get("eco", 0)) // 100


def reward_credits(stats: dict[str, int], credits: int) -> int:
    return credits * (100 + NUMBERS.reward_eco * stats.get("eco", 0)) // 100
