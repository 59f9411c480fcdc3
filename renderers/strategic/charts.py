"""The end-of-game charts of a Strategic Initiative game: each nation's cities, power and
technology over the game, replayed from its first state and its log
(`engine.strategic.replay.measures_over_time`), drawn with the kit's charts. Power and
technology are secrets while the game runs; they are shown only once it is over."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.strategic.replay import measures_over_time
from engine.strategic.world import World
from renderers.chart import Panel, Series, draw_charts

MEASURES = ("Cities", "Power", "Technology")


def charts(first: World, entries: Iterable[dict[str, Any]], *, title: str = "") -> bytes | None:
    """The charts as a PNG (None: the game never started). Replaying takes a while: run it
    off the event loop."""
    samples = list(measures_over_time(first, entries))
    if not samples:
        return None
    per_day = first.rules.ticks_per_day
    xs = [first.clock(tick) for tick, _ in samples]  # "day 3 06:00"
    nations = list(first.nations.values())
    panels = [
        Panel(
            measure,
            [
                Series(n.name, n.colour, [float(values.get(n.id, (0, 0, 0.0))[i]) for _, values in samples])
                for n in nations
            ],
        )
        for i, measure in enumerate(MEASURES)
    ]
    return draw_charts(f"{title}: the game in numbers" if title else "The game in numbers", panels, xs)
