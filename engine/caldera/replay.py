"""A campaign replayed turn by turn from its first state and its log (the service's
`history`), for what looks back on it at its end (the timelapse, the charts): the state as it
stood after each turn resolved, and at the end.

Time's entries (`Advance`) are stepped up to each deadline, so two turns that resolved in one
entry (the host catching up on a long wait) are still two moments: time moves tick by tick in
the rules, so stepping changes nothing of what happens."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine.caldera import events as ev
from engine.caldera.kind import KIND
from engine.caldera.state import State
from engine.interface import entries as en


def turns_over_time(
    first: State, entries: Iterable[dict[str, Any] | en.Entry]
) -> Iterator[tuple[ev.TurnResolved | None, State]]:
    """Replay the log on `first` (changed in place): (that turn's report, the state) after
    each turn resolves, then (None, the state) at the end of the log. The state is the one
    being replayed: read it before asking for the next."""
    for data in entries:
        entry = en.entry_from_json(data)
        if isinstance(entry, en.Advance):
            left = entry.ticks
            while left > 0:
                step = left
                if first.started and not first.ended and first.deadline is not None:
                    step = min(left, max(1, first.deadline - first.tick))
                left -= step
                yield from _reports(first, KIND.apply(first, en.Advance(ticks=step)))
        else:
            yield from _reports(first, KIND.apply(first, entry))
    yield None, first


def _reports(state: State, events: Iterable[Any]) -> Iterator[tuple[ev.TurnResolved | None, State]]:
    for event in events:
        if isinstance(event, ev.TurnResolved):
            yield event, state
