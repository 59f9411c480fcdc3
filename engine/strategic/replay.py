"""One function applies a log entry (`engine.host.entries`) to a world, live or in replay:
the service uses it for both (through the kind), so recovery (latest snapshot + log) is
exact."""

from __future__ import annotations

from typing import Any

from engine.host import entries as en
from engine.strategic import events as ev
from engine.strategic import lobby
from engine.strategic.clock import advance
from engine.strategic.commands import command_from_dict
from engine.strategic.orders import apply
from engine.strategic.world import World


def apply_entry(world: World, entry: en.Entry | dict[str, Any]) -> list[ev.Event]:
    """Apply one entry, typed or in its stored JSON form."""
    e = en.entry_from_json(entry)
    match e:
        case en.CommandEntry():
            return apply(world, e.nation, command_from_dict(e.command))
        case en.Advance():
            return advance(world, e.ticks)
        case en.Join():
            return lobby.join(world, e.nation, e.name, e.colour, e.player)
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
