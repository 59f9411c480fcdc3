"""The desk: players' and moderators' actions as a player meets them (Discord-free)."""

from __future__ import annotations

import pytest

from bot.context import Caller, UserError
from bot.desk import Desk
from bot.games.strategic import selectors
from bot.games.strategic.choices import Choices
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from engine.host.service import GameService
from engine.strategic.rules import load as load_rules

GUILD, CHANNEL = "900", "901"


def caller(user: str, *, moderator: bool = False, channel: str = CHANNEL) -> Caller:
    return Caller(
        user_id=user, name=f"user{user}", guild_id=GUILD, channel_id=channel, moderator=moderator
    )


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def started(desk: Desk) -> int:
    reply = await desk.lifecycle.game_create(
        caller("1"), "Test war", nations=2, speed="test (x360)"
    )
    assert not reply.ephemeral and "is open in this channel" in reply.text
    await desk.lifecycle.game_join(caller("1"), "Red", "red")
    joined = await desk.lifecycle.game_join(caller("2"), "Blue", "blue")
    assert "has started" in joined.text  # full: it starts by itself
    assert reply.refresh_game is not None  # a new game's reply names it (its status board)
    return reply.refresh_game


async def test_a_game_is_created_joined_and_started_in_its_channel(desk: Desk) -> None:
    game = await started(desk)
    status = await desk.part(Intel).status(caller("1"))
    assert "Red in" in status.full_text and "Command points" in status.full_text
    board = await desk.lifecycle.status_board(game)
    assert "<@1>" in board and "<@2>" in board and "running" in board
    with pytest.raises(UserError, match="already hosts game"):
        await desk.lifecycle.game_create(caller("3"), "Another", nations=2)
    with pytest.raises(UserError, match="not in a game"):
        await desk.part(Intel).status(caller("3", channel="elsewhere"))


async def test_orders_go_through_and_bad_input_gets_a_clear_message(desk: Desk) -> None:
    await started(desk)
    units = await desk.part(Intel).units(caller("1"))
    first = int(units.full_text.splitlines()[1].split("`")[1])
    view = await desk.ctx.view(1, "red")
    unit = view.unit(first)
    assert unit is not None  # listed by /units: red's own
    sq = unit.sq
    x, y = sq % view.width, sq // view.width
    reply = await desk.part(Playing).move(caller("1"), str(first), f"{x},{(y + 1) % view.height}")
    assert "moved" in reply.text.lower() or "order" in reply.text.lower()
    with pytest.raises(UserError, match="off the map"):
        await desk.part(Playing).move(caller("1"), str(first), f"{view.width + 5},1")
    with pytest.raises(UserError, match="'tnak' is not a unit id or a kind of unit"):
        await desk.part(Playing).move(caller("1"), "tnak", "1,1")
    with pytest.raises(UserError, match=r"^You have no tanks\.$"):  # red has none yet
        await desk.part(Playing).move(caller("1"), "tanks", "1,1")
    blue_unit = next(u.id for u in (await desk.ctx.view(1, "blue")).own_units())
    with pytest.raises(UserError) as err:
        await desk.part(Playing).move(caller("1"), str(blue_unit), "1,1")
    assert "blue" not in str(err.value).lower()  # never says whose unit it is
    with pytest.raises(UserError, match=rf"^Infantry {first} cannot be launched\.$"):
        await desk.part(Playing).launch(
            caller("1"), first, "1,1"
        )  # nothing to launch: nothing is sent
    choices = await desk.part(Choices).choose_units(caller("1"), "")
    assert choices and all("Blue" not in label for label, _ in choices)
    # ids and selectors ("all at 3,4", "all infantry"): each chooses only red's own units
    now = await desk.ctx.view(1, "red")  # as it is since the move
    own = {u.id for u in now.own_units()}
    rules = load_rules(now.ruleset)
    for _, value in choices:
        chosen = selectors.resolve(value, now, rules).chosen
        assert chosen and set(chosen) <= own, value


async def test_moderators_only(desk: Desk) -> None:
    await started(desk)
    with pytest.raises(UserError, match="Only moderators"):
        await desk.moderation.mod_pause(caller("1"))
    reply = await desk.moderation.mod_pause(caller("9", moderator=True))
    assert "paused" in reply.text
    await desk.moderation.mod_resume(caller("9", moderator=True))
    ticked = await desk.moderation.mod_tick(caller("9", moderator=True), 8)
    assert "8 ticks" in ticked.text
    view = await desk.moderation.mod_view(caller("9", moderator=True), "Blue")
    assert view.files and view.files[0][1][:8] == b"\x89PNG\r\n\x1a\n"
    ask = await desk.moderation.mod_end(caller("9", moderator=True))
    assert ask.confirm is not None
    with pytest.raises(UserError, match="Only the player who asked"):
        await desk.confirm(caller("1"), ask.confirm.token)
    done = await desk.confirm(caller("9", moderator=True), ask.confirm.token)
    assert "ended" in done.text
    assert (await desk.ctx.service.game(1)).status == "ended"


