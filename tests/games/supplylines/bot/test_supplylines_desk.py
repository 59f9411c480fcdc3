"""Supply Lines through the bot's desk (what `/game create kind:supply-lines`, `/game join` and
`/orders ...` do): a game made and joined in a channel, orders added, listed, refused, cleared
and submitted, the board, a supply answer, suggestions, and the other game's commands refused."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.context import Caller, UserError
from bot.desk import Desk
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from bot.games.supplylines.orders import Orders
from engine.host.service import GameService

GUILD, CHANNEL = "10", "11"
ANN = Caller("100", "ann", GUILD, CHANNEL)
BOB = Caller("200", "bob", GUILD, CHANNEL)
EVE = Caller("300", "eve", GUILD, CHANNEL)


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "desk.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def duel(desk: Desk) -> int:
    reply = await desk.lifecycle.game_create(
        ANN, "Duel", kind="supply-lines", nations=2, turn_hours=12
    )
    assert "Supply Lines on Duel (2 players)" in reply.text
    assert "a turn every 12 hours" in reply.text and not reply.ephemeral
    joined = await desk.lifecycle.game_join(ANN, "Ann")
    assert "your home city is H1" in joined.text
    joined = await desk.lifecycle.game_join(BOB, "Bob")
    assert "your home city is H2" in joined.text and "has started" in joined.text
    games = await desk.service.games(guild_id=GUILD)
    return games[0].id


async def test_orders_are_added_listed_submitted_and_the_turn_resolves(desk) -> None:
    game = await duel(desk)
    reply = await desk.part(Orders).orders_add(ANN, "h1>c1")
    assert "Order kept: `H1 > C1`." in reply.text and reply.ephemeral
    assert "1. `H1 > C1`" in reply.text and "PopCap 1/1" in reply.text
    assert "resolves in 12 hours at the latest" in reply.text
    with pytest.raises(UserError, match="C3 is not next to H1"):
        await desk.part(Orders).orders_add(ANN, "H1 > C3")
    listed = await desk.part(Orders).orders_list(ANN)
    assert "1. `H1 > C1`" in listed.text and "Not submitted" in listed.text
    assert (
        "none yet" in (await desk.part(Orders).orders_list(BOB)).text
    )  # Bob never sees Ann's orders
    waiting = await desk.part(Orders).orders_submit(ANN)
    assert "Waiting for Bob." in waiting.text
    done = await desk.part(Orders).orders_submit(BOB)
    assert "turn 1 has resolved" in done.text
    board = await desk.part(Orders).orders_board(ANN)
    assert "`C1` you: your infantry 1" in board.text and "`H2` Bob: infantry 2 (to" in board.text
    assert board.files[0][0] == "board.png" and board.files[0][1].startswith(b"\x89PNG")
    world = await desk.service.live_world(game)
    assert world.owners["C1"] == "ann" and world.turn == 1


async def test_clearing_takes_orders_and_the_submission_back(desk) -> None:
    await duel(desk)
    await desk.part(Orders).orders_add(ANN, "H1 > C1")
    await desk.part(Orders).orders_submit(ANN)
    cleared = await desk.part(Orders).orders_clear(ANN)
    assert "every unit holds" in cleared.text
    listed = await desk.part(Orders).orders_list(ANN)
    assert "none yet" in listed.text and "Not submitted" in listed.text


async def test_suggestions_offer_the_callers_own_moves_and_builds(desk) -> None:
    await duel(desk)
    offered = [value for _, value in await desk.part(Orders).choose_orders(ANN, "")]
    assert "H1 > C1" in offered and "Build 1 Infantry@H1" in offered and "Concede" in offered
    assert not any(o.startswith("H2") for o in offered)  # Bob's units are not Ann's to move
    typed = [value for _, value in await desk.part(Orders).choose_orders(ANN, "H1 > C")]
    assert typed[0] == "H1 > C" and all("H1 > C" in o for o in typed)
    assert await desk.part(Orders).choose_orders(EVE, "") == []  # not a player: nothing


async def test_a_supply_answer_needs_a_question(desk) -> None:
    await duel(desk)
    with pytest.raises(UserError, match="no supply question"):
        await desk.part(Orders).orders_supply(ANN, "1")
    with pytest.raises(UserError, match="by their numbers"):
        await desk.part(Orders).orders_supply(ANN, "the tank")


async def test_each_games_commands_refuse_the_other_kind(desk) -> None:
    await duel(desk)
    with pytest.raises(UserError, match="is a Supply Lines game, and this command is for"):
        await desk.part(Playing).move(ANN, "1", "2,2")
    with pytest.raises(UserError, match="give its orders with `/orders add`"):
        await desk.part(Intel).status(ANN)
    with pytest.raises(UserError, match="You do not play in game"):
        await desk.part(Orders).orders_list(EVE)


async def test_a_supply_lines_game_is_made_on_the_map_asked_for(desk) -> None:
    """The map is a hand-made one (by default the one for the players asked for, else
    four players), or a fair generated one; what does not fit is refused, with no game made."""
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"nations": 9}, "Supply Lines is for 2 to 6 players"),
        ({"nations": 10**4999, "map_name": "six"}, "Supply Lines is for 2 to 6 players"),
        ({"map_name": "duel", "nations": 3}, "The map duel is for 2 players, not 3"),
        ({"map_name": "atlantis"}, "There is no Supply Lines map 'atlantis'"),
        ({"map_name": "random", "nations": 7}, "Supply Lines is for 2 to 6 players"),
        ({"ruleset": "classic"}, "Supply Lines has the rules standard"),
        ({"size": "large"}, "random-large"),
        ({"days": 400}, "1 to 365 days"),
    ]
    for options, message in refusals:
        with pytest.raises(UserError, match=re.escape(message)):
            await desk.lifecycle.game_create(ANN, "Crowd", kind="supply-lines", **options)
    with pytest.raises(UserError, match="There is no game"):
        await desk.lifecycle.game_create(ANN, "Chess", kind="chess", nations=2)
    with pytest.raises(UserError, match="Strategic Initiative games have no map_name option"):
        await desk.lifecycle.game_create(ANN, "Empire", map_name="duel")
    assert await desk.service.games(guild_id=GUILD) == []

    made = await desk.lifecycle.game_create(ANN, "Default", kind="supply-lines")
    assert "Four Winds (4 players)" in made.text
    assert made.refresh_game is not None
    assert (await desk.service.summary(made.refresh_game)).seats == 4
    three = await desk.lifecycle.game_create(
        Caller("100", "ann", GUILD, "c3"), "Three", kind="supply-lines", nations=3
    )
    assert three.refresh_game is not None
    assert (await desk.service.summary(three.refresh_game)).seats == 3
    drawn = await desk.lifecycle.game_create(
        Caller("100", "ann", GUILD, "c4"),
        "Drawn",
        kind="supply-lines",
        map_name="random-small",
        nations=5,
    )
    assert drawn.refresh_game is not None
    summary = await desk.service.summary(drawn.refresh_game)
    assert summary.seats == 5 and summary.board.startswith("Random map (5 players, small")
    assert "Random map (5 players, small" in drawn.text


async def test_a_moderator_resolves_a_turn_now_or_gives_more_time(desk) -> None:
    game = await duel(desk)
    mod = Caller("900", "mod", GUILD, CHANNEL, moderator=True)
    with pytest.raises(UserError, match="Only moderators"):
        await desk.part(Orders).mod_deadline(ANN, now=True)
    before = (await desk.service.live_world(game)).deadline
    more = await desk.part(Orders).mod_deadline(mod, hours=2)
    assert "2 more hours" in more.text and more.announce is not None
    assert (await desk.service.live_world(game)).deadline == before + 8
    with pytest.raises(UserError, match="not both"):
        await desk.part(Orders).mod_deadline(mod, now=True, hours=1)
    await desk.part(Orders).orders_add(ANN, "H1 > C1")
    done = await desk.part(Orders).mod_deadline(mod, now=True)
    assert "resolved the current phase" in done.text
    world = await desk.service.live_world(game)
    assert world.turn == 1 and world.owners["C1"] == "ann"


async def test_a_player_cannot_move_a_deadline(desk) -> None:
    from engine.errors import CommandError
    from engine.supplylines.kind import SetDeadline

    game = await duel(desk)
    with pytest.raises(CommandError, match="only a moderator"):
        await desk.service.submit(game, "ann", SetDeadline(now=True))


async def test_a_player_away_hands_their_orders_to_the_caretaker_and_takes_them_back(
    desk,
) -> None:
    """`/game caretaker on:True` in a Supply Lines game: the AI gives the player's orders and
    submits them (the status board says so), and `on:False` gives the seat back."""
    from engine.host.runner import AiRunner

    game = await duel(desk)
    reply = await desk.lifecycle.game_caretaker(ANN, True)
    assert "attacks no other player" in reply.text
    assert "(AI caretaker)" in await desk.lifecycle.status_board(game)
    await AiRunner(desk.service).run_once()
    listed = await desk.part(Orders).orders_list(ANN)
    assert "Submitted." in listed.text
    assert "turn 1, orders (1/2 submitted)" in await desk.lifecycle.status_board(game)
    back = await desk.lifecycle.game_caretaker(ANN, False)
    assert "yours again" in back.text
    assert "(AI caretaker)" not in await desk.lifecycle.status_board(game)
    with pytest.raises(UserError, match="not in the AI's care"):
        await desk.lifecycle.game_caretaker(ANN, False)
    with pytest.raises(UserError, match="You do not play in game"):
        await desk.lifecycle.game_caretaker(EVE, True)


async def test_resigning_a_supply_lines_game_is_a_concession(desk) -> None:
    """`/game resign` (with its button) in Supply Lines: the player concedes at once, their
    structures and units become neutral, and in a duel the other player has won."""
    game = await duel(desk)
    asked = await desk.lifecycle.game_resign(BOB)
    assert asked.confirm is not None and "You concede at once" in asked.text
    with pytest.raises(UserError, match="Only the player who asked"):
        await desk.confirm(ANN, asked.confirm.token)
    done = await desk.confirm(BOB, asked.confirm.token)
    assert "Bob has resigned" in done.text
    world = await desk.service.live_world(game)
    assert world.players["bob"].out and world.players["bob"].conceded
    assert "bob" not in world.owners.values()
    assert world.winner == "ann" and world.ended
    assert (await desk.service.game(game)).status == "ended"
    with pytest.raises(UserError, match="has started|over|ended"):
        await desk.lifecycle.game_leave(ANN)


async def test_a_game_without_turn_deadlines_says_so_everywhere(desk) -> None:
    made = await desk.lifecycle.game_create(
        ANN, "Patient", kind="supply-lines", nations=2, turn_hours=0
    )
    assert "a turn as soon as everyone has submitted (no deadline" in made.text
    await desk.lifecycle.game_join(ANN, "Ann")
    await desk.lifecycle.game_join(BOB, "Bob")
    assert made.refresh_game is not None
    board = await desk.lifecycle.status_board(made.refresh_game)
    assert "turn 1, orders (0/2 submitted), until everyone has submitted" in board
    assert "<t:" not in board  # no deadline to show in real time
    listed = await desk.part(Orders).orders_list(ANN)
    assert "once everyone has submitted (the game has no turn deadline)" in listed.text
    mod = Caller("900", "mod", GUILD, CHANNEL, moderator=True)
    with pytest.raises(UserError, match="no deadline"):
        await desk.part(Orders).mod_deadline(mod, hours=2)


async def test_help_in_a_supply_lines_game_explains_supply_lines(desk) -> None:
    """/help answers with the game's own rules: Supply Lines' pages (numbers from its
    ruleset), not Strategic Initiative's; a topic it does not have says so."""
    await duel(desk)
    start = (await desk.guide.help(ANN)).text
    assert "Help: first steps** (Supply Lines)" in start and "/orders add" in start
    units = (await desk.guide.help(ANN, "units")).text
    assert "**tank**: strength 4, PopCap 2, needs 2 supply lines" in units
    assert "**R** refinery: 1 supply line" in units
    supply = (await desk.guide.help(EVE, "supply")).text  # not a player: the channel's game
    assert "At 3 marks a unit is immobile" in supply
    assert "Supply Lines has no cp" in (await desk.guide.help(ANN, "cp")).text
    assert "`C2 > C3`" in (await desk.guide.help(ANN, "commands")).text
    with pytest.raises(UserError, match="no help topic"):
        await desk.guide.help(ANN, "tactics")


