"""The Discord client: loads the cogs, syncs the slash commands, and runs the background work
(the ticker advancing games, the notifier sending DMs, the pinned status messages)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.background import stop_tasks
from bot.config import Settings, settings_problem
from bot.context import Reply, UserError, explain
from bot.desk import Desk
from bot.discord_io import ActionButton, ConfirmButton
from bot.dm.delivery import DmChannels, discord_sender
from bot.dm.notifier import Notifier, idempotency_key
from bot.game_channels import NEWS_OFF, GameChannels
from bot.game_side import check_sides, load_games, side, sides
from bot.pacer import Pacer
from bot.standings import result_text
from bot.store import BotStore
from bot.ticker import Ticker
from engine.host.database import StoreUnusable
from engine.host.heap import HeapKeeper
from engine.host.runner import AiRunner
from engine.host.service import GameService
from engine.host.writers import Writer
from engine.loops import every
from renderers import pool as drawing

log = logging.getLogger(__name__)


# Discord's codes for an interaction that can no longer be answered: unknown interaction (not
# acknowledged within 3 s), invalid webhook token (past its 15 minutes)
DEAD_INTERACTION = frozenset({10062, 50027})

RELAY_SECONDS = 0.1  # how often a process of several looks for orders relayed to it
# an end of a game whose posts failed (Discord down, a bug) is tried again after this
END_RETRY_SECONDS = 600.0


class StrategicBot(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        background: bool = True,
    ) -> None:
        # slash commands, buttons and menus come as interactions, which need no intent; the
        # guilds intent keeps the servers, channels, roles and the bot's own permissions known
        intents = discord.Intents.none()
        intents.guilds = True
        # its shards: those of SI_SHARD_IDS of SI_SHARD_COUNT, or all, as Discord recommends
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]  # None: all of them
            shard_count=settings.shard_count,
        )
        self.settings = settings
        self.service = service
        self._owns_service = service is None
        self.background = background
        self.desk: Desk
        self.notifier: Notifier | None = None
        self.ticker: Ticker | None = None
        self._tasks: list[asyncio.Task] = []
        self._dirty_games: set[int] = set()
        self._ending: set[int] = set()  # games whose end is being posted now
        self._end_failed: dict[int, float] = {}  # game -> when its end's posts are tried again
        # game -> (pinned status message id, its text's digest) as last posted or edited (also
        # kept in the bot store: after a restart only the statuses that changed are edited)
        self._status_shown: dict[int, tuple[str, str]] = {}
        self._status_locks: dict[int, asyncio.Lock] = {}  # one refresh at a time, by game
        # the one pacer of the bot's own requests (DMs, status edits, posts in games' channels)
        self.pacer = Pacer(settings.pace_rate)
        self.synced: list[app_commands.AppCommand] = []

    async def setup_hook(self) -> None:
        if self.settings.draw_workers is not None:
            drawing.configure(self.settings.draw_workers)
        if self.service is None:
            # SQLite makes the file's folder itself; PostgreSQL: a URL, no folder
            self.service = await GameService.open(
                self.settings.store_url,
                owner=self.settings.instance,
                lease_seconds=self.settings.lease_seconds,
                serves=self.settings.serves(),  # the games of its shards' servers
            )
        self.desk = Desk(self.service)
        # the first picture need not wait for the pool's processes; started once the games'
        # parts are made, each game's pictures having told the pool what its workers load first
        await drawing.start()
        self.channels = GameChannels(self, self.service, self._tell)
        self.channels.pace = self.pacer.wait
        # DMs: one request each to the user's DM channel as kept (no user fetched), paced
        self.dm_sender = discord_sender(
            self, channels=DmChannels(BotStore.of(self.service.store)), pace=self.pacer.wait
        )
        await add_cogs(self)
        # confirmation buttons are answered by their custom id, also those sent before a restart
        self.add_dynamic_items(ConfirmButton, ActionButton)
        self.tree.error(self._on_tree_error)
        guild = discord.Object(id=self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        self.synced = await self.tree.sync(guild=guild)
        self.service.subscribe(self._on_events)
        # delivered (or given up) DMs' outbox rows are kept this long (SI_OUTBOX_RETENTION_DAYS)
        retention = self.settings.outbox_retention_days
        self.notifier = Notifier(
            self.service,
            self.dm_sender,
            retention=None if retention is None else float(retention) * 86400,
            # a DM Discord failed is tried again, less and less often, this long
            retry_horizon=self.settings.dm_retry_hours * 3600,
            # a process that died holds its DMs' rows as long as its games, but no longer than
            # a minute: a DM sent again goes under the same idempotency key, which Discord
            # honours for "a few minutes"
            claim_seconds=min(self.settings.lease_seconds, 60.0),
        )
        self.desk.notifier = self.notifier
        self.ticker = Ticker(self.service)
        self.ai = AiRunner(self.service)
        if self.background:
            self.start_background()

    def start_background(self) -> None:
        assert self.notifier is not None and self.ticker is not None
        self._tasks = [
            asyncio.create_task(self.ticker.run_forever(self.settings.tick_seconds), name="ticker"),
            asyncio.create_task(
                self.notifier.run_forever(self.settings.notify_seconds), name="notifier"
            ),
            asyncio.create_task(self._status_loop(), name="status-board"),
            asyncio.create_task(self.ai.run_forever(self.settings.tick_seconds), name="ai"),
            # the ends a stopped process did not post (also looked for with the statuses)
            asyncio.create_task(self._post_missed_ends_once(), name="missed-ends"),
        ]
        if self.service is not None:
            # the games' bulk out of the garbage collector's full collections (engine.host.heap)
            keeper = HeapKeeper(self.service.games_in_memory)
            service = self.service

            async def expected() -> int:
                return len(await service.games(status=["running"], mine=True))

            self._tasks.append(
                asyncio.create_task(keeper.run_forever(expected=expected), name="heap")
            )
        if self.service is not None and self.service.owner is not None:
            # the games this process runs stay its own while it lives: renew well in time
            service = self.service
            self._tasks.append(
                asyncio.create_task(
                    every(
                        service.lease_seconds / 3, service.keep_leases, name="leases", logger=log
                    ),
                    name="leases",
                )
            )
            # orders other processes received for its games (players' DMs, sent to shard 0)
            self._tasks.append(
                asyncio.create_task(
                    every(RELAY_SECONDS, service.serve_relayed, name="relay", logger=log),
                    name="relay",
                )
            )

    async def close(self) -> None:
        tasks, self._tasks = self._tasks, []
        channels = getattr(self, "channels", None)  # (made in setup_hook)
        await stop_tasks(tasks + (channels.workers() if channels is not None else []))
        if self.shards:
            await super().close()
        else:  # never connected (e.g. built for its command payload): no shards to close
            await self.http.close()
        if self._owns_service and self.service is not None:
            try:  # hand the games over at once rather than after the lease
                await self.service.release_leases()
            except Exception:
                log.exception("releasing the games' leases failed; they pass on when they expire")
            await self.service.close()

    # Discord's word that the bot's permissions may have changed somewhere: what it was
    # refused there is tried again (bot.game_channels)
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self.channels.permissions_changed(after.guild.id)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        self.channels.permissions_changed(role.guild.id)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        self.channels.permissions_changed(after.guild.id, after.id)

    async def _tell(self, user_id: str, text: str) -> None:
        """A DM to one person, outside any game's news (the channel's problems, told once)."""
        # the same words to the same person within Discord's few minutes show once (a key of
        # the text: Discord's enforce_nonce)
        await self.dm_sender(user_id, text, [], nonce=idempotency_key("tell", user_id, text))

    # --- after a command --------------------------------------------------------------------

    def _on_events(self, game_id: int, events) -> None:
        if self.notifier is not None:
            self.notifier.wake()
        assert self.service is not None
        name = self.service.kind_in_memory(game_id)  # (events come from a game in memory)
        if not events or name is None:
            return
        game = side(name)
        if any(e.kind in game.status_events for e in events):
            self._dirty_games.add(game_id)
        if not self.background:
            return
        if game.posts_after & {e.kind for e in events}:
            task = asyncio.create_task(self.post_after(game_id, events), name=f"posts-{game_id}")
            self._tasks.append(task)
        if any(e.kind in game.ended_events for e in events):
            task = asyncio.create_task(self.game_over(game_id), name=f"game-over-{game_id}")
            self._tasks.append(task)

    async def post_after(self, game_id: int, events) -> None:
        """What the game's side shows its channel after these events (Supply Lines: each
        resolved turn's board; the game has no fog)."""
        assert self.service is not None
        try:
            row = await self.service.game(game_id)
            if not row.channel_id:
                return
            for post in await side(row.kind).posts(self.service, game_id, list(events)):
                if post.news:
                    if row.settings.get(NEWS_OFF) is not True:
                        self.channels.announce(row, post.text)
                else:
                    await self.channels.send(row, post.text, file=post.file, pings=post.pings)
        except Exception:
            log.exception("posting in the channel of game %s failed", game_id)

    async def game_over(self, game_id: int) -> None:
        """The end of a game in its channel: the timelapse, then the result and its charts,
        each noted in the bot store once done (`end_posts`), so a process that stops between a
        game's end and its posts makes the rest when it starts again (`post_missed_ends`), and
        none twice."""
        if game_id in self._ending:
            return  # (being posted: the end's events and a look for missed ends at once)
        self._ending.add(game_id)
        try:
            assert self.service is not None
            store = BotStore.of(self.service.store)
            done = await store.end_posted(game_id)
            for part, post in (("timelapse", self.post_timelapse), ("result", self.post_result)):
                if part in done:
                    continue
                if not await post(game_id):
                    self._end_failed[game_id] = time.monotonic() + END_RETRY_SECONDS
                    return  # (in order: the result waits for its timelapse)
                await store.mark_end_posted(game_id, part)
            self._end_failed.pop(game_id, None)
        except Exception:
            log.exception("the end of game %s could not be posted", game_id)
            self._end_failed[game_id] = time.monotonic() + END_RETRY_SECONDS
        finally:
            self._ending.discard(game_id)

    async def post_missed_ends(self) -> None:
        """The posts of this process's ended games that were never made (a process stopped
        between a game's end and its posts, or a post failed: tried again after a while)."""
        assert self.service is not None
        missed = await BotStore.of(self.service.store).ends_unposted("result")
        if not missed:
            return
        mine = {g.id for g in await self.service.games(status=["ended"], mine=True)}
        now = time.monotonic()
        for game_id in missed:
            if game_id in mine and self._end_failed.get(game_id, 0.0) <= now:
                await self.game_over(game_id)

    async def post_timelapse(self, game_id: int) -> bool:
        """At the end of a game: the whole game as an animated map in its channel (if the game
        has a picture). True when done (posted, or nothing to post, or the bot may not post
        there: its creator is told); False when it failed (tried again later)."""
        assert self.service is not None
        try:
            row = await self.service.game(game_id)
            if not row.channel_id:
                return True
            first, entries = await self.service.history(game_id)
            data = await asyncio.to_thread(side(row.kind).timelapse, first, entries, row.name)
            if data is None:  # a game with no picture of itself
                return True
            await self.channels.send(
                row,
                f"**{row.name} is over.** The whole game, as it happened:",
                file=(f"game-{game_id}.gif", data),
                nonce=idempotency_key("end", game_id, "timelapse"),
            )
        except Exception:
            log.exception("timelapse of game %s failed", game_id)
            return False
        return True

    async def post_result(self, game_id: int) -> bool:
        """At the end of a game: its result recorded for the server's standings (once, whichever
        process gets here first), and posted in its channel with its charts (if it has any,
        kept in the bot store for `/stats game`). True when done, False when it failed."""
        assert self.service is not None
        try:
            await self.desk.standings.record(game_id)
            row = await self.service.game(game_id)
            result = await BotStore.of(self.service.store).result(game_id)
            if result is None:
                return True  # (not ended after all: nothing to post)
            data = await self.desk.standings.charts(row)  # (kept, even with no channel)
            if not row.channel_id:
                return True
            text = result_text(result) + "\n`/stats server` for this server's standings."
            file = (f"stats-{game_id}.png", data) if data is not None else None
            await self.channels.send(
                row, text, file=file, nonce=idempotency_key("end", game_id, "result")
            )
        except Exception:
            log.exception("the result of game %s failed", game_id)
            return False
        return True

    async def after_reply(self, reply: Reply) -> None:
        """Say in the game's channel what everyone should know, refresh the pinned status."""
        if reply.announce and reply.announce[0] and reply.refresh_game is not None:
            # (an announcement is of the game the reply names)
            assert self.service is not None
            try:
                row = await self.service.game(reply.refresh_game)
                self.channels.announce(row, reply.announce[1])
            except Exception:  # noqa: BLE001 - the command is done; its echo is best effort
                log.exception("announcing in game %s's channel failed", reply.refresh_game)
        if reply.refresh_game is not None:
            await self._refresh_in_turn(reply.refresh_game)

    async def refresh_status(self, game_id: int) -> None:
        """Post and pin a game's status message, or edit the pinned one when its text changed
        since the last edit this process made (at 1,000 games an edit each of every pass
        would be some 17 Discord requests a second, most of them changing nothing)."""
        assert self.service is not None
        try:
            row = await self.service.game(game_id)
        except Exception:  # the game is gone (deleted)
            self._status_shown.pop(game_id, None)
            return
        if not row.channel_id:
            return
        text = await self.desk.lifecycle.status_board(game_id)  # one message by design, never cut
        message_id = row.settings.get("status_message_id")
        if message_id and await self._status_says(game_id, str(message_id), text):
            return  # the pinned message already says this
        try:
            if message_id:
                edited = await self.channels.edit(row, int(message_id), text)
                if edited is not None:  # None: the message is gone, post it again
                    if edited:
                        await self._status_is(game_id, str(message_id), text)
                    return
            message = await self.channels.send(row, text)
            if message is None:
                return
            await self.channels.pin(row, message)
            await self.service.update_settings(game_id, status_message_id=str(message.id))
            await self._status_is(game_id, str(message.id), text)
        except discord.HTTPException as exc:
            log.warning("could not update the status of game %s: %s", game_id, exc)

    async def _refresh_in_turn(self, game_id: int) -> None:
        """`refresh_status`, one at a time a game: an edit waits for the pacer, and an older
        text must not land after a newer one (the next refresh reads the text anew)."""
        async with self._status_locks.setdefault(game_id, asyncio.Lock()):
            await self.refresh_status(game_id)

    async def _status_says(self, game_id: int, message_id: str, text: str) -> bool:
        """Does the game's pinned status already say `text`, as this process (or, after a
        restart, the bot store) knows?"""
        shown = self._status_shown.get(game_id)
        if shown is None:
            assert self.service is not None
            try:
                shown = await BotStore.of(self.service.store).status_shown(game_id)
            except Exception:  # noqa: BLE001 - then it is edited once more
                log.exception("reading the status shown of game %s failed", game_id)
            if shown is not None:
                self._status_shown[game_id] = shown
        return shown == (message_id, _digest(text))

    async def _status_is(self, game_id: int, message_id: str, text: str) -> None:
        shown = (message_id, _digest(text))
        self._status_shown[game_id] = shown
        assert self.service is not None
        try:
            await BotStore.of(self.service.store).set_status_shown(game_id, *shown)
        except Exception:  # noqa: BLE001 - the game may be gone; at worst edited once more
            log.warning("keeping the status shown of game %s failed", game_id, exc_info=True)

    async def _post_missed_ends_once(self) -> None:
        try:
            await self.post_missed_ends()
        except Exception:
            log.exception("looking for ended games not posted failed")

    async def _status_loop(self) -> None:
        """Refresh the status of running games now and then (the clock moves), and of games
        whose nations changed, soon."""
        assert self.service is not None
        service = self.service
        elapsed = 0.0

        async def one_pass() -> None:
            nonlocal elapsed
            elapsed += 5.0
            games = set(self._dirty_games)
            self._dirty_games.clear()
            if elapsed >= self.settings.status_seconds:
                elapsed = 0.0
                games |= {g.id for g in await service.games(status=["running"], mine=True)}
                await self._post_missed_ends_once()
            for game_id in sorted(games):
                await self._refresh_in_turn(game_id)

        await every(5.0, one_pass, name="status board pass", wait_first=True, logger=log)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, discord.HTTPException) and original.code in DEAD_INTERACTION:
            log.warning("an interaction expired before it was answered: %s", original)
            return  # calling its token again would only be refused again
        if isinstance(error, app_commands.CheckFailure) and not isinstance(original, UserError):
            text = "You cannot use this command here."
        else:
            if not isinstance(original, UserError):
                log.error("command failed", exc_info=original)
            text = explain(original)
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


