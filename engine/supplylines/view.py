"""What a player may know of a Supply Lines game: the whole board (the game has no fog), who has
submitted, and their own orders and supply questions; never another player's orders before the
turn resolves. Moderators' `full_view` has every player's orders."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.supplylines import adjudicator, supply
from engine.supplylines.board import Board
from engine.supplylines.state import Player, State, Unit


@dataclass(frozen=True)
class PlayerView:
    id: str
    name: str
    seat: int
    colour: str
    out: bool
    structures: int
    popcap: int
    popcap_used: int
    submitted: bool
    # over the PopCap: the units the turn's first stage disbands, in order (known to all)
    disbanding: tuple[int, ...] = ()
    answered: bool = False  # in a supply phase: has answered their supply question


@dataclass(frozen=True)
class View:
    nation: str | None  # whose view (None: a moderator's)
    ruleset: str  # the name of its rules
    board: Board
    owners: dict[str, str | None]
    units: list[Unit]
    players: dict[str, PlayerView]
    turn: int  # the turn being played (1 for the first)
    tick: int
    phase: str
    deadline: int | None  # None: the turn waits for every player's submission
    started: bool
    ended: bool
    winner: str | None
    # the viewer's own orders (a moderator: everyone's), as written back
    orders: dict[str, list[str]] = field(default_factory=dict)
    # the viewer's supply questions now: (units, lines, default)
    questions: list[tuple[tuple[int, ...], int, tuple[int, ...]]] = field(default_factory=list)


def _view(state: State, nation: str | None, whose: list[str]) -> View:
    upcoming = state.started and not state.ended and state.phase == "orders"
    players = {
        p.id: PlayerView(
            p.id,
            p.name,
            p.seat,
            p.colour,
            p.out,
            len(state.structures_of(p.id)),
            state.popcap(p.id),
            state.popcap_used(p.id),
            p.id in state.submitted,
            tuple(adjudicator.disbanding(state, p.id)) if upcoming else (),
            state.phase == "supply" and p.id in state.answers,
        )
        for p in sorted(state.players.values(), key=lambda p: p.seat)
    }
    questions = []
    if state.phase == "supply":
        questions = [
            (q.network.units, q.network.lines, q.default)
            for q in supply.questions(state)
            if nation is not None and q.player == nation
        ]
    return View(
        nation=nation,
        ruleset=state.ruleset,
        board=state.board,
        owners=dict(state.owners),
        units=[u.model_copy() for u in sorted(state.units.values(), key=lambda u: u.id)],
        players=players,
        turn=state.turn + 1,
        tick=state.tick,
        phase=state.phase,
        deadline=state.deadline,
        started=state.started,
        ended=state.ended,
        winner=state.winner,
        orders={p: [o.text() for o in state.orders.get(p, [])] for p in whose},
        questions=questions,
    )


def view_for(state: State, nation: str) -> View:
    if nation not in state.players:
        raise KeyError(nation)
    return _view(state, nation, [nation])


def full_view(state: State) -> View:
    return _view(state, None, sorted(state.players))


def public(view: View) -> View:
    """What everyone may see of a view: the board without anybody's orders for the turn (a
    picture posted in a game's channel; players' orders are secret until their turn
    resolves)."""
    return replace(view, orders={}, questions=[], nation=None)


def state_of(view: View) -> State:
    """A state made of what a view shows (no player's orders: the viewer's are in the view),
    for the engine's own readings of it: checking the viewer's orders as the bot will, finding
    the supply networks (the AI, the pictures)."""
    players = {
        p.id: Player(id=p.id, name=p.name, seat=p.seat, colour=p.colour, out=p.out)
        for p in view.players.values()
    }
    return State(
        ruleset=view.ruleset,
        board=view.board,
        owners=dict(view.owners),
        units={u.id: u.model_copy() for u in view.units},
        players=players,
        turn=max(view.turn - 1, 0),
        tick=view.tick,
        started=view.started,
        ended=view.ended,
        phase=view.phase,
        deadline=view.deadline,
        winner=view.winner,
    )
