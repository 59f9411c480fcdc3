"""The bot's settings, from the environment or a `.env` file (see `.env.example`)."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    lease_seconds: float = Field(
        default=60.0,
        alias="SI_LEASE_SECONDS",
        description="how long a process holds a game without renewing (with SI_INSTANCE)",
    )
    log_level: str = Field(default="INFO", alias="SI_LOG_LEVEL")

    @field_validator(
        "discord_token",
        "database_url",
        "moderator_role",
        "dev_guild",
        "outbox_retention_days",
        "draw_workers",
        "instance",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value):
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def store_url(self) -> str:
        """The games store to open: SI_DATABASE_URL, else the SQLite file SI_DATABASE."""
        return self.database_url or self.database
