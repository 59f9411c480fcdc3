"""The end-of-game charts of a Strategic Initiative game: each nation's cities, power and
technology over the game, replayed from its first state and its log
(`engine.strategic.replay.measures_over_time`), as the kit's `Charts` (which the bot keeps and
draws). Power and
technology are secrets while the game runs; they are shown only once it is over."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.strategic.replay import measures_over_time
from engine.strategic.world import World
from renderers.chart import Charts, Panel, Series, draw

MEASURES = ("Cities", "Power", "Technology")


def measures(first: World, entries: Iterable[dict[str, Any]]) -> Charts | None:
    """The charts' numbers, one point every 6 game hours and at the end (None: the game never
    started).
    Replaying takes a while: run it off the event loop."""
    samples = list(measures_over_time(first, entries))
    if not samples:
        return None
    per_day = first.rules.ticks_per_day
    xs = [f"day {tick // per_day + 1}" if tick % per_day == 0 else "" for tick, _ in samples]
    nations = list(first.nations.values())
    panels = [
        Panel(
            measure,
            [
                Series(
                    n.name,
                    n.colour,
                    [float(values.get(n.id, (0, 0, 0.0))[i]) for _, values in samples],
                )
                for n in nations
            ],
        )
        for i, measure in enumerate(MEASURES)
    ]
    return Charts(panels, xs)


def charts(first: World, entries: Iterable[dict[str, Any]], *, title: str = "") -> bytes | None:
    """The charts as a PNG (None: the game never started)."""
    found = measures(first, entries)
    return None if found is None else draw(found, title)


def demo(path: str, *, nations: int = 4, size: int = 64, days: int = 4, seed: int = 7) -> None:
    """The charts of a game between AI nations, played and logged as the host logs it (the
    picture in docs/PICTURES.md): `python -m renderers.strategic.charts FILE.png`."""
    from engine.errors import CommandError
    from engine.strategic.ai.brain import decide, failed, resting
    from engine.strategic.ai.simulate import new_world
    from engine.strategic.clock import advance
    from engine.strategic.kind import KIND
    from engine.strategic.orders import apply
    from engine.strategic.view import view_for

    world, seats = new_world(nations, size, size, days, seed, "standard", ["normal"])
    first = KIND.load(KIND.dump(world))
    entries: list[dict[str, Any]] = []
    while not world.ended:
        for seat in seats:
            nation = world.nations[seat.nation]
            if nation.out or resting(seat.memory, seat.style, world.tick, world.ticks_per_hour):
                continue
            for command in decide(view_for(world, seat.nation), seat.memory, seat.style).commands:
                try:
                    apply(world, seat.nation, command)
                except CommandError:
                    failed(seat.memory, command, world.tick, world.width)
                    continue
                entries.append(
                    {"kind": "command", "nation": seat.nation, "command": command.model_dump()}
                )
        advance(world, world.ticks_per_hour)
        entries.append({"kind": "advance", "ticks": world.ticks_per_hour})
    data = charts(first, entries, title="Demo (4 AI nations, 4 days)")
    assert data is not None
    with open(path, "wb") as f:
        f.write(data)


if __name__ == "__main__":  # pragma: no cover
    import sys

    demo(sys.argv[1])
