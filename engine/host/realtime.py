"""A game's real-time clock as a typed, frozen value: which tick is due at a real time, and
when a tick is due.

A game's row keeps its clock as a plain dict (`games.clock`, `GameRow.clock`):
`{"speed": real seconds per game hour, "paused": bool, "anchor_real": a timestamp or None
(never started), "anchor_tick": the world's tick at that timestamp}`. Time runs only while the
game is running and not paused; the tick due at `now` is
`anchor_tick + floor((now - anchor_real) * ticks_per_hour / speed)`. Changing the speed,
pausing or resuming a running game re-anchors the clock at the world's tick (`changed`, then
`anchored`), after catching up, so a change never moves the game backwards or forwards.

`RealClock.of(row.clock, ticks_per_hour=..., running=row.status == "running")` (or
`RealClock.of_row(row, ticks_per_hour)`) reads that dict (missing keys take their defaults, so
old games load); `to_dict()` gives the same stored form back. Real times are Unix timestamps
(float seconds), like every `now` of the service and the ticker and Discord's `<t:...>`
markers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.host.rows import GameRow

DEFAULT_SPEED = 3600.0  # real time: a game hour is an hour


@dataclass(frozen=True, slots=True)
class RealClock:
    """Game time against real time for one game (see the module's docstring)."""

    ticks_per_hour: int
    speed: float = DEFAULT_SPEED  # real seconds per game hour
    paused: bool = False
    anchor_real: float | None = None  # None: the game never started
    anchor_tick: int = 0
    running: bool = True  # the game's status is "running" (lobby and ended games stand still)

    def __post_init__(self) -> None:
        if self.ticks_per_hour < 1:
            raise ValueError("ticks_per_hour must be at least 1")
        if not self.speed > 0:
            raise ValueError("speed is real seconds per game hour and must be positive")

    @classmethod
    def of(
        cls, clock: Mapping[str, Any], *, ticks_per_hour: int, running: bool = True
    ) -> RealClock:
        """The clock stored in a game's row (`GameRow.clock`)."""
        anchor = clock.get("anchor_real")
        return cls(
            ticks_per_hour=ticks_per_hour,
            speed=float(clock.get("speed", DEFAULT_SPEED)),
            paused=bool(clock.get("paused", False)),
            anchor_real=None if anchor is None else float(anchor),
            anchor_tick=int(clock.get("anchor_tick", 0)),
            running=running,
        )

    @classmethod
    def of_row(cls, row: GameRow, ticks_per_hour: int) -> RealClock:
        """The clock of a game's row, running while its status is "running"."""
        return cls.of(row.clock, ticks_per_hour=ticks_per_hour, running=row.status == "running")

    def to_dict(self) -> dict[str, Any]:
        """The stored form (`games.clock`)."""
        return {
            "speed": self.speed,
            "paused": self.paused,
            "anchor_real": self.anchor_real,
            "anchor_tick": self.anchor_tick,
        }

    @property
    def ticking(self) -> bool:
        """Whether game time moves with real time now (running, started, not paused)."""
        return self.running and not self.paused and self.anchor_real is not None

    @property
    def seconds_per_tick(self) -> float:
        return self.speed / self.ticks_per_hour

    def tick_at(self, now: float) -> int | None:
        """The tick the game should be at, at real time `now` (None: time stands still)."""
        if not self.ticking:
            return None
        assert self.anchor_real is not None
        return self.anchor_tick + math.floor(
            (now - self.anchor_real) * self.ticks_per_hour / self.speed
        )

    def due_ticks(self, now: float, *, tick: int, end_tick: int | None = None) -> int:
        """How many ticks a world at `tick` is behind at `now`, never past `end_tick`
        (0 when time stands still or the world is ahead)."""
        target = self.tick_at(now)
        if target is None:
            return 0
        if end_tick is not None:
            target = min(target, end_tick)
        return max(0, target - tick)

    def real_time_of(self, tick: int) -> float | None:
        """When `tick` is (or was) due, a Unix timestamp (None: time stands still)."""
        if not self.ticking:
            return None
        assert self.anchor_real is not None
        return self.anchor_real + (tick - self.anchor_tick) * self.speed / self.ticks_per_hour

    def next_tick_at(self, tick: int, *, end_tick: int | None = None) -> float:
        """When the tick after `tick` is due (`inf`: never, time stands still or the game
        reached `end_tick`)."""
        if end_tick is not None and tick >= end_tick:
            return math.inf
        # `real_time_of(tick + 1)` written out: the ticker, the AI runner and the notifier ask
        # it of every game they pass over
        anchor = self.anchor_real
        if anchor is None or self.paused or not self.running:
            return math.inf
        return anchor + (tick + 1 - self.anchor_tick) * self.speed / self.ticks_per_hour

    def changed(self, *, speed: float | None = None, paused: bool | None = None) -> RealClock:
        """The clock with a new speed or paused flag, still at its anchor (a game not running:
        its clock is anchored when it starts). A running game is re-anchored too: `anchored`."""
        if speed is not None and not speed > 0:
            raise ValueError("speed is real seconds per game hour and must be positive")
        return replace(
            self,
            speed=self.speed if speed is None else float(speed),
            paused=self.paused if paused is None else paused,
        )

    def anchored(self, now: float, tick: int) -> RealClock:
        """The clock anchored at (`now`, `tick`): from there on, game time runs from `tick` at
        the clock's speed. Catch a running game up to `now` first, so a change of speed or a
        pause never moves the game by itself."""
        return replace(self, anchor_real=now, anchor_tick=tick)
