"""Caldera as a game kind (`engine.interface.kind.GameKind`): the host's one door into this
package. Its commands are a captain's spending and choices in a turn's window, their ships'
move orders, submitting, and the moderator's deadline (`commands.py`)."""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import Any

from engine.caldera import events as ev
from engine.caldera import rules, turns, window
from engine.caldera.ai import AI
from engine.caldera.commands import (
    COMMANDS,
    Build,
    BuyBonus,
    Choose,
    Fund,
    Move,
    Recruit,
    Refit,
    Repair,
    Scrap,
    SetDeadline,
    SetRetreat,
    SetStats,
    Submit,
    Upgrade,
)
from engine.caldera.state import TICKS_PER_DAY, TICKS_PER_HOUR, State
from engine.caldera.view import View, full_view, view_for
from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.events import Event
from engine.interface.summary import GameSummary, NationSummary, TurnSummary
from engine.interface.turnbased import door
from engine.interface.turnbased.deadlines import (
    check_moderator,
    check_turn_hours,
    early_of,
    turn_ticks,
)

SEATS = (1, 6)  # the fewest and the most captains


class Caldera:
    name = "caldera"
    title = "Caldera"
    ai = AI

    # --- setup and the state's stored form -----------------------------------------------------

    def setup(self, options: dict[str, Any]) -> State:
        """A game in the lobby: `max_nations` captains (3 by default, 1 to 6), `turn_hours`
        (24; 0: a turn waits for every captain), `early` (True), `length_days` (60),
        `ruleset`, `deck`, `seed`."""
        seed = options.get("seed")
        seed = int(seed) if seed is not None else int.from_bytes(os.urandom(4), "big")
        try:
            seats = int(options.get("max_nations", 3))
            turn_hours = float(options.get("turn_hours", 24))
            length = int(options.get("length_days", 60))
        except (TypeError, ValueError):
            raise GameError("seats, turn hours and days are numbers") from None
        if not SEATS[0] <= seats <= SEATS[1]:
            raise GameError(f"a Caldera game has {SEATS[0]} to {SEATS[1]} captains")
        check_turn_hours(turn_hours)
        door.check_days(length)
        ruleset = str(options.get("ruleset") or rules.DEFAULT_RULES)
        deck = str(options.get("deck") or rules.DEFAULT_DECK)
        try:
            rules.load_deck(deck, rules.load(ruleset))  # a deck that fails is refused here
        except (rules.RulesError, rules.DeckError) as exc:
            raise GameError(str(exc)) from None
        return State(
            seed=seed,
            ruleset=ruleset,
            deck=deck,
            seats=seats,
            length_days=length,
            turn_ticks=turn_ticks(turn_hours, TICKS_PER_HOUR),
            early=early_of(options.get("early", True), turn_hours),
        )

    def settings_of(self, world: State) -> dict[str, Any]:
        return {
            "max_nations": world.seats,
            "turn_hours": world.turn_ticks / TICKS_PER_HOUR,
            "early": world.early,
            "length_days": world.length_days,
            "deck": world.deck,
            "seed": world.seed,
        }

    def ruleset_of(self, world: State) -> str:
        return world.ruleset

    def dump(self, world: State) -> str:
        return door.dump(world)

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
        """One log entry; a refusal raises and changes nothing (each command is checked whole
        before it changes anything; a command that resolves the turn runs on a copy first)."""
        return door.apply_entry(
            world,
            entry,
            title=self.title,
            turns=turns,
            command=lambda nation, data: self.command(world, nation, self.parse_command(data)),
            founding="captains of Caldera found nothing at joining: a name",
        )

    def command(self, world: State, nation: str, command: Any) -> list[Event]:
        """A captain's (or the moderator's) command: checked whole, then applied (a refusal
        changes nothing). One that may resolve the turn runs on a copy first, which then
        becomes the state."""
        if not isinstance(command, Submit | SetDeadline):
            return _command(world, nation, command)
        trial = world.model_copy(deep=True)
        out = _command(trial, nation, command)
        for name in type(world).model_fields:
            setattr(world, name, getattr(trial, name))
        return out

    def nation_id_for(self, world: State, name: str) -> str:
        return door.nation_id(name, world.captains, "captain")

    def full(self, world: State) -> bool:
        return len(world.captains) >= world.seats

    def players(self, world: State) -> list[tuple[str, str]]:
        return door.people(world.captains.values())

    # --- the one way out -----------------------------------------------------------------------

    def view_for(self, world: State, nation: str) -> View:
        return view_for(world, nation)

    def full_view(self, world: State) -> View:
        return full_view(world)

    def lobby_view(self, world: State) -> None:
        return None

    def summary(self, world: State) -> GameSummary:
        return GameSummary(
            kind=self.name,
            rules_title=world.ruleset.capitalize(),
            board=f"star map of {len(world.map.tiles)} tiles, zone {world.zone}",
            length_days=world.length_days,
            tick=world.tick,
            started=world.started,
            ended=world.ended,
            seats=world.seats,
            nations=MappingProxyType(
                {
                    c.id: NationSummary(c.id, c.name, c.colour, c.user, c.out, c.missions_done)
                    for c in sorted(world.captains.values(), key=lambda c: c.seat)
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
        return door.orders_turn(
            world, "orders", world.active(), lambda c: world.captains[c].submitted
        )

    # --- time ----------------------------------------------------------------------------------

    def ticks_per_hour(self, world: State) -> int:
        return TICKS_PER_HOUR

    def snapshot_due(self, world: State, ticks_since: int) -> bool:
        return ticks_since >= TICKS_PER_DAY


def _command(world: State, nation: str, command: Any) -> list[Event]:
    if isinstance(command, SetDeadline):
        check_moderator(nation)
        return list(turns.set_deadline(world, now=command.now, extend=command.extend_ticks))
    match command:
        case SetStats():
            return list(window.set_stats(world, nation, command.stats))
        case BuyBonus():
            return list(window.buy_bonus(world, nation, command.bonus, command.tech, command.stat))
        case Choose():
            return list(window.choose(world, nation, command.hand, command.card))
        case Fund():
            return list(window.fund(world, nation, command.amount))
        case Build():
            return list(window.build(world, nation, command.klass, list(command.parts)))
        case Upgrade():
            return list(window.upgrade(world, nation, command.klass, list(command.parts)))
        case Repair():
            return list(window.repair(world, nation, command.ship, command.points))
        case Refit():
            return list(window.refit(world, nation, command.ship, list(command.parts)))
        case Scrap():
            return list(window.scrap(world, nation, command.ship))
        case Recruit():
            return list(window.recruit(world, nation, dict(command.units)))
        case Move():
            return list(window.move(world, nation, list(command.ships), command.to))
        case SetRetreat():
            return list(window.set_retreat(world, nation, command.ship, command.on))
        case Submit():
            return list(turns.submit(world, nation))
    raise CommandError("unknown command")


KIND = Caldera()
