"""Learning and following the game: /help pages built from the game's ruleset (numbers equal
the ruleset's, every page fits one Discord message), the welcome DM on joining, and /news (each
player's own latest reports, kept even when DMs are closed, trimmed, surviving a restart)."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.context import Caller, UserError
from bot.desk import Desk
from bot.dm.notifier import Notifier
from bot.games.strategic.help import TOPICS, page
from bot.news import KEPT, LIMIT
from bot.sandbox import command_specs
from bot.store import BotStore
from engine.host.service import GameService
from engine.strategic.rules import available
from engine.strategic.rules import load as load_rules
from tests.bot.test_notifier import Clock, FakeSender

GUILD, CHANNEL = "500", "501"
LONGEST_NOTE = ", game 999999"  # the longest header a page gets (a game's id)


# --- /help ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", available())
@pytest.mark.parametrize("topic", list(TOPICS))
def test_every_help_page_fits_one_discord_message(ruleset: str, topic: str) -> None:
    text = page(load_rules(ruleset), topic, note=LONGEST_NOTE)
    assert len(text) <= 2000, f"{ruleset}/{topic} is {len(text)} characters"
    assert text.startswith(f"**Help: {TOPICS[topic]}**")
    assert text.count("```") % 2 == 0  # code blocks closed


def _table(text: str) -> dict[str, list[str]]:
    """The units page's table: a row's title (its first 18 characters) -> its cells."""
    block = text.split("```")[1].strip().splitlines()
    rows = {}
    for line in block[1:]:
        rows[line[:18].strip()] = line[18:].split()
    return rows


@pytest.mark.parametrize("ruleset", available())
def test_the_units_table_shows_the_rulesets_numbers(ruleset: str) -> None:
    rules = load_rules(ruleset)
    table = _table(page(rules, "units"))
    # new generations (ruleset total-war) are on the battles page, with their numbers
    units = [u for u in rules.units if u.structure is None and u.generation_of is None]
    assert len(table) == len(units)
    battles = page(rules, "battles")
    for u in rules.units:
        if u.generation_of is not None:
            assert f"{u.title.lower()} (tech {u.tech}," in battles
            assert f"att {u.attack}, hp {u.hp}, mob {u.mobility}" in battles
    for u in units:
        city, tech, hours, hp, _attack, mobility, *_ = table[u.title[:17]]
        assert rules.city[u.built_in].title.lower().startswith(city)
        assert (int(tech), int(hours), int(hp), int(mobility)) == (
            u.tech,
            u.cost_hours,
            u.hp,
            u.mobility,
        ), u.name
    tank = table["Tank"]
    assert int(tank[4]) == rules.unit["tank"].attack
    transport = table["Transport"]
    assert transport[-2:] == [str(rules.unit["transport"].capacity), "land"]


def test_the_pages_follow_the_data_not_the_code() -> None:
    """Change a number in the ruleset and the page changes with it."""
    rules = load_rules("standard")
    costs = rules.command_points.costs.model_copy(update={"launch_icbm": 77, "build_city": 99})
    changed = rules.model_copy(
        update={"command_points": rules.command_points.model_copy(update={"costs": costs})}
    )
    before, after = page(rules, "cp"), page(changed, "cp")
    assert re.search(r"launch an ICBM +32 CP", before)
    assert re.search(r"launch an ICBM +77 CP", after)
    assert re.search(r"found a city +99 CP", after)


def test_the_two_rulesets_read_differently_where_they_differ() -> None:
    standard, classic = load_rules("standard"), load_rules("classic")
    assert f"found a city       {classic.command_points.costs.build_city:>5} CP" in page(
        classic, "cp"
    )
    assert "128 CP" in page(standard, "cp") and "128 CP" not in page(classic, "cp")
    assert f"reaches {standard.supply.radius} squares" in page(standard, "supply")
    assert f"reaches {classic.supply.radius} squares" in page(classic, "supply")
    assert "non-aggression" in page(standard, "diplomacy")
    assert "non-aggression" not in page(classic, "diplomacy")
    assert "Cargo Plane" in page(standard, "units") and "Cargo" not in page(classic, "units")


def test_every_command_the_help_names_exists() -> None:
    specs = asyncio.run(command_specs())
    top = {path.split()[0] for path in specs}
    for ruleset in available():
        for topic in TOPICS:
            for name in re.findall(r"`/([a-z-]+)(?: ([a-z-]+))?", page(load_rules(ruleset), topic)):
                first, second = name
                assert first in top, f"/{first} in {ruleset}/{topic}"
                # a command, or a group of them (`/game create`: Discord offers its games)
                named = f"{first} {second}"
                if second and not any(p == named or p.startswith(f"{named} ") for p in specs):
                    assert first not in ("game", "mod"), f"/{first} {second}"


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    yield svc
    await svc.close()


@pytest.fixture
async def any_service(store_url):
    """A service on either backend (SQLite, PostgreSQL: the test runs on both)."""
    svc = await GameService.open(store_url, synchronous="NORMAL")
    yield svc
    await svc.close()


async def test_help_reads_the_callers_game_or_the_default(service) -> None:
    desk = Desk(service)
    creator = Caller("1", "ann", GUILD, CHANNEL)
    await desk.lifecycle.game_create(
        creator, "Old school", ruleset="classic", nations=2, size="small"
    )
    classic = await desk.guide.help(creator, "cp")
    assert "(Classic rules, game" in classic.text and "64 CP" in classic.text
    # elsewhere, not in any game: the default rules, and classic when asked for
    stranger = Caller("2", "bo", "900", "901")
    default = await desk.guide.help(stranger, "cp")
    assert "(Standard rules, the default)" in default.text and "128 CP" in default.text
    asked = await desk.guide.help(stranger, "cp", "classic")
    assert "(Classic rules)" in asked.text and "64 CP" in asked.text
    first = await desk.guide.help(stranger)
    assert first.text.startswith("**Help: first steps**") and "`units`" in first.text
    with pytest.raises(UserError, match="no help topic"):
        await desk.guide.help(stranger, "cheats")
    with pytest.raises(UserError, match="no ruleset"):
        await desk.guide.help(stranger, "cp", "chess")


# --- the welcome DM -------------------------------------------------------------------------------


async def test_a_joining_player_is_welcomed_with_their_start_and_first_orders(service) -> None:
    desk = Desk(service)
    ann, bo = Caller("1", "ann", GUILD, CHANNEL), Caller("2", "bo", GUILD, CHANNEL)
    made = await desk.lifecycle.game_create(
        ann, "Archipelago", nations=3, size="small", speed="fast (x4)"
    )
    game = made.refresh_game
    assert game is not None
    await desk.lifecycle.game_join(ann, "Red", "red")
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False)
    await notifier.run_once()
    (welcome,) = sender.to("1")
    view = await service.view(game, "red")
    capital = next(c for c in view.own_cities() if c.designation == "fort")
    assert welcome.startswith("**Welcome to Archipelago, Red!**")
    assert "**red**" in welcome  # the colour by its name
    assert f"Your capital: **{view.label(capital.sq)} (fort" in welcome
    for city in view.own_cities():
        assert view.label(city.sq) in welcome
    assert "10 game days" in welcome and "a game day takes 6 real hours" in welcome
    # a lobby: it says what happens at the start
    assert "has not started yet (1/3 nations)" in welcome and "`/game start`" in welcome
    # the first orders name real squares and the player's own units
    orders = [line for line in welcome.splitlines() if re.match(r"\d\. ", line)]
    assert len(orders) == 3
    assert orders[0].startswith(f"1. `/map at:{view.label(capital.sq)} radius:6`")
    attack = re.search(r"`/attack units:(\d+) target:(\d+),(\d+)`", welcome)
    # the map is random: an attack is suggested exactly when the nation knows a neutral city
    known_neutral = [c for c in view.cities.values() if c.owner is None]
    assert (attack is not None) == bool(known_neutral), welcome
    if attack is not None:
        unit, x, y = (int(g) for g in attack.groups())
        assert view.unit(unit) is not None and view.unit(unit).owner == "red"
        target = view.cities[y * view.width + x]
        assert target.owner is None  # a neutral city the nation knows
    assert len(welcome) <= 2000

    # the game fills up and starts on the last join: that player's welcome says so
    await desk.lifecycle.game_join(bo, "Blue", "blue")
    await desk.lifecycle.game_add_ai(ann, "Robot")
    await notifier.run_once()
    blue_welcome = sender.to("2")[0]
    assert blue_welcome.startswith("**Welcome to Archipelago, Blue!**")
    assert "It has started" in blue_welcome and "has not started" not in blue_welcome
    assert "Welcome" not in "".join(sender.to("1")[1:])  # one welcome each


async def test_a_welcome_to_closed_dms_is_kept_and_readable_with_news(service) -> None:
    desk = Desk(service)
    ann = Caller("1", "ann", GUILD, CHANNEL)
    await desk.lifecycle.game_create(ann, "Quiet", nations=2, size="small")
    await desk.lifecycle.game_join(ann, "Red", "red")
    sender = FakeSender()
    sender.closed.add("1")
    clock = Clock()
    notifier = Notifier(service, sender, render=False, clock=clock)
    await notifier.run_once()
    assert sender.to("1") == []
    news = await desk.news.read(ann)
    assert "**Welcome to Quiet, Red!**" in news.text
    # tried again an hour later (still closed), then opened: the report is kept once
    for _ in range(2):
        clock.t += 3601
        await notifier.run_once()
    sender.closed.clear()
    clock.t += 3601
    await notifier.run_once()
    assert sender.to("1")[0].startswith("**Welcome to Quiet, Red!**")
    assert (await desk.news.read(ann)).text.count("Welcome to Quiet") == 1


# --- /news ------------------------------------------------------------------------------------------


async def _two_games(service) -> tuple[int, int]:
    a = await service.create_game(name="A", max_nations=2, width=32, height=32, seed=1)
    b = await service.create_game(name="B", max_nations=2, width=32, height=32, seed=2)
    return a, b


async def test_the_news_store_trims_isolates_and_is_idempotent(any_service) -> None:
    store = BotStore.of(any_service.store)
    a, b = await _two_games(any_service)
    for i in range(8):
        await store.add_news(a, "1", [f"a1-{i}"], first_row=i, at=1000.0 + i, keep=5)
    await store.add_news(a, "2", ["a2"], first_row=3, at=5.0, keep=5)
    await store.add_news(b, "1", ["b1"], first_row=9, at=6.0, keep=5)
    # the same report recorded again (a crash between recording and sending) changes nothing
    await store.add_news(a, "1", ["a1-7"], first_row=7, at=2000.0, keep=5)
    mine = await store.news(a, "1", 50)
    assert [r.text for r in mine] == ["a1-7", "a1-6", "a1-5", "a1-4", "a1-3"]
    assert mine[0].at == 1007.0
    assert [r.text for r in await store.news(a, "2", 50)] == ["a2"]
    assert [r.text for r in await store.news(b, "1", 50)] == ["b1"]
    assert await store.news(b, "2", 50) == []
    # a report in several messages reads in its order
    await store.add_news(a, "1", ["part 1", "part 2"], first_row=20, at=3000.0, keep=5)
    assert [r.text for r in await store.news(a, "1", 3)] == ["part 1", "part 2", "a1-7"]


async def test_news_survives_a_restart(store_url) -> None:
    path = store_url
    service = await GameService.open(path, synchronous="NORMAL")
    game = await service.create_game(name="A", max_nations=2, width=32, height=32, seed=1)
    await BotStore.of(service.store).add_news(game, "1", ["kept"], first_row=1, at=1.0, keep=KEPT)
    await service.close()
    service = await GameService.open(path, synchronous="NORMAL")
    try:
        assert [r.text for r in await BotStore.of(service.store).news(game, "1", 5)] == ["kept"]
    finally:
        await service.close()


async def test_news_shows_only_the_callers_own_reports_of_their_game(any_service) -> None:
    service = any_service
    desk = Desk(service)
    ann, bo = Caller("1", "ann", GUILD, CHANNEL), Caller("2", "bo", GUILD, CHANNEL)
    made = await desk.lifecycle.game_create(ann, "Feud", nations=2, size="small")
    game = made.refresh_game
    assert game is not None
    await desk.lifecycle.game_join(ann, "Red", "red")
    await desk.lifecycle.game_join(bo, "Blue", "blue")  # full: it starts
    sender = FakeSender()
    await Notifier(service, sender, render=False, clock=Clock(1_700_000_000.0)).run_once()
    red = (await desk.news.read(ann)).text
    blue = (await desk.news.read(bo)).text
    assert "Welcome to Feud, Red!" in red and "Blue!" not in red
    assert "Welcome to Feud, Blue!" in blue and "Red!" not in blue
    assert "<t:1700000000:f>" in red  # when, in the reader's own time
    # a moderator of another server, in a channel of theirs, reads nothing of anyone's
    mod = Caller("9", "mod", "777", "778", moderator=True)
    with pytest.raises(UserError, match="not in a game"):
        await desk.news.read(mod)
    # a moderator of this server, in the game's channel, reads only their own (none)
    here = Caller("8", "boss", GUILD, CHANNEL, moderator=True)
    assert "no reports" in (await desk.news.read(here)).text


async def test_news_pages_newest_first_within_one_message(service) -> None:
    desk = Desk(service)
    ann = Caller("1", "ann", GUILD, CHANNEL)
    made = await desk.lifecycle.game_create(
        ann, "Long war with a long name, forty chars", nations=2
    )
    game = made.refresh_game
    assert game is not None
    await desk.lifecycle.game_join(ann, "Red", "red")
    store = BotStore.of(service.store)
    for i in range(KEPT + 5):
        text = f"report {i:02d} " + "x" * 600
        await store.add_news(game, "1", [text], first_row=100 + i, at=1.7e9 + i, keep=KEPT)
    first = (await desk.news.read(ann, count=KEPT)).text
    assert len(first) <= LIMIT
    assert first.index(f"report {KEPT + 4}") < first.index(f"report {KEPT + 3}")
    assert "`/news page:2`" in first
    seen = []
    number = 1
    while number < 60:
        text = (await desk.news.read(ann, count=KEPT, page=number)).text
        if "(newest first, page" not in text.split("\n")[0]:
            break
        assert len(text) <= LIMIT
        seen += re.findall(r"report (\d+)", text)
        number += 1
    # every kept report, once, newest first; the oldest were trimmed
    assert seen == [f"{i:02d}" for i in range(KEPT + 4, 4, -1)]
    beyond = await desk.news.read(ann, count=KEPT, page=number)
    assert "pages of reports" in beyond.text
    # the 3 latest only: two fit the first page, the third is on the second, and no more
    three = [(await desk.news.read(ann, count=3, page=p)).text for p in (1, 2)]
    assert [re.findall(r"report (\d+)", t) for t in three] == [["54", "53"], ["52"]]
    assert "page 2/2" in three[1] and "`/news page:3`" not in three[1]


async def test_news_keeps_what_the_dm_leaves_out_and_each_side_reads_its_own(service) -> None:
    """A player's own orders are not DMed again (their replies told them), but /news keeps
    them with the rest; the other side reads its own wording of the same events."""
    from engine.strategic import commands as cmd
    from engine.strategic.scenario import build_world
    from tests.bot.test_notifier import USERS, WORLD

    world, _ = build_world(WORLD)
    game = await service.create_game(name="Notify", world=world, guild_id=GUILD, channel_id=CHANNEL)
    assert await service.store.members(game) == USERS
    await service.submit(game, "red", cmd.SetRelation(other="blue", level="war"))
    sender = FakeSender()
    await Notifier(service, sender, render=False).run_once()
    assert sender.to("100") == []  # red's own declaration: its reply said it
    desk = Desk(service)
    red = (await desk.news.read(Caller("100", "red", GUILD, CHANNEL))).text
    blue = (await desk.news.read(Caller("200", "blue", GUILD, CHANNEL))).text
    assert "You are now at war with Blue" in red
    assert "Red declared war on you!" in blue and "You are now at war" not in blue
