"""An ended game is final (issue 27, finding 4): no lobby or moderator action changes it through
the service (the one way in), nor through the engines' own lobby functions; only reading,
history and deletion remain. A log written before this rule (a resignation after the end) is
replayed without rewriting the result."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import GameError
from engine.host.service import GameService
from engine.interface import entries as en
from engine.interface.kind import kind as kind_named
from engine.strategic import lobby
from engine.strategic.replay import apply_entry
from engine.supplylines import turns
from engine.supplylines.kind import KIND
from tests.games.strategic.worlds import strip_world

T0 = 1_700_000_000.0


@pytest.fixture
async def service(tmp_path):
    svc = await GameService.open(str(tmp_path / "ended.db"), synchronous="NORMAL")
    yield svc
    await svc.close()


async def _ended_supply_lines(service: GameService) -> tuple[int, str, str]:
    game = await service.create_game(name="Duel", kind="supply-lines", max_nations=2, now=T0)
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    bob = await service.join(game, name="Bob", colour="#2980b9", player="200")
    await service.end(game)  # a moderator's end: a draw, nobody holds more
    return game, ann, bob


async def _ended_strategic(service: GameService) -> int:
    game = await service.create_game(name="War", world=strip_world(), now=T0)
    await service.end(game)
    return game


async def _state(service: GameService, game: int) -> tuple[Any, ...]:
    row = await service.game(game)
    world = await service.live_world(game)
    return (
        row.status,
        row.clock,
        await service.members(game),
        await service.store.last_seq(game),
        kind_named(row.kind).hash(world),
    )


async def _refused_and_unchanged(service: GameService, game: int, told: list) -> None:
    before = await _state(service, game)
    actions = {
        "resign": lambda n: service.resign(game, n),
        "substitute": lambda n: service.substitute(game, n, "999"),
        "leave": lambda n: service.leave(game, n),
        "start": lambda n: service.start(game),
        "end": lambda n: service.end(game),
        "join": lambda n: service.join(game, name="Late", colour="#27ae60", player="300"),
        "pause": lambda n: service.pause(game),
        "resume": lambda n: service.resume(game),
        "speed": lambda n: service.set_speed(game, 10.0),
    }
    nation = next(iter(await service.members(game)))
    for name, action in actions.items():
        with pytest.raises(GameError, match="over"):
            await action(nation)
        assert await _state(service, game) == before, name
    assert told == [], "an ended game told someone something again"


async def test_a_kick_after_the_end_no_longer_flips_supply_lines_winner(service) -> None:
    """Found from outside: kicking Ann after the end made Bob the winner, and everyone got a
    second "game over" DM."""
    game, ann, bob = await _ended_supply_lines(service)
    assert (await service.live_world(game)).winner is None
    told: list = []
    service.subscribe(lambda g, events: told.extend(events))
    with pytest.raises(GameError, match="the game is over"):
        await service.resign(game, ann)
    assert (await service.live_world(game)).winner is None
    await _refused_and_unchanged(service, game, told)


async def test_a_kick_after_the_end_leaves_the_final_state_of_strategic_initiative(
    service,
) -> None:
    """Found from outside: the kicked nation's units vanished from the final state."""
    game = await _ended_strategic(service)
    units = {u.id for u in (await service.live_world(game)).units.values() if u.owner == "red"}
    assert units
    told: list = []
    service.subscribe(lambda g, events: told.extend(events))
    with pytest.raises(GameError, match="the game is over"):
        await service.resign(game, "red")
    world = await service.live_world(game)
    assert {u.id for u in world.units.values() if u.owner == "red"} == units
    assert not world.nations["red"].out
    await _refused_and_unchanged(service, game, told)


async def test_reading_history_and_deletion_remain(service) -> None:
    game = await _ended_strategic(service)
    assert (await service.view(game, "red")).nation == "red"
    assert await service.full_view(game) is not None
    assert (await service.summary(game)).nations
    await service.delete_game(game)
    assert await service.find_game(game) is None


def test_the_engines_refuse_a_resignation_or_substitute_after_the_end() -> None:
    world = strip_world()
    lobby.end_now(world)
    for action in (lambda: lobby.resign(world, "red"), lambda: lobby.substitute(world, "red", "9")):
        with pytest.raises(GameError, match="the game is over"):
            action()
    state = KIND.setup({"max_nations": 2})
    turns.join(state, "ann", "Ann", "#c0392b", "100")
    turns.join(state, "bob", "Bob", "#2980b9", "200")
    turns.start(state)
    turns.end_game(state, "moderator")
    for sl_action in (
        lambda: turns.resign(state, "ann"),
        lambda: turns.substitute(state, "ann", "9"),
    ):
        with pytest.raises(GameError, match="the game is over"):
            sl_action()


def test_an_older_logs_resignation_after_the_end_replays_as_nothing() -> None:
    """Logs written before the rule may hold one; replayed, the final result stands."""
    world = strip_world()
    lobby.end_now(world)
    strategic = kind_named("strategic-initiative")
    before = strategic.hash(world)
    assert apply_entry(world, en.Resign(nation="red").to_json()) == []
    assert apply_entry(world, en.Substitute(nation="red", player="9").to_json()) == []
    assert strategic.hash(world) == before
    state = KIND.setup({"max_nations": 2})
    turns.join(state, "ann", "Ann", "#c0392b", "100")
    turns.join(state, "bob", "Bob", "#2980b9", "200")
    turns.start(state)
    turns.end_game(state, "moderator")
    before = KIND.hash(state)
    assert KIND.apply(state, en.Resign(nation="ann")) == []
    assert KIND.hash(state) == before and state.winner is None
