"""Founding a nation (seed 002): its leader, the leader's title and its starting island,
chosen at `/game join` and kept in the log's join entry (`Join.founding`), so a replay founds
the nation the same way. Left out, the nation has no leader shown and takes the first free
island, as before."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.errors import GameError
from engine.interface.names import markup_in

LEADER_MOST = 32  # characters of a leader's name
TITLE_MOST = 24  # characters of a leader's title


class Founding(BaseModel):
    """What a joining player chose besides the nation's name and colour."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    leader: str | None = None
    title: str | None = None
    island: int | None = None  # the starting island's number (1 to the game's seats)


def founding_of(data: dict | None) -> Founding:
    """The join entry's founding, checked (a GameError says what is wrong)."""
    try:
        founding = Founding.model_validate(data or {})
    except ValidationError as exc:
        raise GameError(
            f"a founding is leader, title and island: {exc.errors()[0]['msg']}"
        ) from None
    for what, text, most in (
        ("leader's name", founding.leader, LEADER_MOST),
        ("title", founding.title, TITLE_MOST),
    ):
        if text is None:
            continue
        if not 1 <= len(text.strip()) <= most or text != text.strip():
            raise GameError(f"a {what} is 1 to {most} characters")
        bad = markup_in(text)
        if bad is not None:
            raise GameError(f"a {what} is plain words: {bad} would break the messages naming it")
    if founding.title is not None and founding.leader is None:
        raise GameError("a title goes with a leader: name the leader too")
    return founding


def styled(name: str, leader: str = "", title: str = "") -> str:
    """How a nation is named to others: "Avalon (President Ada)", or its name alone."""
    if not leader:
        return name
    return f"{name} ({f'{title} {leader}' if title else leader})"
