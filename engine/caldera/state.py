"""The state of a Caldera game: the captains (their stats, credits, research, techs, hand of
cards waiting for a choice, mission, shipyard and land army), every ship, the NPC factions,
the trust, the zone and its counter, the event card in play, the decks and the star map, and
where the turn stands. Pure data (pydantic, dumped as canonical JSON by the kind): `turns.py`
changes it one command or one resolution at a time, deterministically (every draw comes from
`chance.draw`, seeded from `seed` and `draws`)."""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.caldera import rules as rules_
from engine.caldera import tiles
from engine.caldera.captain import Stats
from engine.caldera.deck import Decks
from engine.caldera.rules import Deck, MapRules, Rules
from engine.caldera.starmap import StarMap, new_map
from engine.caldera.tiles import TileSet

TICKS_PER_HOUR = 4  # the host's clock: a tick is a quarter of a game hour
TICKS_PER_DAY = 24 * TICKS_PER_HOUR
EARTH = "0,0"  # the key of the Earth tile (axial q,r)


# what a card drawn into a hand waits to be chosen for
# (a mission's reward cards are not chosen: each is given; the "Nice!" reward deals a tech hand)
HandKind = Literal["research", "design", "mission", "tech"]
HAND_KINDS: tuple[str, ...] = ("research", "design", "mission", "tech")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hand(_Model):
    """Cards drawn for one choice, waiting for the captain: the next research, a design to
    buy, the next loyalty mission, or a tech to buy at half price (the reward "Nice!").
    `cards` are card ids of the main deck."""

    kind: HandKind
    cards: list[str]
    # may the captain take none of them ("Choose one or none"): designs and the tech reward
    optional: bool = False


class Shipyard(_Model):
    """A captain's shipyard at Earth: its size follows a ship class (`klass`, one the captain
    owns: upgrading it to a larger class is bought), it fights with the weapons fitted in it."""

    klass: str  # a ship class tech id (its space and structure are 3x the class's)
    parts: list[str] = Field(default_factory=list)  # tech ids fitted in it (weapons, defences)
    damage: int = 0  # structure points lost (repaired at the rules' price per point)
    destroyed: bool = False


class Captain(_Model):
    id: str
    name: str
    seat: int
    colour: str = "#888888"
    user: str | None = None  # who plays it (a Discord user id, "ai", or nobody)
    out: bool = False  # resigned, or the shipyard destroyed
    stats: Stats | None = None  # None until set in the setup window
    credits: int = 0
    research: str | None = None  # the tech being researched
    research_paid: int = 0  # credits put into it so far
    techs: dict[str, int] = Field(default_factory=dict)  # tech owned -> its layout level (0-5)
    hand: list[Hand] = Field(default_factory=list)  # choices waiting, the oldest first
    mission: int | None = None  # the loyalty mission taken (its number, 1-6)
    # what the mission's condition is measured against, as it was when taken (e.g. the
    # highest layout level then, the farthest layer known then, the enemy ships destroyed)
    mission_mark: dict[str, int] = Field(default_factory=dict)
    missions_done: int = 0
    trust_earned: int = 0
    destroyed: int = 0  # enemy ships this captain's ships destroyed (standings)
    shipyard: Shipyard
    land: dict[str, int] = Field(default_factory=dict)  # land unit -> count (at the shipyard)
    built: int = 0  # ships built in this window (the rules' one a turn)
    bonuses: dict[str, int] = Field(default_factory=dict)  # starting bonuses bought (setup)
    submitted: bool = False


class Ship(_Model):
    id: int
    owner: str  # a captain's id or an NPC's id
    klass: str  # its ship class tech id
    parts: list[str] = Field(default_factory=list)  # tech ids (engines, weapons, defences...)
    structure: int  # its structure points when whole
    damage: int = 0
    at: str  # the tile it is at ("q,r")
    came_from: str | None = None  # the tile it came from (a retreat, a fleet over the limit)
    move: str | None = None  # where it is ordered to go this turn
    retreat: bool = False  # leaves its next battle after one round
    protected: bool = False  # an NPC ship the captains escort (an event's)
    refittable: bool = True  # starting ships from the bonuses are not
    arrived: int = 0  # the turn it came where it is (the newest return over the fleet limit)
    built: int = 0  # the turn it was built in (0: in the setup)


