"""The game log's entries, typed: a nation's command, time moving on, and the lobby's and
moderators' actions, the same for every game kind. The service writes them and recovery
replays them through the kind's `apply` (`engine.interface.kind`); a command is kept as its JSON and
the kind parses it with its own command types. Their JSON is the log's stored form, unchanged
from the untyped entries of older logs, which load as they are:

  {"kind": "command", "nation": "red", "command": {...a command...}}
  {"kind": "advance", "ticks": 4}
  {"kind": "lobby", "action": "join", "nation": "red", "name": "Red", "colour": "#c0392b", "player": "123"}
      (and "founding": {...}: what else the player chose, which the kind reads; left out when
      nothing was, so a join without choices is stored as before)
  {"kind": "lobby", "action": "leave" | "resign", "nation": "red"}
  {"kind": "lobby", "action": "start"}
  {"kind": "lobby", "action": "substitute", "nation": "red", "player": "456" | null}
  {"kind": "lobby", "action": "end"}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return self.model_dump(mode="json")


class CommandEntry(Entry):
    """A nation's command, as its JSON (the game kind parses and validates it)."""

    kind: Literal["command"] = "command"
    nation: str
    command: dict[str, Any]


class Advance(Entry):
    """Time moves on by some ticks."""

    kind: Literal["advance"] = "advance"
    ticks: int = Field(ge=0)


# the player of the nations the AI plays (in `Join.player`; it may play several), in every game
AI_PLAYER = "ai"


class LobbyEntry(Entry):
    kind: Literal["lobby"] = "lobby"


class Join(LobbyEntry):
    """A nation joins before the start (a player's, or nobody's: the AI)."""

    action: Literal["join"] = "join"
    nation: str
    name: str
    colour: str
    player: str | None = None
    founding: dict[str, Any] | None = None  # the kind's own choices (a leader, a home...)

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.founding is None:
            del data["founding"]
        return data


class Leave(LobbyEntry):
    """A nation leaves before the start (itself, or removed by a moderator)."""

    action: Literal["leave"] = "leave"
    nation: str


class Resign(LobbyEntry):
    """A nation gives up a running game (itself, or removed by a moderator)."""

    action: Literal["resign"] = "resign"
    nation: str


class Start(LobbyEntry):
    """The game starts (its creator, a moderator, or a full lobby)."""

    action: Literal["start"] = "start"


class Substitute(LobbyEntry):
    """A moderator hands a nation to another player (None: to nobody, e.g. the AI)."""

    action: Literal["substitute"] = "substitute"
    nation: str
    player: str | None = None


class End(LobbyEntry):
    """A moderator ends a running game now: the standings as they are decide."""

    action: Literal["end"] = "end"


def _tag(value: Any) -> str | None:
    get = value.get if isinstance(value, dict) else lambda k: getattr(value, k, None)
    kind = get("kind")
    return f"lobby:{get('action')}" if kind == "lobby" else kind


AnyEntry = Annotated[
    Annotated[CommandEntry, Tag("command")]
    | Annotated[Advance, Tag("advance")]
    | Annotated[Join, Tag("lobby:join")]
    | Annotated[Leave, Tag("lobby:leave")]
    | Annotated[Resign, Tag("lobby:resign")]
    | Annotated[Start, Tag("lobby:start")]
    | Annotated[Substitute, Tag("lobby:substitute")]
    | Annotated[End, Tag("lobby:end")],
    Discriminator(_tag),
]
ENTRY_ADAPTER: TypeAdapter[AnyEntry] = TypeAdapter(AnyEntry)


def entry_from_json(data: dict[str, Any] | Entry) -> Entry:
    """A stored entry, typed (an entry already typed is returned as it is)."""
    if isinstance(data, Entry):
        return data
    return ENTRY_ADAPTER.validate_python(data)
