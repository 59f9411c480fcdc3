"""AI turns on an in-memory world: the pure core's `orders.apply` validates every command as
the service would (for simulations and tests, where no store is wanted)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import CommandError
from engine.strategic.ai.brain import Memory, decide, failed, resting
from engine.strategic.orders import apply
from engine.strategic.view import view_for
from engine.strategic.world import World


@dataclass
class Seat:
    nation: str
    style: str = "normal"
    memory: Memory = field(default_factory=Memory)
    accepted: int = 0
    rejected: int = 0


def play_turn(world: World, seat: Seat) -> list:
    """One AI decision for one nation, applied; returns the events."""
    nation = world.nations.get(seat.nation)
    if nation is None or nation.out or world.ended or not world.started:
        return []
    if resting(seat.memory, seat.style, world.tick, world.ticks_per_hour):
        return []
    decision = decide(view_for(world, seat.nation), seat.memory, seat.style)
    events: list = []
    for command in decision.commands:
        try:
            events.extend(apply(world, seat.nation, command))
            seat.accepted += 1
        except CommandError:
            seat.rejected += 1
            failed(seat.memory, command, world.tick, world.width)
    return events
