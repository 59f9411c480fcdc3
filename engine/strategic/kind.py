"""Strategic Initiative as a game kind (`engine.interface.kind.GameKind`): the host's one door into
this package."""

from __future__ import annotations

import json
import os
from types import MappingProxyType
from typing import Any

from engine.errors import GameError
from engine.interface.entries import Entry
from engine.interface.summary import GameSummary, NationSummary

from . import events as ev
from .commands import command_from_dict
from .founding import styled
from .islands import StartingIslands, free_islands
from .lobby import AI_PLAYER
from .lobby import nation_id_for as _nation_id_for
from .mapgen import default_size, generate
from .replay import apply_entry
from .rules import DEFAULT_RULESET
from .rules import load as load_rules
from .view import View, full_view, view_for
from .world import World

MIN_NATIONS, MAX_NATIONS = 2, 32  # seats a game may have (the bot's /game create says so too)


class StrategicAi:
    """The AI players (`engine.strategic.ai`) as the host's runner drives them."""

    @property
    def styles(self) -> tuple[str, ...]:
        from .ai.brain import STYLES

        return STYLES

    @property
    def levels(self) -> tuple[str, ...]:
        from .ai.brain import LEVELS

        return LEVELS

    def memory(self) -> Any:
        from .ai.brain import Memory

        return Memory()

    def resting(self, memory: Any, style: str, tick: int, ticks_per_hour: int) -> bool:
        from .ai.brain import resting

        return resting(memory, style, tick, ticks_per_hour)

    def decide(self, view: View, memory: Any, style: str) -> list[Any]:
        from .ai.brain import decide

        return list(decide(view, memory, style).commands)

    def failed(self, memory: Any, command: Any, view: View) -> None:
        from .ai.brain import failed

        failed(memory, command, view.tick, view.width)

    def save(self, memory: Any) -> dict[str, Any]:
        from .ai.memory import save

        return save(memory)

    def restore(self, data: dict[str, Any]) -> Any:
        from .ai.memory import restore

        return restore(data)


class StrategicInitiative:
    name = "strategic-initiative"
    title = "Strategic Initiative"
    ai = StrategicAi()

    # --- setup and the state's stored form -----------------------------------------------------

    def setup(self, options: dict[str, Any]) -> World:
        """A generated map: `ruleset`, `max_nations` (2-32), `width`/`height` (default by the
        number of nations), `seed` (random by default), `length_days`."""
        rules = load_rules(options.get("ruleset") or DEFAULT_RULESET)
        nations = int(options.get("max_nations", 8))
        if not MIN_NATIONS <= nations <= MAX_NATIONS:
            raise GameError(f"a game has {MIN_NATIONS} to {MAX_NATIONS} nations")
        width, height = options.get("width"), options.get("height")
        if width is None or height is None:
            width, height = default_size(nations)
        seed = options.get("seed")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        try:
            return generate(
                rules,
                nations=nations,
                width=width,
                height=height,
                seed=seed,
                length_days=options.get("length_days"),
            )
        except ValueError as exc:
            raise GameError(str(exc)) from exc

    def settings_of(self, world: World) -> dict[str, Any]:
        return {
            "max_nations": len(world.slots),
            "width": world.width,
            "height": world.height,
            "seed": world.seed,
            "length_days": world.length_days,
        }

    def ruleset_of(self, world: World) -> str:
        return world.rules.name

    def dump(self, world: World) -> str:
        return world.to_json()

    def load(self, text: str) -> World:
        return World.from_dict(json.loads(text))

    def hash(self, world: World) -> str:
        return world.hash()

    # --- the one way in ------------------------------------------------------------------------

    def parse_command(self, data: dict[str, Any]) -> Any:
        return command_from_dict(data)

    def parse_event(self, data: dict[str, Any]) -> ev.Event:
        return ev.event_from_dict(data)

    def apply(self, world: World, entry: Entry) -> list[ev.Event]:
        return apply_entry(world, entry)

    def nation_id_for(self, world: World, name: str) -> str:
        return _nation_id_for(world, name)

    def full(self, world: World) -> bool:
        return all(owner is not None for owner in world.slot_owner)

    def players(self, world: World) -> list[tuple[str, str]]:
        return [
            (n.id, n.player) for n in world.nations.values() if n.player and n.player != AI_PLAYER
        ]

    # --- the one way out -----------------------------------------------------------------------

    def view_for(self, world: World, nation: str) -> View:
        return view_for(world, nation)

    def full_view(self, world: World) -> View:
        return full_view(world)

    def summary(self, world: World) -> GameSummary:
        rules = world.rules
        cities: dict[str, int] = {}
        for city in world.cities.values():
            if city.owner is not None:
                cities[city.owner] = cities.get(city.owner, 0) + 1
        return GameSummary(
            kind=self.name,
            rules_title=rules.title,
            board=f"{world.width}x{world.height} map",
            length_days=world.length_days,
            tick=world.tick,
            started=world.started,
            ended=world.ended,
            seats=len(world.slots),
            nations=MappingProxyType(
                {
                    n.id: NationSummary(
                        n.id,
                        n.name,
                        n.colour,
                        n.player,
                        n.out,
                        cities.get(n.id, 0),
                        styled(n.name, n.leader, n.title) if n.leader else "",
                    )
                    for n in world.nations.values()
                }
            ),
            ticks_per_hour=rules.ticks_per_hour,
            ticks_per_day=rules.ticks_per_day,
            minutes_per_tick=rules.time.minutes_per_tick,
        )

    def lobby_view(self, world: World) -> StartingIslands:
        """The free starting islands (none once the game has started)."""
        return free_islands(world)

    # --- time ----------------------------------------------------------------------------------

    def ticks_per_hour(self, world: World) -> int:
        return world.rules.ticks_per_hour

    def snapshot_due(self, world: World, ticks_since: int) -> bool:
        return ticks_since >= world.rules.ticks_per_day


KIND = StrategicInitiative()
