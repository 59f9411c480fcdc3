"""The state of a Supply Lines game: its board, who owns each structure, the units (each with
its marks), the players and the turn. Pure data: the adjudicator (`adjudicator.py`) changes it
one turn at a time, deterministically."""

from __future__ import annotations

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from engine.supplylines.board import Board, sorted_labels
from engine.supplylines.order_types import Order
from engine.supplylines.rules import Rules
from engine.supplylines.rules import load as load_rules

NEUTRAL = "neutral"  # the owner of units left by a player who conceded
TICKS_PER_HOUR = (
    4  # the host's clock: a tick is a quarter of a game hour, as in Strategic Initiative
)
TICKS_PER_DAY = 24 * TICKS_PER_HOUR


class Unit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    type: str
    owner: str  # a player's id, or NEUTRAL
    at: str  # the structure it stands in
    marks: int = 0
    built: int = 0  # the turn it was built in (0: there from the start)


class Player(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    seat: int
    colour: str = "#888888"
    user: str | None = None  # who plays it (a Discord user id, "ai", or nobody)
    out: bool = False  # defeated or conceded
    conceded: bool = False


class State(BaseModel):
    # (stored as "rules": `by_alias` when dumped, so every stored world and its hash stay)
    model_config = ConfigDict(extra="forbid")

    ruleset: str = Field(
        default="standard",
        validation_alias=AliasChoices("ruleset", "rules"),
        serialization_alias="rules",
    )  # the name of its rules
    board: Board
    owners: dict[str, str | None]  # structure -> player id (None: neutral)
    units: dict[int, Unit] = Field(default_factory=dict)
    players: dict[str, Player] = Field(default_factory=dict)
    turn: int = 0  # turns resolved
    next_unit: int = 1
    winner: str | None = None
    ended: bool = False
    # --- the game around the turns (`turns.py`): time in ticks of the host's clock -----------
    started: bool = False
    tick: int = 0  # ticks since the start (a quarter of a game hour each)
    length_days: int = 30  # the game ends after this many game days (standings decide)
    # a turn's deadline, in ticks (96: a day at real time); 0: none, a turn resolves only
    # once every player has submitted (or a moderator resolves it)
    turn_ticks: int = 96
    choice_ticks: int = 4  # the deadline to answer a supply question, in ticks
    early: bool = True  # a turn resolves as soon as every player has submitted
    phase: str = "orders"  # "orders", or "supply" while supply questions wait for answers
    deadline: int | None = 0  # the tick at which the current phase resolves (None: no deadline)
    orders: dict[str, list[Order]] = Field(default_factory=dict)  # this turn's, secret
    submitted: list[str] = Field(default_factory=list)  # players done with their orders
    answers: dict[str, list[int]] = Field(default_factory=dict)  # supply choices given
    asked: list[str] = Field(default_factory=list)  # players with supply questions now
    seed: int = 0

    def next_deadline(self) -> int | None:
        """The deadline of a turn's orders beginning now (None: the game has none)."""
        return self.tick + self.turn_ticks if self.turn_ticks else None

    @property
    def end_tick(self) -> int:
        return self.length_days * TICKS_PER_DAY

    @property
    def rules(self) -> Rules:
        """Its rules (`ruleset` names them), as every game calls them."""
        return load_rules(self.ruleset)

    # --- reading --------------------------------------------------------------------------------

    def units_at(self, label: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.at == label), key=lambda u: u.id)

    def units_of(self, player: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.owner == player), key=lambda u: u.id)

    def structures_of(self, player: str) -> list[str]:
        return sorted_labels(s for s, o in self.owners.items() if o == player)

    def kind(self, label: str) -> str:
        return self.board.kind_of(label, self.rules)

    def popcap(self, player: str) -> int:
        rules = self.rules
        return sum(rules.structures[self.kind(s)].popcap for s in self.structures_of(player))

    def popcap_used(self, player: str) -> int:
        rules = self.rules
        return sum(rules.units[u.type].popcap for u in self.units_of(player))

    def immobile(self, unit: Unit) -> bool:
        return unit.owner == NEUTRAL or unit.marks >= self.rules.marks.immobile_at

    def strength(self, units: list[Unit]) -> int:
        rules = self.rules
        return sum(rules.units[u.type].strength for u in units)

    def active(self) -> list[str]:
        """The players still in the game, in seat order."""
        return [p.id for p in sorted(self.players.values(), key=lambda p: p.seat) if not p.out]

    def player_of_seat(self, seat: int) -> Player | None:
        return next((p for p in self.players.values() if p.seat == seat), None)

    # --- making -------------------------------------------------------------------------------------

    def add_unit(self, type_: str, owner: str, at: str, *, marks: int = 0) -> Unit:
        unit = Unit(id=self.next_unit, type=type_, owner=owner, at=at, marks=marks, built=self.turn)
        self.units[unit.id] = unit
        self.next_unit += 1
        return unit