class Npc(_Model):
    """An NPC faction: a friend (a shipyard of the NPC table, one a zone) or an enemy (pirates,
    aliens) with its AI type. The NPC engineer's `npcs.py` makes and moves them; `data` holds
    what their AI carries from turn to turn."""

    id: str  # a short slug ("js", "pirates-1")
    name: str
    friend: bool
    row: int  # its row of the NPC table (1: Jack's Spacebay, 1: Roger's Pirates...)
    zone: int  # the zone it was made in
    ai: str | None = None  # an enemy's AI type ("scaredy-cats", "explorers", ...)
    home: str | None = None  # its base or homeworld tile
    ship_points: int = 0
    techs: dict[str, int] = Field(default_factory=dict)  # tech -> layout level
    land: dict[str, int] = Field(default_factory=dict)  # land unit -> count at its home
    conquered: bool = False  # its homeworld taken by the captains
    data: dict[str, Any] = Field(default_factory=dict)
    # --- what npcs.py / npc_ai.py keep (the NPC engineer's block) -----------------------------
    table: str = ""  # its row's id in the rules' NPC tables ("js", "rogers-pirates")
    designs: dict[str, list[str]] = Field(default_factory=dict)  # ship class -> its parts
    fleet_start: int = 0  # the ships it started with (an enemy keeps half at home)
    built: int = 0  # ships it has built since (the next class of its DShips in turn)
    docked: dict[str, int] = Field(default_factory=dict)  # a friend's ships off the map, by class
    repairing: dict[str, int] = Field(default_factory=dict)  # a friend's, back next turn
    targets: dict[str, str] = Field(default_factory=dict)  # ship id -> where it is sent
    control: dict[str, str] = Field(default_factory=dict)  # a friend's ship id -> its captain
    scouting: list[str] = Field(default_factory=list)  # unexplored places its ships entered
    destroyed: int = 0  # ships of others its ships destroyed (counted by the battles)
    destroyed_seen: int = 0  # of those, already turned into ships (conquerors)
    turns: int = 0  # NPC turns it has played
    defence_percent: int = 0  # more defence for its side in battles (a cold planet: 50)
    land_tech: int = 0  # the best land unit level it fields
    escort: int | None = None  # a friend's ship the captains escort (wingman, rare cargo)
    claimed: list[str] = Field(default_factory=list)  # places counted for its ship points
    claim_points: int = 0  # the ship points those places (and its base) have given


class EventInPlay(_Model):
    card: str  # the event card's id
    turns_left: int


