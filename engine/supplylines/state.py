"""The state of a Supply Lines game: its board, who owns each structure, the units (each with
its marks), the players and the turn. Pure data: the adjudicator (`adjudicator.py`) changes it
one turn at a time, deterministically."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.supplylines.board import Board, sorted_labels
from engine.supplylines.rules import Rules
from engine.supplylines.rules import load as load_rules

NEUTRAL = "neutral"  # the owner of units left by a player who conceded


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
    model_config = ConfigDict(extra="forbid")

    rules: str = "standard"
    board: Board
    owners: dict[str, str | None]  # structure -> player id (None: neutral)
    units: dict[int, Unit] = Field(default_factory=dict)
    players: dict[str, Player] = Field(default_factory=dict)
    turn: int = 0  # turns resolved
    next_unit: int = 1
    winner: str | None = None
    ended: bool = False

    @property
    def ruleset(self) -> Rules:
        return load_rules(self.rules)

    # --- reading --------------------------------------------------------------------------------

    def units_at(self, label: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.at == label), key=lambda u: u.id)

    def units_of(self, player: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.owner == player), key=lambda u: u.id)

    def structures_of(self, player: str) -> list[str]:
        return sorted_labels(s for s, o in self.owners.items() if o == player)

    def kind(self, label: str) -> str:
        return self.board.kind_of(label, self.ruleset)

    def popcap(self, player: str) -> int:
        rules = self.ruleset
        return sum(rules.structures[self.kind(s)].popcap for s in self.structures_of(player))

    def popcap_used(self, player: str) -> int:
        rules = self.ruleset
        return sum(rules.units[u.type].popcap for u in self.units_of(player))

    def immobile(self, unit: Unit) -> bool:
        return unit.owner == NEUTRAL or unit.marks >= self.ruleset.marks.immobile_at

    def strength(self, units: list[Unit]) -> int:
        rules = self.ruleset
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


def new_state(board: Board, players: list[Player], *, rules: str = "standard") -> State:
    """A game at its start: each player owns its seat's home city with the rules' starting
    units in it; every other structure is neutral and empty."""
    ruleset = load_rules(rules)
    board.check(ruleset)
    owners: dict[str, str | None] = {label: None for label in board.structures}
    for p in players:
        owners[board.home_of(p.seat)] = p.id
    state = State(rules=rules, board=board, owners=owners, players={p.id: p for p in players})
    for p in sorted(players, key=lambda p: p.seat):
        for type_ in ruleset.start_units:
            state.add_unit(type_, p.id, board.home_of(p.seat))
    return state
