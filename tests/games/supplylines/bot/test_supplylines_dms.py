"""Supply Lines' events reach its players by DM through the same notifier as Strategic
Initiative's, in their own words (`bot.games.supplylines.notices`): each turn's result to every
player from their side, a supply question only to the player asked."""

from __future__ import annotations

import pytest

from bot.dm.notifier import Notifier, PlayerSettings, save_settings
from bot.dm.tellers import teller
from bot.games.supplylines import notices as words
from bot.games.supplylines.orders import Orders
from bot.store import BotStore
from engine.host.service import GameService
from engine.supplylines.kind import ChooseSupply, GiveOrder, SubmitOrders
from tests.bot.test_notifier import Clock, FakeSender
from tests.games.supplylines.engine.scenario import build_state, short_of_a_road

T0 = 1_700_000_000.0


@pytest.fixture
async def service(tmp_path):
    # games made running at T0, and the service's clock there (commands catch a game up to it)
    svc = await GameService.open(str(tmp_path / "sl.db"), synchronous="NORMAL", clock=lambda: T0)
    yield svc
    await svc.close()


async def test_each_player_hears_the_turn_from_their_side(service) -> None:
    game = await service.create_game(name="Duel", kind="supply-lines", max_nations=2, now=T0)
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    bob = await service.join(game, name="Bob", colour="#2980b9", player="200")
    sender = FakeSender()
    notifier = Notifier(service, sender, render=True, clock=Clock(T0))
    await notifier.run_once()
    started = sender.to("100")
    assert started and "The game has started" in started[-1] and "/orders add" in started[-1]
    sender.sent.clear()
    await service.submit(game, ann, GiveOrder(text="H1 > C1"))
    await service.submit(game, bob, GiveOrder(text="H2 > C4"))
    await service.submit(game, ann, SubmitOrders())
    await service.submit(game, bob, SubmitOrders())
    await notifier.run_once()
    to_ann, to_bob = "\n".join(sender.to("100")), "\n".join(sender.to("200"))
    # each turn's report comes with a picture of the board
    for user in ("100", "200"):
        (name, png), *_ = sender.files(user)
        assert name == "map.png" and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert "Duel" in to_ann and "Turn 1:" in to_ann
    assert "You took C1." in to_ann and "Elsewhere: Bob took C4." in to_ann
    assert "You took C4." in to_bob and "Elsewhere: Ann took C1." in to_bob
    assert "Orders for turn 2 are due in 24 hours." in to_ann
    # kept for /news as well
    news = await BotStore.of(service.store).news(game, "100", 10)
    assert any("You took C1." in n.text for n in news)


async def test_a_supply_question_is_told_to_the_player_asked_only(service) -> None:
    state = short_of_a_road()
    game = await service.create_game(name="Short", kind="supply-lines", world=state, now=T0)
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False, clock=Clock(T0))
    await service.submit(game, "a", SubmitOrders())
    await service.submit(game, "b", SubmitOrders())
    await notifier.run_once()
    asked = [t for t in sender.to("100") if "Supply for turn 1" in t]
    assert len(asked) == 1 and "1 line for infantry 1 at C1" in asked[0]
    assert "within 1 hour" in asked[0] and "units 1 are supplied" in asked[0]
    assert not any("Supply for turn" in t for t in sender.to("200"))
    # the question comes with a select menu of the units, the default chosen
    (user, menu), *more = sender.menus
    assert user == "100" and not more
    assert menu.custom_id == f"sl:supply:{game}:1" and menu.max_values == 2
    assert [(value, on) for _, value, on in menu.options] == [("1", True), ("2", False)]
    await service.submit(game, "a", ChooseSupply(units=[2]))
    await notifier.run_once()
    assert any("Orders for turn 2" in t for t in sender.to("200"))


async def test_a_player_who_mutes_the_turns_hears_only_the_game(service) -> None:
    game = await service.create_game(name="Duel", kind="supply-lines", max_nations=2, now=T0)
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    bob = await service.join(game, name="Bob", colour="#2980b9", player="200")
    await save_settings(BotStore.of(service.store), "100", PlayerSettings(muted=["combat"]))
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False, clock=Clock(T0))
    await service.submit(game, ann, GiveOrder(text="H1 > C1"))
    await service.submit(game, ann, SubmitOrders())
    await service.submit(game, bob, SubmitOrders())
    await notifier.run_once()
    to_ann = "\n".join(sender.to("100"))
    assert "You took C1." not in to_ann  # the turn's moves and conflicts: "combat"
    assert "Orders for turn 2" in to_ann  # the turn's end and the deadline: "game"
    assert "Elsewhere: Ann took C1." in "\n".join(sender.to("200"))  # Bob muted nothing


def test_every_supply_lines_event_has_words_and_a_category() -> None:
    from typing import get_args

    from bot.dm.text import CATEGORIES
    from engine.supplylines import events as ev

    union = get_args(get_args(ev.AnyEvent)[0])
    told = teller("supply-lines")
    assert set(union) == set(words.CATEGORY)
    for cls in union:
        assert told.category(cls.model_construct()) in CATEGORIES, cls


def test_a_game_without_a_bot_side_has_no_teller_and_stops_the_bot() -> None:
    """Its DMs are never marked delivered with none sent: there is no teller to ask, and the
    bot refuses to start (`check_sides`), naming the game."""
    from bot.game_side import NoBotSide, check_sides, forget
    from engine.interface.kind import KINDS, register

    register("no-words", "tests.games.counter.core:KIND")
    try:
        with pytest.raises(NoBotSide, match="no-words"):
            teller("no-words")
        assert check_sides() == [
            "game 'no-words': the game 'no-words' has no bot side: the bot cannot host it"
        ]
    finally:
        KINDS.pop("no-words", None)
        forget("no-words")
    assert check_sides() == []


