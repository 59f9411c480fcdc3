"""Supply Lines as a game kind (`engine.interface.kind.GameKind`): the host's one door into this
package. Its commands are a player's orders for the turn (`order`, as written: "C2 > C3"),
clearing them, submitting them, and answering a supply question."""

from __future__ import annotations

import os
import re
from types import MappingProxyType
from typing import Any

from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.entries import AI_PLAYER
from engine.interface.events import Event
from engine.interface.summary import GameSummary, NationSummary, TurnSummary
from engine.interface.turnbased import door
from engine.interface.turnbased.deadlines import (
    check_moderator,
    check_turn_hours,
    early_of,
    turn_ticks,
)
from engine.supplylines import events as ev
from engine.supplylines import turns
from engine.supplylines.ai import AI
from engine.supplylines.board import Board, MapError, available, load_map
from engine.supplylines.commands import (
    COMMANDS,
    MODERATOR,
    ChooseSupply,
    ClearOrders,
    GiveOrder,
    SetDeadline,
    SubmitOrders,
)
from engine.supplylines.mapgen import generate
from engine.supplylines.rules import DEFAULT_RULES, Rules
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import TICKS_PER_DAY, TICKS_PER_HOUR, State
from engine.supplylines.view import View, full_view, view_for

DEFAULT_MAPS = {2: "duel", 3: "triangle", 4: "four", 5: "five", 6: "six"}  # by players


__all__ = [
    "AI_PLAYER",
    "KIND",
    "MODERATOR",
    "ChooseSupply",
    "ClearOrders",
    "GiveOrder",
    "SetDeadline",
    "SubmitOrders",
    "SupplyLines",
]


RANDOM_MAP = re.compile(r"^random(?:-(\d)-(\d{1,10}))?(?:-(small|normal|large))?$")


def board_for(name: object, players: object, seed: int, rules: Rules) -> Board:
    """The board a game is set up on: a hand-made map by its name (by default the one for
    `players`), or a fair generated one: "random" (of the game's seed; "random-small",
    "random-large" for its sizes), or "random-P-SEED[-size]" as a generated board names itself
    (the same board again)."""
    try:
        seats = int(str(players)) if players is not None else None
    except ValueError:
        raise GameError(f"the number of players is a number, not {players!r}") from None
    text = str(name or "").strip().lower()
    found = RANDOM_MAP.match(text)
    if found is not None:
        count, seed_text, size = found.groups()
        if count is not None:
            if seats is not None and int(count) != seats:
                raise GameError(f"the map {text} is for {count} players, not {seats}")
            seats, seed = int(count), int(seed_text)
        try:
            return generate(seats or 2, seed, size=size or "normal")
        except MapError as exc:
            raise GameError(str(exc)) from None
    if not text:
        text = DEFAULT_MAPS.get(seats or 2, "")
        if not text:
            raise GameError(
                f"there is no map for {seats} players: choose one of {', '.join(available())}"
            )
    try:
        board = load_map(text, rules)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    if seats is not None and board.seats != seats:
        raise GameError(f"the map {text} is for {board.seats} players, not {seats}")
    return board


