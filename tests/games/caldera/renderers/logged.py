"""A campaign of AI captains played through the kind's door with its log kept as the service
keeps it (the first state, then each entry's JSON), for what replays a campaign at its end."""

from __future__ import annotations

from typing import Any

from engine.caldera import ai
from engine.caldera.kind import KIND
from engine.caldera.state import State
from engine.caldera.view import view_for
from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.entries import AI_PLAYER

COLOURS = ("#c0392b", "#2980b9", "#27ae60")


def logged_campaign(
    seed: int, turns: int, captains: int = 3, **options: Any
) -> tuple[State, list[dict[str, Any]], State]:
    """(the first state, the log, the state at the end) of `turns` turns of AI captains, the
    window's deadline passed by time (`Advance`) when they have not all submitted."""
    first = KIND.setup({"max_nations": captains, "seed": seed, "turn_hours": 2, **options})
    state = first.model_copy(deep=True)
    log: list[dict[str, Any]] = []

    def apply(entry: en.Entry) -> bool:
        try:
            KIND.apply(state, entry)
        except (CommandError, GameError):
            return False
        log.append(entry.to_json())
        return True

    for seat in range(1, captains + 1):
        name = f"Captain {seat}"
        apply(en.Join(nation=f"c{seat}", name=name, colour=COLOURS[seat - 1], player=AI_PLAYER))
    apply(en.Start())
    memories = {cid: ai.Memory() for cid in state.captains}
    while not state.ended and state.turn < turns:
        turn = state.turn
        for _look in range(2):  # the setup window takes two looks: stats, then the cards
            for cid in state.active():
                if state.turn != turn or state.ended:
                    break
                view = view_for(state, cid)
                for command in ai.decide(view, memories[cid]):
                    entry = en.CommandEntry(nation=cid, command=command.model_dump(mode="json"))
                    if not apply(entry):
                        ai.failed(memories[cid], command, view)
        waiting = state.deadline
        if state.turn == turn and waiting is not None and not state.ended:
            apply(en.Advance(ticks=waiting - state.tick))
    return first, log, state
