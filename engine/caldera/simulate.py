"""Whole Caldera campaigns without the host: every seat an AI captain, turn after turn, through
the kind's own door (`KIND.apply`, every command checked as a player's), so the same seed
gives the same game (`Result.hash`).

    result = play(captains=3, seed=7, max_turns=40)
    result.result, result.turns, result.hash
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.caldera import ai
from engine.caldera.kind import KIND
from engine.caldera.state import State
from engine.caldera.view import view_for
from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.entries import AI_PLAYER

COLOURS = ("#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085")


@dataclass
class Result:
    seed: int
    captains: int
    turns: int  # turns resolved
    result: str  # "won", "lost", "time", "turn cap"
    zone: int
    trust: int
    tiles: int
    missions: dict[str, int]  # captain -> missions completed
    ships: dict[str, int]  # captain -> ships at the end
    refused: dict[str, int]  # captain -> commands refused
    hash: str
    npcs: list[str] = field(default_factory=list)


def new_game(captains: int, seed: int, **options: Any) -> State:
    """A game set up and started with `captains` AI captains ("c1", "c2", ...)."""
    state = KIND.setup({"max_nations": captains, "seed": seed, "turn_hours": 0, **options})
    for seat in range(1, captains + 1):
        KIND.apply(
            state,
            en.Join(
                nation=f"c{seat}",
                name=f"Captain {seat}",
                colour=COLOURS[seat - 1],
                player=AI_PLAYER,
            ),
        )
    KIND.apply(state, en.Start())
    return state


def play(
    captains: int = 3,
    seed: int = 0,
    max_turns: int = 40,
    watch: Callable[[State], None] | None = None,
) -> Result:
    """One whole campaign of AI captains, to its end or `max_turns` turns; `watch` (a
    benchmark's) is shown the state after each turn resolves."""
    state = new_game(captains, seed)
    memories = {cid: ai.Memory() for cid in state.captains}
    refused = dict.fromkeys(state.captains, 0)
    while not state.ended and state.turn < max_turns:
        turn = state.turn
        for _look in range(2):  # the setup window takes two looks: stats, then the cards
            for cid in state.active():
                if state.turn != turn or state.ended:
                    break
                view = view_for(state, cid)
                for command in ai.decide(view, memories[cid]):
                    try:
                        KIND.apply(
                            state,
                            en.CommandEntry(nation=cid, command=command.model_dump(mode="json")),
                        )
                    except (CommandError, GameError):
                        refused[cid] += 1
                        ai.failed(memories[cid], command, view)
        if state.turn == turn and not state.ended:
            KIND.apply(
                state,
                en.CommandEntry(nation="@moderator", command={"kind": "deadline", "now": True}),
            )
        if watch is not None:
            watch(state)
    return Result(
        seed=seed,
        captains=captains,
        turns=state.turn,
        result=state.result or "turn cap",
        zone=state.zone,
        trust=state.trust,
        tiles=len(state.map.tiles),
        missions={c.id: c.missions_done for c in state.captains.values()},
        ships={c: len(state.ships_of(c)) for c in state.captains},
        refused=refused,
        hash=KIND.hash(state),
        npcs=sorted(state.npcs),
    )
