"""What the games store reads and writes, the same whichever its backend: a game's row, a
lease, a process's row, an outbox row and its claims, a log entry to append, a whole game as
copied, the errors a write may raise, and the JSON text the stores write."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.errors import GameError
from engine.interface.kind import FIRST_KIND


def dumps(value: Any) -> str:
    """JSON text as the stores write it: compact, sorted keys."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class GameRow:
    id: int
    name: str
    ruleset: str
    status: str
    guild_id: str | None
    channel_id: str | None
    created_by: str | None
    created_at: float
    settings: dict[str, Any]
    clock: dict[str, Any]
    kind: str = FIRST_KIND  # the game kind (engine/interface/kind.py)


class LeaseHeld(GameError):
    """Another process runs the game (its lease has not expired)."""

    def __init__(self, game_id: int, owner: str, expires: float) -> None:
        # (the process's name is for the logs: players are not told the bot's insides)
        super().__init__(
            f"game {game_id} is moving between the bot's servers: try again in a minute"
        )
        self.owner = owner
        self.expires = expires


class LeaseLost(GameError):
    """A write fenced with a token that is no longer the game's: another process has taken
    the game over (this one was paused, cut off or too slow to renew). Nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"game {game_id} is moving between the bot's servers: try again in a minute"
        )


@dataclass(frozen=True)
class Lease:
    game_id: int
    owner: str
    token: int
    expires: float


@dataclass(frozen=True)
class ProcessRow:
    """A process that writes to the store (engine/host/writers.py): its name (SI_INSTANCE; ""
    for a bot without one), what it is ("bot", "copy"), whether it must be alone on the store
    (no leases: it writes every game), where it runs, since when, when it was last heard from,
    and its incarnation (a restart under the same name has another)."""

    name: str
    role: str
    alone: bool
    host: str
    pid: int
    since: float
    beat: float
    token: str


# inside a claim's transaction: the fresh process that stops it, if any, of the rows stored
Refusal = Callable[[list[ProcessRow]], ProcessRow | None]


Fence = tuple[str, int]  # (owner, token): a write goes through only while both are the game's


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    seq: int
    tick: int
    nation: str
    event: dict[str, Any]
    attempts: int
    own: bool = False  # its event answers the recipient's own command (see `pending_events`)
    # claimed (`OutboxClaim`): the claim the row was first taken under, kept until it is
    # delivered or held, so a row taken over after its claimer died is sent again in the same
    # group as before (the same DM, the same idempotency key); and until when the claim runs
    group: int | None = None
    claimed_until: float | None = None


@dataclass(frozen=True)
class OutboxClaim:
    """Take the rows `pending_events` returns for `owner` until `now + ttl`: no other claimer
    gets them meanwhile (the claimer marks them delivered, failed or held; or the claim runs
    out and another takes them). `games`: only rows of these games (those the process serves);
    None: any game."""

    owner: str
    ttl: float
    games: frozenset[int] | None = None


def new_claim_group() -> int:
    """A claim's id (random: claimers in several processes never agree on a counter)."""
    return secrets.randbits(62) + 1


@dataclass(frozen=True)
class GameDump:
    """Every stored row of one game, as `export_game` reads it and `import_game` writes it
    (`si db copy`: engine/host/copy.py), the same on both backends: JSON as compact text with
    sorted keys (SQLite keeps text, PostgreSQL JSONB, whose own text spaces it otherwise),
    worlds as their JSON text (each store compresses its own blobs), times as seconds.
    Leases are not part of it: they belong to the processes running the source store."""

    # id, name, ruleset, status, guild_id, channel_id, created_by, created_at, settings,
    # clock, kind
    game: tuple[Any, ...]
    log: list[tuple[int, int, str, float]]  # seq, tick, entry, created_at
    snapshots: list[tuple[int, int, str, str, float]]  # seq, tick, world json, hash, created_at
    # id, seq, tick, nation, event, created_at, delivered_at, attempts, last_error, hold_until
    outbox: list[tuple[Any, ...]]
    members: list[tuple[str, str]]  # nation, user_id

    @property
    def id(self) -> int:
        return int(self.game[0])


class GameExists(GameError):
    """`import_game` into a store that has a game of that id already (nothing was written)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"the target store has a game {game_id} already: nothing written")
        self.game_id = game_id


def canonical_json(text: str | bytes) -> str:
    """JSON text as the stores write it (compact, sorted keys), from either backend's."""
    return dumps(json.loads(text))


@dataclass(frozen=True)
class LogWrite:
    """One log entry to append: its seq and tick, the entry, and its events per recipient."""

    seq: int
    tick: int
    entry: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]]


def filter_games(
    rows: list[GameRow], status: Iterable[str] | None, guild_id: str | None
) -> list[GameRow]:
    """The games of these statuses on this server (None: any), in their order (a new list)."""
    wanted = None if status is None else set(status)
    return [
        row
        for row in rows
        if (wanted is None or row.status in wanted)
        and (guild_id is None or row.guild_id == guild_id)
    ]
