"""Whole Supply Lines games without the host: each seat played by a strategy (the AI, or a
player giving random valid orders), turn after turn, through the same functions the kind
uses (`turns.add_order`, `submit`, `answer_supply`: every order checked as a player's).

    result = play("duel", {1: "ai", 2: "random"}, seed=7, max_turns=60)
    result.winner, result.turns, result.structures

The game is made as the kind makes it (`KIND.setup`), the players join in seat order and it
starts (`turns.start`); each turn every player still in decides from its own view, in seat
order, and submits (the last submission resolves the turn, as on the host); supply questions
are answered by the players asked (the defaults for those who do not). A game not over after
`max_turns` turns has no winner (a draw).

The engine keeps no clock: to time the strategies, pass `clock` (e.g. `time.perf_counter`);
the result then has the seconds each seat spent deciding.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.errors import CommandError
from engine.supplylines import ai, turns
from engine.supplylines.kind import KIND, ChooseSupply, ClearOrders, GiveOrder, SubmitOrders
from engine.supplylines.orders import Build, Move, OrderList
from engine.supplylines.state import State
from engine.supplylines.view import View, view_for

__all__ = ["AiPlayer", "RandomPlayer", "Result", "Strategy", "apply_command", "play", "strategy"]

COLOURS = ("#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085")


class Strategy(Protocol):
    """A seat's player: the commands for now, from its view alone."""

    name: str

    def commands(self, view: View) -> list[Any]: ...

    def failed(self, command: Any, view: View) -> None: ...


class AiPlayer:
    """The AI (`engine.supplylines.ai`) with its memory."""

    def __init__(self, style: str = "normal") -> None:
        self.name = f"ai:{style}"
        self.style = style
        self.memory = ai.Memory()

    def commands(self, view: View) -> list[Any]:
        return ai.decide(view, self.memory, self.style)

    def failed(self, command: Any, view: View) -> None:
        ai.failed(self.memory, command, view)


class RandomPlayer:
    """Random valid orders, seeded: each of its structures' movable units hold, all move, or
    some move, to a random neighbour; random builds (tanks, infantry or none) at each base
    and home city while the PopCap allows; a random choice of units to supply."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def commands(self, view: View) -> list[Any]:
        me = view.nation
        if me is None or not view.started or view.ended or view.players[me].out:
            return []
        rng = self.rng
        state = ai.state_of(view)
        rules = state.rules
        if view.phase == "supply":
            if not view.questions:
                return []
            chosen: list[int] = []
            for units, lines, _default in view.questions:
                pool = list(units)
                rng.shuffle(pool)
                left = lines
                for i in pool:
                    need = rules.units[state.units[i].type].supply
                    if need <= left:
                        chosen.append(i)
                        left -= need
            return [ChooseSupply(units=sorted(chosen))]
        listed = OrderList(state, me)
        for label in state.structures_of(me):
            mine = [u for u in state.units_at(label) if u.owner == me and not state.immobile(u)]
            if not mine:
                continue
            dst = rng.choice(state.board.neighbours(label))
            roll = rng.random()
            order: Move | None = None
            if roll < 0.45:
                order = Move(src=label, dst=dst)
            elif roll < 0.75:
                counts: dict[str, int] = {}
                for u in rng.sample(mine, rng.randint(1, len(mine))):
                    counts[u.type] = counts.get(u.type, 0) + 1
                order = Move(src=label, dst=dst, units=counts)
            if order is not None:
                with contextlib.suppress(CommandError):
                    listed.add(order)
        sites = [s for s in state.structures_of(me) if rules.structures[state.kind(s)].builds]
        rng.shuffle(sites)
        for site in sites:
            for _ in range(3):
                unit = rng.choice([*sorted(rules.units), None])
                if unit is None:
                    break
                try:
                    listed.add(Build(count=1, unit=unit, at=site))
                except CommandError:
                    break
        return [GiveOrder(text=o.text()) for o in listed.orders] + [SubmitOrders()]

    def failed(self, command: Any, view: View) -> None:
        pass


def strategy(name: str, seed: int = 0) -> Strategy:
    """A strategy by name: "ai" (or "ai:<style>") or "random" (seeded)."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "ai" or name.startswith("ai:"):
        return AiPlayer(name.partition(":")[2] or "normal")
    raise ValueError(f"no strategy {name!r}: 'ai', 'ai:<style>' or 'random'")


@dataclass
class Result:
    """How a game went. Seats are the keys; `winner` is a seat or None (no winner by the turn
    cap, or everyone out)."""

    map: str
    seed: int
    winner: int | None
    turns: int  # turns resolved
    reason: str  # "victory", "last standing", "everyone out", "turn cap"
    structures: dict[int, int]  # seat -> structures held at the end
    cities: dict[int, int]  # seat -> cities and home cities held at the end
    units: dict[int, int]  # seat -> units at the end
    out: list[int]  # seats out of the game at the end
    players: dict[int, str]  # seat -> the player's id in the game
    strategies: dict[int, str]  # seat -> the strategy's name
    refused: dict[int, int]  # seat -> commands refused (a valid player has none)
    decisions: dict[int, int] = field(default_factory=dict)  # seat -> views decided on
    seconds: dict[int, float] = field(default_factory=dict)  # seat -> time deciding (`clock`)


