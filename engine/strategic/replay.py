"""One function applies a log entry (`engine.interface.entries`) to a world, live or in replay:
the service uses it for both (through the kind), so recovery (latest snapshot + log) is
exact."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine.interface import entries as en
from engine.strategic import events as ev
from engine.strategic import lobby
from engine.strategic.clock import advance
from engine.strategic.commands import command_from_dict
from engine.strategic.orders import apply
from engine.strategic.view import View, full_view, view_for
from engine.strategic.world import World


def apply_entry(world: World, entry: en.Entry | dict[str, Any]) -> list[ev.Event]:
    """Apply one entry, typed or in its stored JSON form."""
    e = en.entry_from_json(entry)
    if isinstance(e, en.Resign | en.Substitute) and world.ended:
        # only an older log holds one (refused since issue 27: the service and `lobby` say
        # "the game is over"); replayed, it changes nothing, so the result is the final one
        return []
    match e:
        case en.CommandEntry():
            return apply(world, e.nation, command_from_dict(e.command))
        case en.Advance():
            return advance(world, e.ticks)
        case en.Join():
            return lobby.join(world, e.nation, e.name, e.colour, e.player, e.founding)
        case en.Leave():
            return lobby.leave(world, e.nation)
        case en.Resign():
            return lobby.resign(world, e.nation)
        case en.Start():
            return lobby.start(world)
        case en.Substitute():
            return lobby.substitute(world, e.nation, e.player)
        case en.End():
            return lobby.end_now(world)
    raise ValueError(f"unknown log entry {e!r}")


def views_over_time(
    world: World,
    entries: Iterable[en.Entry | dict[str, Any]],
    *,
    nation: str | None = None,
    every_ticks: int | None = None,
) -> Iterator[tuple[View, list[ev.Event]]]:
    """Replay the entries on `world` (changed in place) and give, every `every_ticks` (default:
    6 game hours) and at the end, `nation`'s view (everything when None) with the events it was
    told since the last one: the frames of a timelapse."""
    every = every_ticks or 6 * world.ticks_per_hour
    told: list[ev.Event] = []

    def frame() -> tuple[View, list[ev.Event]] | None:
        if not world.started:
            return None
        shown: tuple[View, list[ev.Event]]
        if nation is None:
            shown = (full_view(world), [])
        elif nation in world.nations:
            shown = (view_for(world, nation), [e for e in told if nation in e.to])
        else:
            return None
        told.clear()
        return shown

    last = None
    for stored in entries:
        entry = en.entry_from_json(stored)
        if isinstance(entry, en.Advance):
            for _ in range(entry.ticks):
                told.extend(advance(world, 1))
                if world.tick % every == 0 and (shown := frame()) is not None:
                    yield shown
                    last = world.tick
        else:
            told.extend(apply_entry(world, entry))
    if last != world.tick and (shown := frame()) is not None:
        yield shown


def measures_over_time(
    world: World, entries: Iterable[en.Entry | dict[str, Any]], *, every_ticks: int | None = None
) -> Iterator[tuple[int, dict[str, tuple[int, int, float]]]]:
    """Replay the entries on `world` (changed in place) and give, from the start every
    `every_ticks` (default: 6 game hours) and at the end, the tick and each nation's cities,
    power and technology: the end-of-game charts (shown once the game is over)."""
    from engine.strategic.systems.economy import power

    every = every_ticks or 6 * world.ticks_per_hour

    def sample() -> tuple[int, dict[str, tuple[int, int, float]]]:
        cities: dict[str, int] = {}
        for city in world.cities.values():
            if city.owner is not None:
                cities[city.owner] = cities.get(city.owner, 0) + 1
        return world.tick, {
            n: (cities.get(n, 0), power(world, n), world.nations[n].tech) for n in world.nations
        }

    last = None
    for stored in entries:
        entry = en.entry_from_json(stored)
        if isinstance(entry, en.Advance):
            for _ in range(entry.ticks):
                advance(world, 1)
                if world.started and world.tick % every == 0:
                    yield sample()
                    last = world.tick
        else:
            was = world.started
            apply_entry(world, entry)
            if world.started and not was:
                yield sample()
                last = world.tick
    if world.started and last != world.tick:
        yield sample()
