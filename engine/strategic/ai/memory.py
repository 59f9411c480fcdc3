"""What an AI nation carries from one decision to the next, and what it learns from a command
the engine refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.strategic import commands as cmd


@dataclass
class Memory:
    """What one AI nation carries from one decision to the next."""

    failed: dict[tuple[int, int], int] = field(default_factory=dict)  # (unit, goal) -> tick
    target: str | None = None  # the nation it makes (or prepares) war on
    staging_since: int = 0  # tick it chose that target
    sent: dict[int, int] = field(default_factory=dict)  # unit -> goal square it was sent to
    islands: tuple[int, list[int]] | None = None  # (tick, island label per square)
    # the known land those labels were worked out of (packed bits)
    islands_land: bytes = field(default=b"", compare=False, repr=False)
    # each island's shore mask (`KnownMap.shore_of`), kept while the islands are the same:
    # (the land and the joins they were worked out of, {islands: mask})
    shores: tuple[Any, dict[tuple[int, ...], Any]] | None = field(
        default=None, compare=False, repr=False
    )
    voyages: dict[int, int] = field(default_factory=dict)  # transport -> overseas city square
    loading: dict[int, int] = field(default_factory=dict)  # transport -> tick it began loading
    decided: int | None = None  # the game hour of its last decision


def save(memory: Memory) -> dict[str, Any]:
    """The memory as JSON data; the islands' labels (a cache worked out from the view) are
    left out and worked out again at the next decision."""
    return {
        "failed": [[unit, goal, tick] for (unit, goal), tick in sorted(memory.failed.items())],
        "target": memory.target,
        "staging_since": memory.staging_since,
        "sent": sorted(memory.sent.items()),
        "voyages": sorted(memory.voyages.items()),
        "loading": sorted(memory.loading.items()),
        "decided": memory.decided,
    }


def restore(data: dict[str, Any]) -> Memory:
    return Memory(
        failed={(unit, goal): tick for unit, goal, tick in data["failed"]},
        target=data["target"],
        staging_since=data["staging_since"],
        sent=dict(map(tuple, data["sent"])),
        voyages=dict(map(tuple, data["voyages"])),
        loading=dict(map(tuple, data["loading"])),
        decided=data["decided"],
    )


def failed(memory: Memory, command: cmd.Command, tick: int, width: int) -> None:
    """Remember a rejected move so it is not tried again for a while (`Profile.retry_days`)."""
    if isinstance(command, cmd.Move):
        x, y = command.to
        for uid in command.units:
            memory.sent.pop(uid, None)
            memory.failed[(uid, y * width + x)] = tick