async def test_diplomacy_reads_names_and_the_answer_from_the_view(desk: Desk) -> None:
    await started(desk)
    war = await desk.part(Playing).diplomacy(caller("1"), "blue", "war")
    assert war.text == "Your relation to Blue is now war. You are now mutually at war."
    with pytest.raises(UserError, match="already at war with Red"):
        await desk.part(Playing).diplomacy(caller("2"), "red", "war")
    with pytest.raises(UserError, match="no other nation called 'Green'"):
        await desk.part(Playing).diplomacy(caller("1"), "Green", "war")
    with pytest.raises(UserError, match="not a relation"):
        await desk.part(Playing).diplomacy(caller("1"), "Blue", "best friends")
    status = await desk.part(Intel).status(caller("1"))
    assert "Next unit update: day 1 04:00" in status.full_text


async def test_the_creator_fills_seats_with_ai_nations_of_a_chosen_level(desk: Desk) -> None:
    reply = await desk.lifecycle.game_create(caller("1"), "Robots", nations=3, speed="test (x360)")
    game = reply.refresh_game
    assert game is not None  # a new game's reply names it (its status board)
    await desk.lifecycle.game_join(caller("1"), "Red", "red")
    with pytest.raises(UserError, match="level is one of: easy, normal"):
        await desk.lifecycle.game_add_ai(caller("1"), "Hal", level="nightmare")
    with pytest.raises(UserError, match="creator or a moderator"):
        await desk.lifecycle.game_add_ai(caller("2"), "Hal")
    assert len((await desk.ctx.service.live_world(game)).nations) == 1  # nothing changed
    easy = await desk.lifecycle.game_add_ai(caller("1"), "Hal", level="easy")
    assert "**Hal** (AI, easy) joins" in easy.text
    full = await desk.lifecycle.game_add_ai(caller("1"), "Deep Blue")
    assert "**Deep Blue** (AI) joins" in full.text and "it has started" in full.text
    row = await desk.ctx.service.game(game)
    assert sorted(row.settings["ai"].values()) == ["easy", "normal"]


async def test_designating_a_city_that_can_build_nothing_yet_says_what_would_fix_it(
    desk: Desk,
) -> None:
    await started(desk)
    view = await desk.ctx.view(1, "red")
    city = view.own_cities()[0]
    reply = await desk.part(Playing).designate(caller("1"), view.label(city.sq), "airport")
    assert reply.text == (
        f"The city at {view.label(city.sq)} is now an airport; it builds nothing until your tech "
        f"reaches 6 (yours is {view.status.tech:.2f}), when it can build Fighter; designate it "
        "something it can build now meanwhile."
    )


async def test_the_command_points_an_hour_in_status_are_what_an_hour_brings(desk: Desk) -> None:
    import re

    game = await started(desk)
    before = (await desk.ctx.view(game, "red")).status.cp
    shown = re.search(
        r"\(\+(\d+) an hour\)", (await desk.part(Intel).status(caller("1"))).full_text
    )
    assert shown, "status shows the command points an hour"
    await desk.ctx.service.advance(game, (await desk.ctx.service.summary(game)).ticks_per_hour)
    assert (await desk.ctx.view(game, "red")).status.cp - before == int(shown.group(1))


async def test_an_order_finds_its_game_once_and_the_next_order_looks_again(
    desk: Desk, monkeypatch
) -> None:
    game = await started(desk)
    looks: list[int | None] = []
    look = desk.ctx._seat

    async def counted(caller_, game_id=None):
        looks.append(game_id)
        return await look(caller_, game_id)

    monkeypatch.setattr(desk.ctx, "_seat", counted)
    view = await desk.ctx.view(game, "red")
    unit = view.own_units()[0]
    to = f"{unit.sq % view.width},{(unit.sq // view.width + 1) % view.height}"
    await desk.part(Playing).move(caller("1"), str(unit.id), to)
    assert looks == [None]  # its view, its submission and its reply: one look
    # the channel's game ends and another begins there: the next order is the new game's
    await desk.ctx.service.end(game)
    again = await started(desk)
    assert again != game
    looks.clear()
    view = await desk.ctx.view(again, "red")
    unit = view.own_units()[0]
    to = f"{unit.sq % view.width},{(unit.sq // view.width + 1) % view.height}"
    await desk.part(Playing).move(caller("1"), str(unit.id), to)
    assert looks == [None]
    moved = await desk.ctx.view(again, "red")
    assert moved.unit(unit.id) != unit  # it moved (or took the order) in the new game
