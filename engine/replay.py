"""One function applies a log entry to a world, live or in replay: the service uses it for
both, so recovery (latest snapshot + log) is exact.

Entry shapes (JSON):
  {"kind": "command", "nation": "red", "command": {...a command...}}
  {"kind": "advance", "ticks": 4}
  {"kind": "lobby", "action": "join", "nation": "red", "name": "Red", "colour": "#c0392b", "player": "123"}
  {"kind": "lobby", "action": "leave" | "resign", "nation": "red"}
  {"kind": "lobby", "action": "start"}
  {"kind": "lobby", "action": "substitute", "nation": "red", "player": "456" | null}
  {"kind": "lobby", "action": "end"}
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from . import lobby
from .clock import advance
from .commands import command_from_dict
from .orders import apply
from .world import World


def apply_entry(world: World, entry: dict[str, Any]) -> list[ev.Event]:
    kind = entry["kind"]
    if kind == "command":
        return apply(world, entry["nation"], command_from_dict(entry["command"]))
    if kind == "advance":
        return advance(world, int(entry["ticks"]))
    if kind == "lobby":
        action = entry["action"]
        if action == "join":
            return lobby.join(
                world, entry["nation"], entry["name"], entry["colour"], entry.get("player")
            )
        if action == "leave":
            return lobby.leave(world, entry["nation"])
        if action == "resign":
            return lobby.resign(world, entry["nation"])
        if action == "start":
            return lobby.start(world)
        if action == "substitute":
            return lobby.substitute(world, entry["nation"], entry.get("player"))
        if action == "end":
            return lobby.end_now(world)
        raise ValueError(f"unknown lobby action {action!r}")
    raise ValueError(f"unknown log entry kind {kind!r}")
