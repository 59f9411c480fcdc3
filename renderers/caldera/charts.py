"""The end-of-campaign charts of a Caldera game: each captain's fleet, credits, trust earned,
missions completed and enemy ships destroyed after every turn, and the zone the campaign had
reached, replayed from its first state and its log (as the timelapse is), as the kit's
`Charts` (which the bot keeps and draws). A captain's credits were theirs alone while the
campaign ran; it is over when they are shown."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.caldera.replay import turns_over_time
from engine.caldera.state import State
from renderers.chart import Charts, Panel, Series, draw

CAMPAIGN = ("The campaign", "#d8d8d8")  # the campaign's own line (the zone), in the legend
MEASURES = (  # a panel's title, and the captain's number it charts
    ("Ships in the fleet", "ships"),
    ("Credits", "credits"),
    ("Trust earned", "trust_earned"),
    ("Missions completed", "missions_done"),
    ("Enemy ships destroyed", "destroyed"),
)


@dataclass(frozen=True)
class Numbers:
    """A captain's numbers at one moment."""

    ships: int
    credits: int
    trust_earned: int
    missions_done: int
    destroyed: int


@dataclass(frozen=True)
class Sample:
    """The campaign after turn `turn` (the first turn: the setup window)."""

    turn: int
    zone: int
    captains: dict[str, Numbers]


def numbers_of(state: State) -> Sample:
    """The campaign's numbers as they stand."""
    return Sample(
        state.turn,
        state.zone,
        {
            c.id: Numbers(
                len(state.ships_of(c.id)), c.credits, c.trust_earned, c.missions_done, c.destroyed
            )
            for c in state.captains.values()
        },
    )


def samples_by_turn(first: State, entries: Iterable[dict[str, Any]]) -> list[Sample]:
    """Replay the campaign on `first` (changed in place): its numbers after each turn
    resolved, the last as they stood at the end (none: no turn resolved)."""
    samples: list[Sample] = []
    for report, state in turns_over_time(first, entries):
        if report is None and not samples:
            break  # (the end, and no turn was played)
        now = numbers_of(state)
        if report is None and samples[-1].turn == now.turn:
            samples[-1] = now  # the end: as it stood then
        else:
            samples.append(now)
    return samples


def measures(first: State, entries: Iterable[dict[str, Any]]) -> Charts | None:
    """The charts' numbers, one point a turn (None: no turn was played): a panel per
    measure with a line per captain in their colour, and the zone reached. Replaying takes a
    while: run it off the event loop."""
    samples = samples_by_turn(first, entries)
    if not samples:
        return None
    captains = sorted(first.captains.values(), key=lambda c: c.seat)  # (replayed: the end's)
    panels = [
        Panel(
            title,
            [
                Series(
                    c.name,
                    c.colour,
                    [float(_number(s.captains.get(c.id), field)) for s in samples],
                )
                for c in captains
            ],
        )
        for title, field in MEASURES
    ]
    panels.append(Panel("Zone reached", [Series(*CAMPAIGN, [float(s.zone) for s in samples])]))
    return Charts(panels, [f"turn {s.turn}" for s in samples])


def _number(numbers: Numbers | None, field: str) -> int:
    return 0 if numbers is None else int(getattr(numbers, field))


def charts(first: State, entries: Iterable[dict[str, Any]], *, title: str = "") -> bytes | None:
    """The charts as a PNG (None: no turn was played)."""
    found = measures(first, entries)
    return None if found is None else draw(found, title)
