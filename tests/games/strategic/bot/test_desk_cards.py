"""The cards a player reads (/status, /cities, /nations): the numbers that decide what is
possible, with the time they change, and the public scoreboard."""

from __future__ import annotations

import re

import pytest

from bot.context import Caller, UserError
from bot.desk import Desk
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from bot.store import BotStore
from engine.host.service import GameService
from engine.strategic import commands as cmd
from engine.strategic.rules import load as load_rules
from tests.bot.test_desk import caller, started
from tests.games.strategic.worlds import STRIP, strip_world


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def test_cities_say_when_each_build_is_ready(desk: Desk) -> None:
    game = await started(desk)
    service = desk.ctx.service
    view = await desk.ctx.view(game, "red")
    city = next(c for c in view.own_cities() if c.build)
    x, y = city.sq % view.width, city.sq // view.width
    assert city.build is not None
    cost = load_rules(view.ruleset).unit[city.build].cost_hours
    reply = await desk.part(Intel).cities(caller("1"))
    assert reply.embed is not None and reply.embed.colour is not None
    line = next(li for li in reply.embed.description.splitlines() if f"{x},{y}" in li)
    # a fresh infantry build: its whole cost in hours is left, ready that many hours on
    hours = re.search(r"\((\d+) h left\)", line)
    assert hours, line
    summary = await service.summary(game)
    total = int(hours.group(1))
    assert total == cost  # the game just started: nothing of it is built yet
    assert f"ready {summary.clock(view.tick + total * summary.ticks_per_hour)}" in line
    # an hour later, an hour less is left
    await service.advance(game, summary.ticks_per_hour)
    later = (await desk.part(Intel).cities(caller("1"))).embed
    assert later is not None
    line = next(li for li in later.description.splitlines() if f"{x},{y}" in li)
    assert f"({total - 1} h left)" in line


async def test_nations_is_a_scoreboard_of_public_cities(desk: Desk) -> None:
    game = await started(desk)
    service = desk.ctx.service
    reply = await desk.part(Intel).nations(caller("1"))
    card = reply.embed
    assert card is not None
    fields = dict(card.fields)
    red = len((await desk.ctx.view(game, "red")).own_cities())
    blue = len((await desk.ctx.view(game, "blue")).own_cities())
    assert f"**{red}** cities" in fields["Red (you)"]
    assert f"**{blue}** cities" in fields["Blue"] and "you: neutral" in fields["Blue"]
    assert f"holds **{red}** cities" in card.description and "you alone" in card.description
    # mutual allies make a team: its cities count together
    await service.submit(game, "red", cmd.SetRelation(other="blue", level="allied"))
    await service.submit(game, "blue", cmd.SetRelation(other="red", level="allied"))
    summary = await service.summary(game)
    await service.advance(game, summary.ticks_per_day)  # whatever delay the rules give it
    assert (await desk.ctx.view(game, "blue")).nations["red"].relation_to == "allied"
    card = (await desk.part(Intel).nations(caller("2"))).embed
    assert card is not None
    assert f"holds **{red + blue}** cities" in card.description
    assert "you and your mutual allies" in card.description


async def test_status_is_a_card_with_labelled_numbers(desk: Desk) -> None:
    game = await started(desk)
    card = (await desk.part(Intel).status(caller("1"))).embed
    assert card is not None and card.title.startswith("Red in Test war")
    fields = dict(card.fields)
    view = await desk.ctx.view(game, "red")
    assert fields["Command points"] == f"{view.status.cp} (+{view.status.cp_regen} an hour)"
    assert fields["Power"] == f"{view.status.power} of {view.status.power_limit}"
    assert "The game ends" in fields


