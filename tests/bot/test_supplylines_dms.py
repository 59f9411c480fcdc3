"""Supply Lines' events reach its players by DM through the same notifier as Strategic
Initiative's, in their own words (`bot.dm.supplylines_notices`): each turn's result to every
player from their side, a supply question only to the player asked."""

from __future__ import annotations

import pytest

from bot.dm import supplylines_notices as words
from bot.dm.notifier import Notifier, PlayerSettings, save_settings
from bot.dm.tellers import Silent, teller
from bot.store import BotStore
from engine.host.service import GameService
from engine.supplylines.kind import ChooseSupply, GiveOrder, SubmitOrders
from tests.bot.test_notifier import Clock, FakeSender
from tests.supplylines.scenario import build_state

T0 = 1_700_000_000.0


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(str(tmp_path / "sl.db"), synchronous="NORMAL")
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
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 1 infantry @ C1", "a 1 infantry @ C2", "b 1 infantry @ H2"],
        }
    )
    state.started, state.deadline, state.turn_ticks = True, 96, 96
    for p, user in (("a", "100"), ("b", "200")):
        state.players[p].user = user
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

    from bot.dm.notices import CATEGORIES
    from engine.supplylines import events as ev

    union = get_args(get_args(ev.AnyEvent)[0])
    told = teller("supply-lines")
    assert set(union) == set(words.CATEGORY)
    for cls in union:
        assert told.category(cls.model_construct()) in CATEGORIES, cls


def test_a_kind_without_words_is_told_to_nobody() -> None:
    silent = teller("no-such-kind-for-dms")
    assert isinstance(silent, Silent) and silent.sitreps is False