class State(_Model):
    seed: int = 0
    draws: int = 0  # draws made from the seed so far (`chance.draw`)
    ruleset: str = "standard"
    deck: str = "starter"  # the deck file (data/caldera/decks/<deck>.toml)
    # --- the game around the turns: time in ticks of the host's clock ------------------------
    started: bool = False
    ended: bool = False
    result: str | None = None  # "won", "lost", "time", "moderator" once ended
    tick: int = 0
    turn: int = 0  # turns resolved (the setup window is resolved as turn 1)
    phase: str = "setup"  # "setup" (the first window), "orders" (every window after it)
    deadline: int | None = 0  # the tick the window resolves at (None: no deadline)
    turn_ticks: int = 96  # a window's length in ticks; 0: it waits for every captain
    early: bool = True  # a window resolves once every captain has submitted
    length_days: int = 60
    seats: int = 3
    # --- the players ---------------------------------------------------------------------------
    captains: dict[str, Captain] = Field(default_factory=dict)
    ships: dict[int, Ship] = Field(default_factory=dict)
    next_ship: int = 1
    npcs: dict[str, Npc] = Field(default_factory=dict)
    # --- the campaign ----------------------------------------------------------------------------
    trust: int = 0  # the captains' total NPC trust
    zone: int = 1
    zone_counter: int = 0
    zone_mission: int | None = None  # the zone mission of this zone (its number 1-6)
    zone_mission_done: bool = False
    zone_mark: dict[str, int] = Field(default_factory=dict)  # what it is measured against
    zone_hand: list[str] = Field(default_factory=list)  # zone mission cards to choose from
    event: EventInPlay | None = None
    # --- the cards and the map -------------------------------------------------------------------
    decks: Decks = Field(default_factory=Decks)
    tiles: str = tiles.DEFAULT_TILES  # the tile sets (data/caldera/tiles/<tiles>.toml)
    map: StarMap = Field(default_factory=new_map)
    # unexplored places captains' ships entered this turn, to scout at resolution
    scouting: list[str] = Field(default_factory=list)
    battles: list[str] = Field(default_factory=list)  # where the last turn's battles were
    # the farthest layer any tile lies in (the "farther than any known tile" mission)
    farthest: int = 0

    @property
    def end_tick(self) -> int:
        return self.length_days * TICKS_PER_DAY

    @property
    def rules(self) -> Rules:
        """Its rules (`ruleset` names them)."""
        return rules_.load(self.ruleset)

    @property
    def cards(self) -> Deck:
        """Its deck of cards: the techs, the main deck's cards, the event cards."""
        return _deck(self.deck, self.ruleset)

    @property
    def tile_set(self) -> TileSet:
        return tiles.load(self.tiles)

    @property
    def map_rules(self) -> MapRules:
        """The rules' distance and minerals tables (`[map]`)."""
        return self.rules.map

    def next_deadline(self) -> int | None:
        """The deadline of a window opening now (None: the game has none)."""
        return self.tick + self.turn_ticks if self.turn_ticks else None

    # --- reading --------------------------------------------------------------------------------

    def active(self) -> list[str]:
        """The captains still in the game, in seat order."""
        return [c.id for c in sorted(self.captains.values(), key=lambda c: c.seat) if not c.out]

    def players(self) -> int:
        """X of the seed: the number of captains the game is played with (every seat taken
        at the start, the AI's too; captains out still count: the map was made for them)."""
        return max(1, len(self.captains))

    def ships_of(self, owner: str) -> list[Ship]:
        return sorted((s for s in self.ships.values() if s.owner == owner), key=lambda s: s.id)

    def ships_at(self, at: str) -> list[Ship]:
        return sorted((s for s in self.ships.values() if s.at == at), key=lambda s: s.id)

    def enemies(self) -> list[Npc]:
        return [n for n in self.npcs.values() if not n.friend]

    def friends(self) -> list[Npc]:
        return [n for n in self.npcs.values() if n.friend]

    def is_captain(self, owner: str) -> bool:
        return owner in self.captains

    def is_enemy(self, owner: str) -> bool:
        npc = self.npcs.get(owner)
        return npc is not None and not npc.friend

    # --- making -------------------------------------------------------------------------------

    def add_ship(
        self,
        owner: str,
        klass: str,
        parts: list[str],
        structure: int,
        at: str,
        *,
        refittable: bool = True,
    ) -> Ship:
        ship = Ship(
            id=self.next_ship,
            owner=owner,
            klass=klass,
            parts=list(parts),
            structure=structure,
            at=at,
            refittable=refittable,
            arrived=self.turn,
            built=self.turn,
        )
        self.ships[ship.id] = ship
        self.next_ship += 1
        return ship


@cache
def _deck(deck: str, ruleset: str) -> Deck:
    """A game's deck, read once (a server's deck file edited during a game does not change
    the games already using it)."""
    return rules_.load_deck(deck, ruleset)