async def test_an_engineer_short_of_mobility_says_when_it_will_be_ready(tmp_path) -> None:
    units = [dict(u) for u in STRIP["units"]]
    units[4].update(mobility=2, at="16,2")  # Blue's engineer: founding takes more
    service = await GameService.open(str(tmp_path / "e.db"))
    try:
        game = await service.create_game(name="t", world=strip_world(units=units))
        desk = Desk(service)
        blue = Caller(user_id="200", name="blue", guild_id=None, channel_id=None)
        world = await service.live_world(game)
        rules = world.rules
        need = rules.engineer.build_city_mobility
        per = rules.unit["engineer"].mobility
        period = rules.ticks_per_unit_update
        first = (world.units[5].born - world.tick - 1) % period + 1  # its first update, ticks
        ready = world.tick + first + (-(-(need - 2) // per) - 1) * period
        summary = await service.summary(game)
        # /units shows its mobility out of its most, and what the next update brings, when
        listed = (await desk.part(Intel).units(blue, kind="engineer")).full_text
        most = per * rules.mobility.cap_multiple
        assert f"mob 2/{most} (+{per} at {summary.clock(world.tick + first)})" in listed
        with pytest.raises(UserError) as caught:
            await desk.part(Playing).engineer(blue, 5, "build_city")
        text = str(caught.value)
        assert text.startswith(f"Founding a city takes {need} mobility; unit 5 has 2.")
        assert f"It will have it at {summary.clock(ready)}" in text
        # nothing changed; a tick before that it still cannot, at that tick it can
        await service.advance(game, ready - world.tick - 1)
        with pytest.raises(UserError, match="mobility"):
            await desk.part(Playing).engineer(blue, 5, "build_city")
        await service.advance(game, 1)
        reply = await desk.part(Playing).engineer(blue, 5, "build_city")
        assert reply.text.startswith("Engineer 5 founded a city at 16,2.")
    finally:
        await service.close()


async def test_a_war_says_what_else_it_changed_and_the_dm_does_not_repeat_it(desk: Desk) -> None:
    """Found by review: a war that pulls a friendship down said only the war, and the DM that
    would have told the rest was left out as answered."""
    from bot.dm.notifier import Notifier
    from tests.bot.test_notifier import FakeSender

    service = desk.ctx.service
    made = await desk.lifecycle.game_create(caller("1"), "T", nations=3, speed="test (x360)")
    for user, name in (("1", "Red"), ("2", "Blue"), ("3", "Green")):
        await desk.lifecycle.game_join(
            caller(user), name, name.lower() if name != "Green" else "lime"
        )
    await desk.part(Playing).diplomacy(caller("1"), "Green", "friendly")
    await desk.part(Playing).diplomacy(caller("3"), "Red", "friendly")
    await desk.part(Playing).diplomacy(caller("2"), "Green", "allied")
    await desk.part(Playing).diplomacy(caller("3"), "Blue", "allied")
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False)
    await notifier.run_once()
    sender.sent.clear()
    reply = await desk.part(Playing).diplomacy(caller("1"), "Blue", "war")
    lines = reply.text.splitlines()
    assert lines[0] == "Your relation to Blue is now war. You are now mutually at war."
    assert "Your stance towards Green becomes **neutral** (was friendly)." in lines
    assert "Green's stance towards you becomes **neutral** (was friendly)." in lines
    await notifier.run_once()
    assert sender.to("1") == []  # all of it in the reply
    assert any("Red" in dm for dm in sender.to("3"))  # Green hears of it from the DMs
    assert made.refresh_game is not None


async def test_cities_say_when_a_build_was_skipped_for_lack_of_power(tmp_path) -> None:
    from engine.strategic.scenario import build_world
    from tests.bot.test_notifier import WORLD

    service = await GameService.open(str(tmp_path / "p.db"))
    try:
        world, _ = build_world(WORLD)  # red sits at its power limit
        world.nations["red"].player = "100"
        game = await service.create_game(name="t", world=world)
        desk = Desk(service)
        red = Caller(user_id="100", name="red", guild_id=None, channel_id=None)
        before = (await desk.part(Intel).cities(red)).full_text
        assert "skipped" not in before
        await service.advance(game, (await service.summary(game)).ticks_per_hour * 8)
        after = (await desk.part(Intel).cities(red)).full_text
        status = (await service.view(game, "red")).status
        assert status.power > status.power_limit - 1  # no room for another infantry
        told = f"**skipped** last time for lack of power ({status.power} of {status.power_limit}"
        assert told in after
    finally:
        await service.close()


async def test_status_after_the_end_shows_no_clock_but_ended_and_the_result(desk: Desk) -> None:
    game = await started(desk)
    await desk.ctx.service.pause(game)
    await desk.ctx.service.end(game)
    card = (await desk.part(Intel).status(caller("1"))).embed
    assert card is not None
    assert card.title == "Red in Test war - ended", card.title
    text = card.title + card.description + "".join(v for _, v in card.fields)
    assert "paused" not in text and "Next unit update" not in dict(card.fields)
    assert "The game ends" not in dict(card.fields)
    summary = await desk.ctx.service.summary(game)
    assert f"The game ended at {summary.clock()}. " in card.description
    assert "Cities at the end: " in card.description
    assert "you " in card.description and "Blue " in card.description
    assert "names the winners" in card.description  # its result not recorded yet
    # once recorded (the bot does at the end), /status names the winners
    await desk.standings.record(game)
    result = await BotStore.of(desk.ctx.service.store).result(game)
    assert result is not None
    first = [p["name"] if p["nation"] != "red" else "you" for p in result.places[0]]
    card = (await desk.part(Intel).status(caller("1"))).embed
    assert card is not None
    assert f"Won by {' and '.join(first)}: " in card.description, card.description


async def test_command_points_at_the_cap_say_that_points_are_being_wasted(desk: Desk) -> None:
    game = await started(desk)
    cap = load_rules((await desk.ctx.view(game, "red")).ruleset).command_points.max
    card = (await desk.part(Intel).status(caller("1"))).embed
    assert card is not None
    fields = dict(card.fields)
    assert "wasted" not in fields["Command points"]
    world = await desk.ctx.service.live_world(game)
    world.nations["red"].cp = cap
    card = (await desk.part(Intel).status(caller("1"))).embed
    assert card is not None
    fields = dict(card.fields)
    assert fields["Command points"].endswith(
        f"at the most ({cap}): what comes is wasted; spend some"
    ), fields["Command points"]


def test_the_sitrep_says_when_command_points_are_wasted() -> None:
    from bot.games.strategic.teller import sitrep_text
    from engine.strategic.view import view_for

    world = strip_world()
    cap = world.rules.command_points.max
    assert "wasted" not in sitrep_text("t", view_for(world, "red"))
    world.nations["red"].cp = cap
    assert f"Command points are at the most ({cap}): what comes is wasted" in sitrep_text(
        "t", view_for(world, "red")
    )
