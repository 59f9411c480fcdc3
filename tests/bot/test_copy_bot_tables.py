"""`si db copy` copies the bot's own rows with the games (bot/store.py `export_rows` and
`import_rows`, called by bot/cli.py after engine/host/copy.py): after the copy, the bot on the
target store behaves for its players as it did on the source. Their DM settings, /news,
closed DMs, sitrep days, a confirmation button still waiting and the pinned status text are
all the same, both ways (SQLite to PostgreSQL and PostgreSQL to SQLite). Rows that clash with
the target's refuse the copy before anything is written, rows of a game that was not copied
are left out, and verification catches bot rows that differ."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import main
from bot.context import Caller
from bot.desk import Desk
from bot.dm.delivery import DmClosed, Menu
from bot.dm.notifier import Notifier
from bot.games.strategic.intel import Intel
from bot.news import KEPT
from bot.store import BotRows, BotRowsConflict, BotStore, ResultRow
from engine.host.service import GameService
from engine.host.sqlite import SqliteStore
from engine.host.storage import open_store
from tests import pg

GUILD, CHANNEL = "500", "501"
ANN = Caller("1", "ann", GUILD, CHANNEL)
BO = Caller("2", "bo", GUILD, CHANNEL)
CAL = Caller("3", "cal", GUILD, "601")
NOW = 1_700_000_000.0 - 1_700_000_000.0 % 86400 + 12 * 3600  # noon UTC: nobody's quiet hours


async def cli(argv: list[str]) -> int:
    """`si ...` as from a shell (its own event loop: in a thread of its own)."""
    return await asyncio.to_thread(main, argv)


class Sender:
    """Records the DMs the notifier sends; a user in `closed` has closed DMs (Discord's 50007)."""

    def __init__(self, *closed: str) -> None:
        self.closed = set(closed)
        self.sent: list[tuple[str, str]] = []
        self.attempts = 0

    async def __call__(
        self,
        user_id: str,
        content: str,
        files: list[tuple[str, bytes]],
        *,
        nonce: str | None = None,
        menus: Sequence[Menu] = (),
    ) -> None:
        self.attempts += 1
        if user_id in self.closed:
            raise DmClosed("50007: Cannot send messages to this user")
        self.sent.append((user_id, content))

    def to(self, user_id: str) -> list[str]:
        return [content for user, content in self.sent if user == user_id]


@pytest.fixture
async def url_of(
    tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Callable[[str], Awaitable[str]]]:
    """`await url_of("sqlite" | "postgresql")`: a new, empty store of that backend."""
    made: list[str] = []
    server: list[pg.Server] = []

    async def make(backend: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{tmp_path / f'store{len(made)}_{id(made)}.db'}"
        if not server:
            server.append(request.getfixturevalue("pg_server"))
        made.append(await server[0].new_database())
        return made[-1]

    yield make
    for url in made:
        await server[0].drop_database(url)


@dataclass
class Played:
    game: int
    lobby: int
    red: str  # ann's nation
    token: str  # ann's resign button, not pressed yet


async def play(url: str) -> Played:
    """What the bot leaves in its tables after some play, through the bot's own paths: two
    players in a running game (bo's DMs closed), ann's DM settings, the welcome reports kept
    for /news, a few reports more (recorded out of their outbox rows' order), a lobby game with
    cal's report, yesterday's sitreps sent, and ann's resign button waiting."""
    service = await GameService.open(url, synchronous="NORMAL")
    try:
        desk = Desk(service)
        game = (await desk.lifecycle.game_create(ANN, "Feud", nations=2, size="small")).refresh_game
        assert game is not None
        await desk.lifecycle.game_join(ANN, "Red", "red")
        await desk.lifecycle.game_join(BO, "Blue", "blue")  # full: it starts
        lobby = (
            await desk.lifecycle.game_create(CAL, "Later", nations=3, size="small")
        ).refresh_game
        assert lobby is not None
        await desk.lifecycle.game_join(CAL, "Teal", "teal")
        await desk.preferences.notify(ANN, quiet_from=22, quiet_to=6, mute="builds", pictures=False)
        await desk.preferences.notify(CAL, sitrep=False)
        sender = Sender(BO.user_id)
        await Notifier(service, sender, render=False, clock=lambda: NOW).run_once()
        assert sender.to(ANN.user_id) and not sender.to(BO.user_id)
        bot = BotStore.of(service.store)
        # recorded in this order, though not of the outbox rows' order (reports held by quiet
        # hours go out later): /news lists them by outbox row, trims the earliest recorded
        for first_row, text in ((9005, "report A"), (9003, "report B"), (9001, "report C")):
            await bot.add_news(game, ANN.user_id, [text], first_row=first_row, at=NOW, keep=KEPT)
        await bot.add_news(lobby, CAL.user_id, ["lobby news"], first_row=1, at=NOW, keep=KEPT)
        # an earlier game's result, on the server's standings (its game long deleted)
        won = [[{"nation": "red", "name": "Red", "player": BO.user_id}]]
        lost = [[{"nation": "blue", "name": "Blue", "player": ANN.user_id}]]
        await bot.add_result(ResultRow(900, GUILD, "strategic-initiative", "Old", NOW, won + lost))
        await bot.add_charts(900, {"xs": ["day 1"], "panels": []})  # (kept with its result)
        members = await service.members(game)
        red = next(n for n, user in members.items() if user == ANN.user_id)
        day = (await service.summary(game)).day
        await bot.set_sitreps(game, {n: day - 1 for n in members})  # today's not sent yet
        confirm = (await desk.lifecycle.game_resign(ANN)).confirm
        assert confirm is not None
        return Played(game, lobby, red, confirm.token)
    finally:
        await service.close()


async def seen(url: str, played: Played) -> dict[str, object]:
    """What the players see of the bot's rows on a store (reading only)."""
    service = await GameService.open(url, synchronous="NORMAL")
    try:
        desk = Desk(service)
        bot = BotStore.of(service.store)
        status = (await desk.part(Intel).status(BO)).embed
        assert status is not None
        return {
            "ann news": (await desk.news.read(ANN, count=KEPT)).text,
            "bo news": (await desk.news.read(BO, count=KEPT)).text,
            "cal news": (await desk.news.read(CAL, count=KEPT)).text,
            "ann settings": await bot.get_player_settings(ANN.user_id),
            "cal settings": await bot.get_player_settings(CAL.user_id),
            "bo cannot be DMed": "I cannot DM you" in (status.description or ""),
            "dm status": [await bot.get_dm_status(u) for u in ("1", "2", "3")],
            "sitreps": await bot.sitreps(played.game),
            "board": await desk.lifecycle.status_board(played.game),
            "lobby board": await desk.lifecycle.status_board(played.lobby),
            "standings": (await desk.standings.server(ANN)).text,
        }
    finally:
        await service.close()


async def go_on(url: str, played: Played) -> dict[str, object]:
    """What happens next on a store: the notifier's next pass (today's sitreps), ann presses
    her resign button, a new report trims ann's /news to the 3 latest recorded."""
    service = await GameService.open(url, synchronous="NORMAL")
    try:
        desk = Desk(service)
        sender = Sender(BO.user_id)
        report = await Notifier(service, sender, render=False, clock=lambda: NOW).run_once()
        pressed = await desk.confirm(ANN, played.token)
        await BotStore.of(service.store).add_news(
            played.game, ANN.user_id, ["trimmed"], first_row=9007, at=NOW, keep=3
        )
        return {
            "dms": sender.sent,
            "attempts": sender.attempts,
            "sitreps sent": report.sitreps,
            "resign": pressed.text,
            "ann news": (await desk.news.read(ANN, count=KEPT)).text,
            "sitreps": await BotStore.of(service.store).sitreps(played.game),
        }
    finally:
        await service.close()


@pytest.mark.parametrize(
    ("source_backend", "target_backend"),
    [("sqlite", "postgresql"), ("postgresql", "sqlite")],
    ids=["sqlite-to-postgresql", "postgresql-to-sqlite"],
)
async def test_after_the_copy_the_bot_treats_its_players_as_before(
    url_of, source_backend: str, target_backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = await url_of(source_backend), await url_of(target_backend)
    played = await play(source)
    before = await seen(source, played)
    # what the play left, as a player sees it (so that the same on the target means something)
    assert "report C" in str(before["ann news"]) and "Welcome to Feud" in str(before["ann news"])
    assert "Welcome to Feud" in str(before["bo news"])  # kept though bo's DMs are closed
    assert before["ann settings"] == {
        "map_colours": "nation",
        "muted": ["builds", "others"],  # (others: muted until unmuted)
        "pictures": False,
        "quiet_from": 22,
        "quiet_to": 6,
        "sitrep": True,
        "utc_offset": 0,
    }
    assert before["bo cannot be DMed"] is True

    assert await cli(["db", "copy", source, target]) == 0
    out = capsys.readouterr().out
    assert "copied 2 games" in out
    assert (
        "copied the bot's rows: 2 players' settings, 3 DM statuses, 2 sitrep days,"
        " 1 confirmations, 1 game results, 1 game charts, 0 end-of-game posts, 9 /news messages"
        " (0 there already the same; 0 of"
        " games not copied left out)"
    ) in out
    assert "every game's rows and the bot's rows are the same in both stores" in out

    assert await seen(target, played) == before
    # and the bot goes on the same on both: today's sitrep to ann only (bo's DMs are closed),
    # no DM twice, the resign button works, /news trims the same reports
    after = await go_on(source, played), await go_on(target, played)
    assert after[0] == after[1]
    assert after[1]["sitreps sent"] == 1
    assert [user for user, _ in after[1]["dms"]] == [ANN.user_id]  # type: ignore[attr-defined]
    assert after[1]["resign"] == "Red has resigned."
    news = str(after[1]["ann news"])
    assert "trimmed" in news and "report C" in news and "report B" in news
    assert "report A" not in news and "Welcome" not in news  # the earliest recorded went


async def test_bot_rows_that_clash_with_the_targets_refuse_the_copy_before_anything_is_written(
    url_of, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = await url_of("sqlite"), await url_of("postgresql")
    await play(source)
    store = await open_store(target)
    try:  # ann used a bot on the target already, and chose otherwise there
        await BotStore.of(store).set_player_settings(ANN.user_id, {"sitrep": False})
    finally:
        await store.close()
    assert await cli(["db", "copy", source, target]) == 2
    err = capsys.readouterr().err
    assert "the target has 1 rows of the bot's tables already with other contents" in err
    assert "player_settings user_id=1" in err and "nothing copied" in err
    store = await open_store(target)
    try:
        assert await store.games() == []  # no game was written either
        assert await BotStore.of(store).get_player_settings(ANN.user_id) == {"sitrep": False}
        # the same choice on the target is no clash: the copy goes on and skips that row
        source_store = await open_store(source)
        try:
            mine = await BotStore.of(source_store).get_player_settings(ANN.user_id)
        finally:
            await source_store.close()
        await BotStore.of(store).set_player_settings(ANN.user_id, mine)
    finally:
        await store.close()
    assert await cli(["db", "copy", source, target]) == 0
    out = capsys.readouterr().out
    assert "1 players' settings" in out and "(1 there already the same;" in out
    store = await open_store(target)
    try:
        assert await BotStore.of(store).get_player_settings(ANN.user_id) == mine
        assert len(await store.games()) == 2
    finally:
        await store.close()


async def test_rows_of_a_game_that_was_not_copied_are_left_out(
    url_of, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = await url_of("sqlite"), await url_of("postgresql")
    played = await play(source)
    real_export = SqliteStore.export_game

    async def deleted_meanwhile(self, game_id):  # the lobby game goes while the copy runs
        return None if game_id == played.lobby else await real_export(self, game_id)

    monkeypatch.setattr(SqliteStore, "export_game", deleted_meanwhile)
    # (the lobby game's row is still in the source: the verification says it was not copied)
    assert await cli(["db", "copy", source, target]) == 1
    captured = capsys.readouterr()
    assert f"game {played.lobby}: in the source at the end of the copy, not in" in captured.err
    out = captured.out
    assert "copied 1 games" in out
    assert "7 /news messages (0 there already the same; 2 of games not copied left out)" in out
    store = await open_store(target)
    try:
        rows = await BotStore.of(store).export_rows()
        games = {row[0] for row in rows.tables["news"]} | {r[0] for r in rows.tables["sitreps"]}
        assert games == {played.game}
        # cal's own settings stay: they are a player's, not the lost game's
        assert await BotStore.of(store).get_player_settings(CAL.user_id) == {
            "map_colours": "nation",
            "muted": ["others"],  # (muted until unmuted)
            "pictures": True,
            "quiet_from": None,
            "quiet_to": None,
            "sitrep": False,
            "utc_offset": 0,
        }
    finally:
        await store.close()


async def test_rows_naming_a_game_the_target_lacks_are_refused_whole(url_of) -> None:
    source, target = await url_of("postgresql"), await url_of("sqlite")
    played = await play(source)
    a, b = await open_store(source), await open_store(target)
    try:
        rows = await BotStore.of(a).export_rows()  # every game's, none copied to the target
        with pytest.raises(
            BotRowsConflict, match=f"games the target does not have \\({played.game}"
        ):
            await BotStore.of(b).import_rows(rows)
        assert (await BotStore.of(b).export_rows()).count() == 0
    finally:
        await a.close()
        await b.close()


async def test_the_cli_fails_loudly_when_the_bot_rows_differ_after_the_copy(
    url_of, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = await url_of("sqlite"), await url_of("postgresql")
    await play(source)
    real_import = BotStore.import_rows

    async def reordered(self, rows: BotRows):  # a broken copy: /news written newest first
        tables = dict(rows.tables, news=rows.tables["news"][::-1])
        return await real_import(self, BotRows(tables, rows.left_out))

    monkeypatch.setattr(BotStore, "import_rows", reordered)
    assert await cli(["db", "copy", source, target]) == 1
    captured = capsys.readouterr()
    assert "verified" not in captured.out
    assert "ERROR: 1 differences" in captured.err
    assert (
        "bot table news: the copied games' rows differ (9 in the source, 9 in the target,"
        " in another order)"
    ) in captured.err
    assert "do not use the target store" in captured.err
