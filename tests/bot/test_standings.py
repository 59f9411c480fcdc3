"""The server's standings (bot/standings.py): Elo by finishing order, every ended game counted
once, whichever way it is recorded (issue 29, item 16)."""

from __future__ import annotations

import pytest

from bot.context import Caller
from bot.desk import Desk
from bot.standings import START, K, ranked, standings
from bot.store import BotStore, ResultRow
from engine.host.service import GameService
from tests.games.strategic.worlds import strip_world


def game(number: int, *places: list[str | None]) -> ResultRow:
    """A result whose places hold these players (None: nobody leads that nation)."""
    return ResultRow(
        number,
        "g",
        "strategic-initiative",
        f"game {number}",
        float(number),
        [
            [{"nation": f"n{number}-{p}-{i}", "name": str(p), "player": p} for p in group]
            for i, group in enumerate(places)
        ],
    )


def test_two_equals_the_winner_takes_half_of_k_from_the_loser() -> None:
    table = standings([game(1, ["a"], ["b"])])
    assert table["a"].rating == pytest.approx(START + K / 2)
    assert table["b"].rating == pytest.approx(START - K / 2)
    assert (table["a"].games, table["a"].wins, table["b"].games, table["b"].wins) == (1, 1, 1, 0)


def test_a_free_for_all_rates_every_pair_by_their_places_and_adds_up_to_nothing() -> None:
    table = standings([game(1, ["a"], ["b", "c"], ["d"])])
    a, b, c, d = (table[u].rating for u in "abcd")
    assert a == pytest.approx(START + K / 2)  # beat all three: (3 x 1/2) x K/3
    assert b == pytest.approx(c) == pytest.approx(START)  # beat d, lost to a, drew with the other
    assert d == pytest.approx(START - K / 2)
    assert a + b + c + d == pytest.approx(4 * START)


def test_beating_a_stronger_player_gains_more() -> None:
    history = [game(1, ["a"], ["b"]), game(2, ["a"], ["b"])]
    table = standings([*history, game(3, ["c"], ["a"])])
    assert standings(history)["a"].rating > START
    assert table["c"].rating - START > K / 2  # a was rated above c: more than against an equal
    assert [s.user_id for s in ranked(table)] == ["c", "a", "b"]


def test_the_ai_and_empty_seats_are_not_rated_and_a_lone_player_keeps_the_rating() -> None:
    table = standings([game(1, ["ai"], ["a"], [None])])
    assert set(table) == {"a"}
    assert (table["a"].games, table["a"].wins, table["a"].rating) == (1, 0, START)


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(f"sqlite:///{tmp_path / 'games.db'}", synchronous="NORMAL")
    yield svc
    await svc.close()


async def test_an_ended_game_is_counted_once_however_often_it_is_recorded(service) -> None:
    desk = Desk(service)
    caller = Caller("100", "ann", guild_id="g", channel_id="c")
    world = strip_world(nations={"red": {"player": "100"}, "blue": {"player": "200"}})
    world.cities.pop(next(sq for sq, c in world.cities.items() if c.owner == "blue"))
    won = await service.create_game(name="Won", world=world, guild_id="g")
    await service.end(won)
    # the bot stopped before recording it: the first /stats records it
    text = (await desk.standings.server(caller)).text
    assert "1 game played here" in text
    assert text.index("<@100>") < text.index("<@200>")  # red held more cities
    # recorded again (the process that ended it, late; another shard): still once
    assert await desk.standings.record(won) is False
    mine = (await desk.standings.player(caller)).text
    assert f"1 game, 1 win, rating **{START + K / 2:.0f}**" in mine
    assert "1st of 2" in mine
    stored = await BotStore.of(service.store).result(won)
    assert stored is not None and [[n["name"] for n in g] for g in stored.places] == [
        [world.nations["red"].name],
        [world.nations["blue"].name],
    ]
