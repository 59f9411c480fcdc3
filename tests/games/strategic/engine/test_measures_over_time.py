"""The end-of-game charts' numbers (issue 29, item 16): each nation's cities, power and
technology as the game is replayed from its first state and its log."""

from __future__ import annotations

from engine.interface import entries as en
from engine.strategic.kind import KIND
from engine.strategic.replay import measures_over_time
from tests.games.strategic.worlds import strip_world


def test_every_six_hours_each_nations_cities_power_and_technology() -> None:
    world = strip_world()
    first = KIND.load(KIND.dump(world))
    per_hour = world.ticks_per_hour
    log = [
        en.CommandEntry(
            nation="red", command={"kind": "relation", "other": "blue", "level": "war"}
        ),
        en.Advance(ticks=6 * per_hour),
        en.Advance(ticks=7 * per_hour),
    ]
    samples = list(measures_over_time(first, [e.to_json() for e in log]))
    ticks = [t for t, _ in samples]
    assert ticks == [6 * per_hour, 12 * per_hour, 13 * per_hour]  # and the end
    (_, early), _, (_, late) = samples
    assert early["red"][0] == early["blue"][0] == 2
    assert late["red"][2] > early["red"][2] > 0  # technology grows
    assert late["red"][1] >= early["red"][1] > 0  # power: what it has built