def apply_command(state: State, player: str, command: Any) -> None:
    """One of a player's commands (orders, clearing, submitting, a supply answer), applied as
    the kind applies it; a refusal raises `CommandError` and changes nothing."""
    if isinstance(command, GiveOrder):
        turns.add_order(state, player, command.text)
    elif isinstance(command, SubmitOrders):
        turns.submit(state, player)
    elif isinstance(command, ClearOrders):
        turns.clear_orders(state, player, command.number)
    elif isinstance(command, ChooseSupply):
        turns.answer_supply(state, player, command.units)
    else:
        raise CommandError(f"unknown command {command!r}")


def _in_phase(state: State, turn: int, phase: str) -> bool:
    """Whether the game is still in this phase of this turn (the strategies' commands move
    it on: the last submission resolves the turn, the last answer finishes it)."""
    return not state.ended and state.turn == turn and state.phase == phase


def play(
    map_name: str,
    players: Mapping[int, Strategy | str],
    seed: int = 0,
    max_turns: int = 100,
    *,
    rules: str = "standard",
    clock: Callable[[], float] | None = None,
) -> Result:
    """One whole game on `map_name`: seat -> strategy (or its name: "ai", "random"; a random
    player's dice come from `seed` and its seat). Seats are 1, 2, ... without gaps (at least
    two); empty seats of the map stay neutral."""
    seats = sorted(players)
    if len(seats) < 2 or seats != list(range(1, len(seats) + 1)):
        raise ValueError(f"seats are 1, 2, ... (at least two), not {seats}")
    state: State = KIND.setup({"map": map_name, "ruleset": rules, "seed": seed})
    if len(seats) > state.board.seats:
        raise ValueError(f"map {map_name} has {state.board.seats} seats")
    playing: dict[int, Strategy] = {}
    ids: dict[int, str] = {}
    for seat in seats:
        given = players[seat]
        playing[seat] = strategy(given, seed * 1000 + seat) if isinstance(given, str) else given
        ids[seat] = f"p{seat}"
        turns.join(state, ids[seat], f"{playing[seat].name} {seat}", COLOURS[seat - 1], "ai")
    turns.start(state)
    seat_of = {pid: seat for seat, pid in ids.items()}
    refused = dict.fromkeys(seats, 0)
    decisions = dict.fromkeys(seats, 0)
    seconds = dict.fromkeys(seats, 0.0)

    def turn_of(pid: str) -> None:
        seat = seat_of[pid]
        view = view_for(state, pid)
        start = clock() if clock else 0.0
        commands = playing[seat].commands(view)
        if clock:
            seconds[seat] += clock() - start
        decisions[seat] += 1
        for command in commands:
            try:
                apply_command(state, pid, command)
            except CommandError:
                refused[seat] += 1
                playing[seat].failed(command, view)

    while not state.ended and state.turn < max_turns:
        turn = state.turn
        for pid in state.active():
            if not _in_phase(state, turn, "orders"):
                break
            turn_of(pid)
        if _in_phase(state, turn, "orders"):
            turns.resolve_orders_phase(state)  # someone did not submit: the deadline comes
        if _in_phase(state, turn, "supply"):
            for pid in list(state.asked):
                if not _in_phase(state, turn, "supply"):
                    break
                turn_of(pid)
            if _in_phase(state, turn, "supply"):
                turns.finish_turn(state)  # the defaults for those who did not answer
    rules_ = state.rules
    reason = "turn cap"
    if state.ended:
        if state.winner is None:
            reason = "everyone out"
        else:
            needed = [s for s in state.owners if rules_.structures[state.kind(s)].victory]
            won = all(state.owners[s] == state.winner for s in needed)
            reason = "victory" if won else "last standing"
    return Result(
        map=map_name,
        seed=seed,
        winner=seat_of[state.winner] if state.winner is not None else None,
        turns=state.turn,
        reason=reason,
        structures={s: len(state.structures_of(ids[s])) for s in seats},
        cities={
            s: sum(
                1
                for label in state.structures_of(ids[s])
                if rules_.structures[state.kind(label)].victory
            )
            for s in seats
        },
        units={s: sum(1 for u in state.units.values() if u.owner == ids[s]) for s in seats},
        out=[s for s in seats if state.players[ids[s]].out],
        players=ids,
        strategies={s: playing[s].name for s in seats},
        refused=refused,
        decisions=decisions,
        seconds=seconds if clock else {},
    )