# The shell's cogs, one extension per feature (named as the feature's desk module), in the order
# their commands are registered; then each game's own (`GameSide.extensions`), in the
# registry's order.
EXTENSIONS = (
    "bot.cogs.lifecycle",
    "bot.cogs.moderation",
    "bot.cogs.preferences",
    "bot.cogs.guide",
    "bot.cogs.news",
    "bot.cogs.stats",
)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def extensions() -> list[str]:
    """Every extension the bot loads: the shell's, then each game's (raises `NoBotSide` for a
    game with none: `check_sides` says so before the bot starts)."""
    return [*EXTENSIONS, *(name for game in sides() for name in game.extensions)]


async def add_cogs(bot: commands.Bot | commands.AutoShardedBot) -> None:
    for name in extensions():
        await bot.load_extension(name)


async def build_payload() -> list[dict]:
    """The exact application-command payload the bot registers with Discord."""
    bot = StrategicBot(Settings(_env_file=None), background=False)  # type: ignore[call-arg]
    await add_cogs(bot)
    payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    await bot.close()
    return payload


def command_payload() -> list[dict]:
    return asyncio.run(build_payload())


async def open_service(settings: Settings) -> tuple[GameService, Writer]:
    """The games store the settings name, opened, checked and migrated, and claimed for this
    process (engine/host/writers.py: no other process of its name, nor a copy, runs on it):
    before the Discord login, so a store that cannot be used says so and nothing else
    starts. Raises `StoreUnusable` (one line: what is wrong, what to do)."""
    service = await GameService.open(
        settings.store_url,
        owner=settings.instance,
        lease_seconds=settings.lease_seconds,
        serves=settings.serves(),  # the games of its shards' servers
    )
    try:
        writer = await Writer.claim(service.store, settings.instance)
    except BaseException:
        await service.close()
        raise
    return service, writer


