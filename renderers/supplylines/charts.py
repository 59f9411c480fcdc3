"""The end-of-game charts of a Supply Lines game: each player's structures and units after
every turn, replayed from its first state and its log (as the timelapse is), as the kit's
`Charts` (which the bot keeps and draws). The game has no fog: all of it was on the board every turn."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.supplylines.state import State
from renderers.chart import Charts, Panel, Series, draw


def counts_by_turn(
    first: State, entries: Iterable[dict[str, Any]]
) -> list[tuple[int, dict[str, tuple[int, int]]]]:
    """Replay the game on `first` (changed in place): (turn, {player: (structures, units)}) at
    the start (turn 0, as it stood before the first turn resolved), after each turn, and at
    the end."""
    from engine.interface.entries import entry_from_json
    from engine.supplylines.kind import KIND

    samples: list[tuple[int, dict[str, tuple[int, int]]]] = []

    def sample() -> None:
        counts = {p: (len(first.structures_of(p)), len(first.units_of(p))) for p in first.players}
        if samples and samples[-1][0] == first.turn:
            samples[-1] = (first.turn, counts)
        else:
            samples.append((first.turn, counts))

    for data in entries:
        was = first.turn
        KIND.apply(first, entry_from_json(data))
        if first.turn != was or first.turn == 0:  # (turn 0: the start, as it stands last)
            sample()
    sample()
    return samples


def measures(first: State, entries: Iterable[dict[str, Any]]) -> Charts | None:
    """The charts' numbers, one point a turn (None: no turn was played). Replaying takes a
    while: run it off the event loop."""
    samples = counts_by_turn(first, entries)
    if len(samples) < 2:
        return None
    xs = [f"turn {turn}" if turn else "start" for turn, _ in samples]
    players = list(first.players.values())
    panels = [
        Panel(
            measure,
            [
                Series(
                    p.name, p.colour, [float(counts.get(p.id, (0, 0))[i]) for _, counts in samples]
                )
                for p in players
            ],
        )
        for i, measure in enumerate(("Structures", "Units"))
    ]
    return Charts(panels, xs)


def charts(first: State, entries: Iterable[dict[str, Any]], *, title: str = "") -> bytes | None:
    """The charts as a PNG (None: no turn was played)."""
    found = measures(first, entries)
    return None if found is None else draw(found, title)
