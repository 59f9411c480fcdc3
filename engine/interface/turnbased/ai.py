"""The AI seats of a kind played in turns as the host's runner drives them
(`engine.interface.kind.Ai`), made of the kind's own parts: its memory (a dataclass, stored as
plain JSON), `decide` and `failed`. A seat of a style the kind has never rests: the runner
asks at most once a tick, and `decide` gives nothing once the seat is done with the phase (a
phase may end before its deadline, so resting by the hour would miss one)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any


class TurnAi:
    def __init__(
        self,
        *,
        styles: tuple[str, ...],
        levels: tuple[str, ...],
        memory: Callable[..., Any],
        decide: Callable[[Any, Any, str], list[Any]],
        failed: Callable[[Any, Any, Any], None],
    ) -> None:
        self.styles = styles  # what `settings.ai` may name for a seat
        self.levels = levels  # the styles a creator or moderator picks for an AI seat
        self._memory = memory
        self._decide = decide
        self._failed = failed

    def memory(self) -> Any:
        return self._memory()

    def resting(self, memory: Any, style: str, tick: int, ticks_per_hour: int) -> bool:
        """Only a seat of a style the kind has not (it is not played)."""
        return style not in self.styles

    def decide(self, view: Any, memory: Any, style: str) -> list[Any]:
        return self._decide(view, memory, style)

    def failed(self, memory: Any, command: Any, view: Any) -> None:
        self._failed(memory, command, view)

    def save(self, memory: Any) -> dict[str, Any]:
        return asdict(memory)

    def restore(self, data: dict[str, Any]) -> Any:
        return self._memory(**data)