class SupplyLines:
    name = "supply-lines"
    title = "Supply Lines"
    ai = AI

    # --- setup and the state's stored form -----------------------------------------------------

    def setup(self, options: dict[str, Any]) -> State:
        """A game in the lobby: `map` (by default the one for `max_nations` players),
        `ruleset`, `turn_hours` (a turn's deadline, 24 by default), `choice_hours` (to answer a
        supply question, 1), `early` (a turn resolves once everyone has submitted, True),
        `length_days` (30)."""
        rules = load_rules(options.get("ruleset") or DEFAULT_RULES)
        seed = options.get("seed")
        seed = int(seed) if seed is not None else int.from_bytes(os.urandom(4), "big")
        board = board_for(options.get("map"), options.get("max_nations"), seed, rules)
        turn_hours = float(options.get("turn_hours", 24))
        choice_hours = float(options.get("choice_hours", min(1.0, turn_hours) if turn_hours else 1))
        check_turn_hours(turn_hours)
        if not 0.25 <= choice_hours <= (turn_hours or 24 * 7):
            raise GameError("a supply question waits from a quarter of an hour to a turn")
        length = int(options.get("length_days", 30))
        door.check_days(length)
        return State(
            ruleset=rules.name,
            board=board,
            owners={label: None for label in board.structures},
            length_days=length,
            turn_ticks=turn_ticks(turn_hours, TICKS_PER_HOUR),
            choice_ticks=max(1, round(choice_hours * TICKS_PER_HOUR)),
            early=early_of(options.get("early", True), turn_hours),
            seed=seed,
        )

    def settings_of(self, world: State) -> dict[str, Any]:
        return {
            "map": world.board.name,
            "max_nations": world.board.seats,
            "turn_hours": world.turn_ticks / TICKS_PER_HOUR,
            "choice_hours": world.choice_ticks / TICKS_PER_HOUR,
            "early": world.early,
            "length_days": world.length_days,
            "seed": world.seed,
        }

    def ruleset_of(self, world: State) -> str:
        return world.ruleset

    def dump(self, world: State) -> str:
        return door.dump(world, by_alias=True)

    def load(self, text: str) -> State:
        return State.model_validate_json(text)

    def hash(self, world: State) -> str:
        return door.digest(self.dump(world))

    # --- the one way in ------------------------------------------------------------------------

    def parse_command(self, data: dict[str, Any]) -> Any:
        return COMMANDS.validate_python(data)

    def parse_event(self, data: dict[str, Any]) -> Event:
        return ev.event_from_dict(data)

    def apply(self, world: State, entry: en.Entry) -> list[Event]:
        """One log entry; a refusal raises and changes nothing (the state is changed only
        after every check, or on a copy: the adjudicator's stages change it in place, so a
        command that resolves a turn runs on a copy first)."""
        return door.apply_entry(
            world,
            entry,
            title=self.title,
            turns=turns,
            command=lambda nation, data: self._command(world, nation, self.parse_command(data)),
            founding="players of Supply Lines found no nation: a name and a colour",
        )

    def _command(self, world: State, nation: str, command: Any) -> list[Event]:
        # checks first (they raise and change nothing), then the change
        if isinstance(command, GiveOrder):
            return list(turns.add_order(world, nation, command.text))
        if isinstance(command, ClearOrders):
            return list(turns.clear_orders(world, nation, command.number))
        if isinstance(command, SubmitOrders):
            return list(turns.submit(world, nation))
        if isinstance(command, ChooseSupply):
            return list(turns.answer_supply(world, nation, command.units))
        if isinstance(command, SetDeadline):
            check_moderator(nation)
            return list(turns.set_deadline(world, now=command.now, extend=command.extend_ticks))
        raise CommandError("unknown command")

    def nation_id_for(self, world: State, name: str) -> str:
        return door.nation_id(name, world.players, "player")

    def full(self, world: State) -> bool:
        return len(world.players) >= world.board.seats

    def players(self, world: State) -> list[tuple[str, str]]:
        return door.people(world.players.values())

    # --- the one way out -----------------------------------------------------------------------

    def view_for(self, world: State, nation: str) -> View:
        return view_for(world, nation)

    def full_view(self, world: State) -> View:
        return full_view(world)

    def lobby_view(self, world: State) -> None:
        """Nothing to choose before joining: seats are taken in order."""
        return None

    def summary(self, world: State) -> GameSummary:
        rules = world.rules
        held: dict[str, int] = {}
        for label, owner in world.owners.items():
            if owner is not None and rules.structures[world.kind(label)].victory:
                held[owner] = held.get(owner, 0) + 1
        return GameSummary(
            kind=self.name,
            rules_title=rules.title,
            board=world.board.title,
            length_days=world.length_days,
            tick=world.tick,
            started=world.started,
            ended=world.ended,
            seats=world.board.seats,
            nations=MappingProxyType(
                {
                    p.id: NationSummary(p.id, p.name, p.colour, p.user, p.out, held.get(p.id, 0))
                    for p in sorted(world.players.values(), key=lambda p: p.seat)
                }
            ),
            ticks_per_hour=TICKS_PER_HOUR,
            ticks_per_day=TICKS_PER_DAY,
            minutes_per_tick=60 // TICKS_PER_HOUR,
            turn=self._turn(world),
        )

    @staticmethod
    def _turn(world: State) -> TurnSummary | None:
        if not world.started or world.ended:
            return None
        if world.phase != "supply":
            return door.orders_turn(
                world, world.phase, world.active(), lambda p: p in world.submitted
            )
        # a player conceding this turn is asked nothing, but counts here as the board makes
        # them one to ask: the concession is secret until the turn's stage 8
        done = sum(1 for p in world.asked if p in world.answers)
        waiting = len(set(world.asked) | turns.would_ask(world))
        return TurnSummary(
            world.turn + 1,
            world.phase,
            world.deadline,
            done,
            waiting,
            turn_ticks=world.turn_ticks or None,
        )

    # --- time ----------------------------------------------------------------------------------

    def ticks_per_hour(self, world: State) -> int:
        return TICKS_PER_HOUR

    def snapshot_due(self, world: State, ticks_since: int) -> bool:
        return ticks_since >= TICKS_PER_DAY


KIND = SupplyLines()
