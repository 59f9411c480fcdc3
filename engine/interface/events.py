"""What every game kind's events are: typed (pydantic), each naming the nations that may learn
of it (`to`). The service stores a kind's events in the outbox in the same transaction as the
change that caused them; the notifier turns a nation's events into DMs."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: str
    tick: int
    to: list[str] = Field(description="nations that may learn of this event")