async def test_one_order_can_be_taken_back_by_its_number(desk) -> None:
    """`/orders clear number:2`: that order only; the others stay, in order; a number that is
    not there is refused and changes nothing; taking one back takes a submission back too."""
    from tests.games.supplylines.engine.scenario import build_state

    state = build_state(
        {
            "roads": "H1-C1 H1-C2 C1-H2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 2 infantry @ H1", "b 1 infantry @ H2"],
        }
    )
    state.started, state.deadline = True, 96
    state.players["a"].user, state.players["b"].user = "100", "200"
    game = await desk.service.create_game(
        name="Two", kind="supply-lines", world=state, guild_id=GUILD, channel_id=CHANNEL
    )
    first, second = "1 Infantry @ H1 > C1", "1 Infantry @ H1 > C2"
    for text in (first, second):
        await desk.part(Orders).orders_add(ANN, text)
    await desk.part(Orders).orders_submit(ANN)
    with pytest.raises(UserError, match="no order 3 \\(you have 2 this turn\\)"):
        await desk.part(Orders).orders_clear(ANN, 3)
    world = await desk.service.live_world(game)
    assert [o.text() for o in world.orders["a"]] == [first, second]
    assert "a" in world.submitted
    reply = await desk.part(Orders).orders_clear(ANN, 1)
    assert reply.text.startswith(f"Order taken back: `{first}`.")
    assert f"1. `{second}`" in reply.text and "Not submitted" in reply.text
    world = await desk.service.live_world(game)
    assert [o.text() for o in world.orders["a"]] == [second] and "a" not in world.submitted
    await desk.part(Orders).orders_clear(ANN, 1)
    with pytest.raises(UserError, match="no orders this turn"):
        await desk.part(Orders).orders_clear(ANN, 1)