async def test_a_bump_back_chain_is_told_to_each_player_caught_in_it(service) -> None:
    """a attacks b's tank at C2 and is bumped back to C1, which c has just walked into: a
    second conflict there (a tie, so a is bumped on home to H1). a hears both conflicts and
    where its unit went; b hears only the first; c hears the second, which it won no part of."""
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2 C1-C3 C3-H3",
            "owners": {"a": "H1 C1", "b": "H2 C2", "c": "H3 C3"},
            "units": ["a 1 infantry @ C1", "b 1 tank @ C2", "c 1 infantry @ C3"],
        }
    )
    state.started, state.deadline, state.turn_ticks = True, 96, 96
    for p, user in (("a", "100"), ("b", "200"), ("c", "300")):
        state.players[p].user = user
    game = await service.create_game(name="Chain", kind="supply-lines", world=state, now=T0)
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False, clock=Clock(T0))
    await service.submit(game, "a", GiveOrder(text="C1 > C2"))
    await service.submit(game, "c", GiveOrder(text="C3 > C1"))
    for p in ("a", "b", "c"):
        await service.submit(game, p, SubmitOrders())
    await notifier.run_once()
    to_a, to_b, to_c = ("\n".join(sender.to(u)) for u in ("100", "200", "300"))
    assert "Conflict at C2 (you 1, B 4): B won. Your unit 1 bumped back to C1." in to_a
    assert (
        "Conflict at C1 (round 2: units bumped back made it) (you 1, C 1): a tie. "
        "Your unit 1 bumped back to H1." in to_a
    )
    assert "Conflict at C2 (A 1, you 4): you won." in to_b and "round 2" not in to_b
    assert (
        "Conflict at C1 (round 2: units bumped back made it) (A 1, you 1): a tie. "
        "Your unit 3 bumped back to C3." in to_c
    )
    assert "took C1" not in to_a + to_c  # a tie: C1 stays A's


async def test_a_player_over_their_popcap_is_told_which_units_go_before_ordering(service) -> None:
    """a's turn ends with 2 infantry but 1 city (b took C1): the turn's DM says which unit the
    next turn disbands, and `/orders list` says it again while a gives orders."""
    from bot.context import Caller
    from bot.desk import Desk

    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1", "b": "H2 C2"},
            "units": ["a 1 infantry @ H1", "a 1 infantry @ C1", "b 1 tank @ C2"],
        }
    )
    state.started, state.deadline, state.turn_ticks = True, 96, 96
    for p, user in (("a", "100"), ("b", "200")):
        state.players[p].user = user
    game = await service.create_game(
        name="Squeeze", kind="supply-lines", world=state, now=T0, channel_id="11", guild_id="10"
    )
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False, clock=Clock(T0))
    await service.submit(game, "b", GiveOrder(text="C2 > C1"))
    for p in ("a", "b"):
        await service.submit(game, p, SubmitOrders())
    world = await service.live_world(game)
    assert world.owners["C1"] == "b" and world.phase == "supply"  # a: 1 line, 2 infantry
    first, second = sorted(u.id for u in world.units_of("a"))  # both home: C1 was lost
    await service.submit(game, "a", ChooseSupply(units=[first]))
    await notifier.run_once()
    world = await service.live_world(game)
    assert world.phase == "orders" and world.units[second].marks == 1
    # the marked one goes first
    told = "\n".join(sender.to("100"))
    assert f"Over your PopCap: turn 2 begins by disbanding units {second} " in told
    listed = await Desk(service).part(Orders).orders_list(Caller("100", "a", "10", "11"))
    assert "PopCap 2/1" in listed.text
    assert f"the turn begins by disbanding infantry {second} at H1" in listed.text
    assert "Over your PopCap" not in "\n".join(sender.to("200"))


async def test_a_resignation_mid_turn_announces_no_new_turn(service) -> None:
    """A player resigns in the middle of a turn: the others hear it, and nothing about a turn
    beginning (none has: the turn goes on, its deadline unchanged)."""
    game = await service.create_game(name="Three", kind="supply-lines", max_nations=3, now=T0)
    for name, user in (("Ann", "100"), ("Bob", "200"), ("Cat", "300")):
        await service.join(game, name=name, colour="#888888", player=user)
    sender = FakeSender()
    notifier = Notifier(service, sender, render=False, clock=Clock(T0))
    await notifier.run_once()
    sender.sent.clear()
    await service.resign(game, "cat")
    await notifier.run_once()
    to_ann = "\n".join(sender.to("100"))
    assert "Cat conceded." in to_ann
    assert "Orders for turn" not in to_ann and "resolves once everyone" not in to_ann


def test_a_player_hears_of_their_own_units_going_immobile_only() -> None:
    from engine.supplylines import events as ev

    ended = ev.TurnEnded(
        tick=96,
        to=["ann", "bob"],
        turn=4,
        unsupplied=[2, 5],
        immobilised=[2, 5],
        restored=[7],
        owners={2: "bob", 5: "ann", 7: "bob"},
        deadline=192,
    )
    names = {"ann": "Ann", "bob": "Bob"}
    ann = " ".join(words.describe(ended, "ann", names))
    bob = " ".join(words.describe(ended, "bob", names))
    assert "now immobile: units 5." in ann and "mobile again" not in ann
    assert "now immobile: units 2." in bob and "mobile again: units 7." in bob