def prepare() -> list[str]:
    """What the bot does first, before its store and Discord: every registered game's bot side
    checked (`check_sides`), then every game's modules imported (`load_games`: none is first
    imported while players wait on the event loop). What stops it, one line each."""
    return check_sides() or load_games()


async def serve(settings: Settings, token: str) -> int:
    """The bot as `si bot` runs it: its games' modules (`prepare`), the store (`open_service`),
    then Discord; the exit status."""
    problems = prepare()
    if problems:  # a game the bot cannot serve: its commands and DMs would be lost
        for problem in problems:
            log.error("%s", problem)
        return 2
    try:
        service, writer = await open_service(settings)
    except StoreUnusable as exc:
        log.error("%s", exc)
        return 2
    bot = StrategicBot(settings, service=service)
    replaced: list[asyncio.Task] = []

    def lost(message: str) -> None:  # another process took this one's name over: stop
        log.error("%s", message)
        replaced.append(asyncio.get_running_loop().create_task(bot.close()))

    beating = asyncio.create_task(writer.keep(lost), name="heartbeat")
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (Developer Portal > Bot)")
        return 2
    except (OSError, discord.HTTPException) as exc:
        log.error("cannot reach Discord: %s", exc)
        return 1
    finally:
        beating.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beating
        try:  # hand the games over at once rather than after the lease
            if not replaced:
                await service.release_leases()
        except Exception:
            log.exception("releasing the games' leases failed; they pass on when they expire")
        await writer.release()
        await service.close()
        await drawing.shutdown()
    return 1 if replaced else 0


def run(settings: Settings | None = None) -> int:
    if settings is None:
        try:
            settings = Settings()
        except ValidationError as exc:
            logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
            log.error("%s", settings_problem(exc))
            return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.discord_token is None:
        log.error("DISCORD_TOKEN is not set: see README.md, 'Run the bot on Discord'")
        return 2
    try:
        return asyncio.run(serve(settings, settings.discord_token.get_secret_value()))
    except KeyboardInterrupt:  # Ctrl-C, SIGINT: a clean stop (the store closed first)
        return 0
