"""The bot's settings, from the environment or a `.env` file (see `.env.example`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from pydantic import (
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.host.rows import GameRow


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    discord_token: SecretStr | None = Field(
        default=None, description="the bot's token (Discord developer portal, Bot tab)"
    )
    database: str = Field(
        default="var/strategic-initiative.db", alias="SI_DATABASE", description="SQLite file"
    )
    database_url: str | None = Field(
        default=None,
        alias="SI_DATABASE_URL",
        description=(
            "the games store: sqlite:///path or postgresql://user@host/db (empty: SI_DATABASE)"
        ),
    )
    moderator_role: str | None = Field(
        default=None,
        alias="SI_MODERATOR_ROLE",
        description="name or id of a role whose members moderate games (besides Manage Server)",
    )
    dev_guild: int | None = Field(
        default=None,
        alias="SI_DEV_GUILD",
        description="sync commands to this server only (instant; for development)",
    )
    tick_seconds: float = Field(
        default=5.0, alias="SI_TICK_SECONDS", description="how often the ticker checks games"
    )
    notify_seconds: float = Field(
        default=2.0, alias="SI_NOTIFY_SECONDS", description="how often DMs are sent"
    )
    status_seconds: float = Field(
        default=60.0,
        alias="SI_STATUS_SECONDS",
        description="how often pinned status messages are refreshed",
    )
    outbox_retention_days: float | None = Field(
        default=7.0,
        alias="SI_OUTBOX_RETENTION_DAYS",
        description=(
            "how long delivered (or given up) DM reports are kept before they are deleted"
            " (empty: forever)"
        ),
    )
    draw_workers: int | None = Field(
        default=None,
        alias="SI_DRAW_WORKERS",
        description="processes drawing map pictures (empty: one less than the cores, 1-4; 0: threads)",
    )
    instance: str | None = Field(
        default=None,
        alias="SI_INSTANCE",
        description=(
            "this process's name when several share one store: each game is then run by one"
            " of them at a time (a lease); a restart under the same name takes its games back"
        ),
    )
    shard_ids: list[int] | None = Field(
        default=None,
        alias="SI_SHARD_IDS",
        description="the Discord shards this process runs, e.g. 0,1 (empty: all of them)",
    )
    shard_count: int | None = Field(
        default=None,
        alias="SI_SHARD_COUNT",
        description="how many shards the bot has in all (empty: as Discord recommends)",
    )
    lease_seconds: float = Field(
        default=60.0,
        alias="SI_LEASE_SECONDS",
        description="how long a process holds a game without renewing (with SI_INSTANCE)",
    )
    requests_per_second: float = Field(
        default=25.0,
        alias="SI_REQUESTS_PER_SECOND",
        description=(
            "the bot's own requests to Discord (DMs, status edits, posts in games' channels) a"
            " second, all its processes together (each shard process takes its shards' part);"
            " Discord's global limit is 50"
        ),
    )
    dm_retry_hours: float = Field(
        default=6.0,
        alias="SI_DM_RETRY_HOURS",
        description=(
            "how long a DM that Discord failed (errors, rate limits) is tried again, less and"
            " less often, before it is given up (its report stays in /news)"
        ),
    )
    log_level: str = Field(default="INFO", alias="SI_LOG_LEVEL")

    @field_validator(
        "tick_seconds",
        "notify_seconds",
        "status_seconds",
        "lease_seconds",
        "outbox_retention_days",
        "dm_retry_hours",
        "requests_per_second",
        "draw_workers",
    )
    @classmethod
    def _at_least(cls, value: float | None, info: ValidationInfo) -> float | None:
        """Lower bounds on the intervals (0 would keep a core busy for nothing) and the other
        numbers, each refused with what it is and what it may be."""
        if value is None:
            return value
        least, unit, what = AT_LEAST[str(info.field_name)]
        name = cls.model_fields[str(info.field_name)].alias
        above = least == 0 and unit != ""  # (more than 0, not at least 0)
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number ({what}), not {value:g}")
        if value < least or (above and value <= 0):
            bound = "more than 0" if above else f"at least {least:g}"
            raise ValueError(
                f"{name} must be {bound}{' ' + unit if unit else ''} ({what}), not {value:g}"
            )
        return value

    @field_validator(
        "discord_token",
        "database_url",
        "moderator_role",
        "dev_guild",
        "outbox_retention_days",
        "draw_workers",
        "instance",
        "shard_ids",
        "shard_count",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value):
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def store_url(self) -> str:
        """The games store to open: SI_DATABASE_URL, else the SQLite file SI_DATABASE."""
        return self.database_url or self.database

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _listed_ids(cls, value):
        """'0,1' (or '0 1') -> [0, 1]; empty: unset. (One id alone comes from the environment
        as a number: pydantic-settings reads a list field's text as JSON first.)"""
        if isinstance(value, int):
            return [value]
        if isinstance(value, str):
            parts = value.replace(",", " ").split()
            return [int(part) for part in parts] if parts else None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SI_SHARD_IDS needs SI_SHARD_COUNT (how many shards in all)")
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong or not self.shard_ids:
                raise ValueError(
                    f"SI_SHARD_IDS must be shards 0 to {self.shard_count - 1}, not {self.shard_ids}"
                )
        if self.shard_count is not None and self.shard_count < 1:
            raise ValueError("SI_SHARD_COUNT must be at least 1")
        return self

    @property
    def pace_rate(self) -> float:
        """This process's part of `requests_per_second` (`bot.pacer.process_share`)."""
        from bot.pacer import process_share

        return process_share(self.requests_per_second, self.shard_ids, self.shard_count)

    def serves(self) -> Callable[[GameRow], bool] | None:
        """Which games this process serves: with `shard_count` and `shard_ids`, the games of
        the servers on its shards (Discord's rule: (server id >> 22) % shard count), and games
        of no server on shard 0; else every game (None)."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        count, mine = self.shard_count, frozenset(self.shard_ids)

        def serves(row: GameRow) -> bool:
            return shard_of(row.guild_id, count) in mine

        return serves


# the least each number may be, its unit ("" for a count), and what it is; 0 with a unit:
# more than 0
AT_LEAST: dict[str, tuple[float, str, str]] = {
    "tick_seconds": (0.05, "s", "how often the ticker moves the games on"),
    "notify_seconds": (0.05, "s", "how often DM reports are sent"),
    "status_seconds": (0.1, "s", "how often the pinned status messages are refreshed"),
    "lease_seconds": (1.0, "s", "how long a process holds a game, renewed every third"),
    "outbox_retention_days": (0, "days", "how long delivered DM reports are kept; empty: for ever"),
    "dm_retry_hours": (0, "hours", "how long a failed DM is tried again"),
    "requests_per_second": (0, "a second", "the bot's own requests to Discord"),
    "draw_workers": (0, "", "processes drawing pictures; 0: threads"),
}


def settings_problem(exc: ValidationError) -> str:
    """A settings error as one line an operator can act on: each variable, what is wrong."""
    parts = []
    for error in exc.errors():
        field = next((str(p) for p in error.get("loc", ()) if isinstance(p, str)), "")
        message = str(error.get("msg", "")).removeprefix("Value error, ")
        if field and not message.startswith(field):
            given = error.get("input")
            shown = f" (it is {given!r})" if isinstance(given, str | int | float) else ""
            message = f"{field}: {message}{shown}"
        parts.append(message)
    return "bad settings (environment or .env): " + "; ".join(parts)


def shard_of(guild_id: str | int | None, shard_count: int) -> int:
    """The shard Discord sends a server's events to; DMs (no server) come to shard 0."""
    if guild_id is None or str(guild_id) == "":
        return 0
    return (int(guild_id) >> 22) % shard_count
