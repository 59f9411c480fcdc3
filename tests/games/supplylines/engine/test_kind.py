"""Supply Lines as a game kind on the host: the lobby, orders kept secret until the turn
resolves, turns resolved early or at their deadline, supply questions answered (or not), the
game's end, and a restart that replays the log to the same state."""

from __future__ import annotations

import pytest

from engine.errors import CommandError
from engine.host.service import GameService
from engine.interface.entries import entry_from_json
from engine.supplylines import events as ev
from engine.supplylines import turns
from engine.supplylines.kind import KIND, ChooseSupply, ClearOrders, GiveOrder, SubmitOrders
from engine.supplylines.state import State
from tests.games.supplylines.engine.scenario import build_state, short_of_a_road

T0 = 1_700_000_000.0


@pytest.fixture
async def service(tmp_path):
    # games made running at T0, and the service's clock there (commands catch a game up to it)
    svc = await GameService.open(str(tmp_path / "sl.db"), synchronous="NORMAL", clock=lambda: T0)
    yield svc
    await svc.close()


async def two_player_game(service: GameService, **options) -> tuple[int, str, str]:
    game = await service.create_game(
        name="Duel", kind="supply-lines", max_nations=2, now=T0, **options
    )
    ann = await service.join(game, name="Ann", colour="#c0392b", player="100")
    bob = await service.join(game, name="Bob", colour="#2980b9", player="200")
    return game, ann, bob


async def test_a_full_lobby_starts_with_each_home_city_and_its_infantry(service) -> None:
    game, ann, bob = await two_player_game(service)
    row = await service.game(game)
    assert row.status == "running" and row.kind == "supply-lines"
    world: State = await service.live_world(game)
    assert world.owners["H1"] == ann and world.owners["H2"] == bob
    assert [(u.owner, u.type, u.at) for u in world.units.values()] == [
        (ann, "infantry", "H1"),
        (bob, "infantry", "H2"),
    ]
    assert await service.members(game) == {ann: "100", bob: "200"}
    summary = await service.summary(game)
    assert summary.kind == "supply-lines" and summary.started and summary.seats == 2


async def test_orders_are_secret_until_the_turn_resolves_early(service) -> None:
    game, ann, bob = await two_player_game(service)
    await service.submit(game, ann, GiveOrder(text="H1 > C1"))
    # Bob sees the board, not Ann's orders; Ann sees her own
    assert (await service.view(game, bob)).orders == {bob: []}
    assert (await service.view(game, ann)).orders == {ann: ["H1 > C1"]}
    first = await service.submit(game, ann, SubmitOrders())
    assert first.events == []  # Bob has not submitted: nothing resolves
    await service.submit(game, bob, GiveOrder(text="H2 > C5"))
    result = await service.submit(game, bob, SubmitOrders())
    kinds = [type(e) for e in result.events]
    assert kinds == [ev.TurnMoved, ev.TurnEnded]
    moved = result.events[0]
    assert isinstance(moved, ev.TurnMoved) and set(moved.to) == {ann, bob}
    assert {c["at"] for c in moved.captured} == {"C1", "C5"}
    world: State = await service.live_world(game)
    assert world.owners["C1"] == ann and world.owners["C5"] == bob and world.turn == 1
    assert world.orders == {} and world.submitted == []
    ended = result.events[1]
    assert isinstance(ended, ev.TurnEnded) and ended.deadline == world.tick + world.turn_ticks


async def test_a_refused_order_says_why_and_changes_nothing(service) -> None:
    game, ann, _ = await two_player_game(service)
    before = (await service.live_world(game)).model_dump_json()
    for text, says in [
        ("H1 > C3", "C3 is not next to H1"),
        ("Build 1 Tank@H1", "not enough PopCap"),
        ("fly to the moon", "orders look like"),
    ]:
        with pytest.raises(CommandError, match=says):
            await service.submit(game, ann, GiveOrder(text=text))
    assert (await service.live_world(game)).model_dump_json() == before


async def test_a_turn_resolves_at_its_deadline_with_holds_for_orders_not_given(service) -> None:
    game, ann, bob = await two_player_game(service, turn_hours=1)
    await service.submit(game, ann, GiveOrder(text="H1 > C2"))
    await service.submit(game, ann, ClearOrders())
    await service.submit(game, ann, GiveOrder(text="H1 > C1"))
    events = await service.advance(game, 3)
    # (the reminder of the deadline, 15 minutes before it: a quarter of a 1-hour turn)
    assert [e.kind for e in events] == ["DeadlineNear"]
    assert (await service.live_world(game)).turn == 0
    events = await service.advance(game, 1)  # an hour: four ticks
    assert [type(e) for e in events] == [ev.TurnMoved, ev.TurnEnded]
    world: State = await service.live_world(game)
    assert world.owners["C1"] == ann and world.owners["C2"] is None
    assert [u.at for u in world.units_of(bob)] == ["H2"]  # no orders: it held


async def test_a_supply_question_goes_to_its_player_only_and_the_answer_decides(service) -> None:
    state = short_of_a_road()
    game = await service.create_game(name="Short", kind="supply-lines", world=state, now=T0)
    await service.submit(game, "a", SubmitOrders())
    result = await service.submit(game, "b", SubmitOrders())
    asked = [e for e in result.events if isinstance(e, ev.SupplyAsked)]
    assert len(asked) == 1 and asked[0].to == ["a"] and asked[0].lines == 1
    assert [u["id"] for u in asked[0].units] == [1, 2] and asked[0].default == [1]
    with pytest.raises(CommandError, match="no supply question"):
        await service.submit(game, "b", ChooseSupply(units=[3]))
    with pytest.raises(CommandError, match="lines"):
        await service.submit(game, "a", ChooseSupply(units=[1, 2]))
    with pytest.raises(CommandError, match="resolving"):
        await service.submit(game, "a", GiveOrder(text="C1 > H1"))
    done = await service.submit(game, "a", ChooseSupply(units=[2]))
    assert [type(e) for e in done.events] == [ev.TurnEnded]
    world: State = await service.live_world(game)
    assert world.units[1].marks == 1 and world.units[2].marks == 0


async def test_an_unanswered_supply_question_takes_the_default_at_its_deadline(service) -> None:
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 1 infantry @ C1", "a 1 infantry @ C2 marks 2", "b 1 infantry @ H2"],
        }
    )
    state.started, state.deadline, state.choice_ticks = True, 1, 2
    game = await service.create_game(name="Quiet", kind="supply-lines", world=state, now=T0)
    events = await service.advance(game, 1)
    assert [type(e) for e in events] == [ev.TurnMoved, ev.SupplyAsked]
    assert (await service.live_world(game)).phase == "supply"
    events = await service.advance(game, 2)
    assert [type(e) for e in events] == [ev.TurnEnded]
    world: State = await service.live_world(game)
    assert world.units[2].marks == 1  # the most marked was supplied by default
    assert world.units[1].marks == 1


async def test_a_victory_by_orders_ends_the_game_and_its_row(service) -> None:
    state = build_state(
        {
            "roads": "H1-C1 C1-H2",
            "owners": {"a": "H1 C1", "b": "H2"},
            "units": ["a 2 infantry @ C1"],
        }
    )
    state.started, state.deadline = True, 96
    game = await service.create_game(name="Quick", kind="supply-lines", world=state, now=T0)
    await service.submit(game, "a", GiveOrder(text="1 Infantry @ C1 > H2"))
    await service.submit(game, "a", SubmitOrders())
    result = await service.submit(game, "b", SubmitOrders())
    over = [e for e in result.events if isinstance(e, ev.GameOver)]
    assert over and over[0].winner == "a" and over[0].reason == "victory"
    assert (await service.game(game)).status == "ended"
    with pytest.raises(CommandError):
        await service.submit(game, "a", SubmitOrders())


async def test_a_restart_replays_the_log_to_the_same_state(tmp_path) -> None:
    path = str(tmp_path / "replay.db")
    svc = await GameService.open(path, synchronous="NORMAL", snapshot_every=3)
    game, ann, bob = await two_player_game(svc, turn_hours=1)
    await svc.submit(game, ann, GiveOrder(text="H1 > C1"))
    await svc.submit(game, bob, GiveOrder(text="H2 > C4"))
    await svc.advance(game, 4)
    await svc.submit(game, ann, GiveOrder(text="C1 > C3"))
    await svc.submit(game, ann, SubmitOrders())
    await svc.advance(game, 2)
    expected = (await svc.live_world(game)).model_dump_json()
    await svc.close()
    again = await GameService.open(path)
    try:
        assert (await again.live_world(game)).model_dump_json() == expected
        first, entries = await again.history(game)
        for entry in entries:
            KIND.apply(first, entry_from_json(entry))
        assert KIND.hash(first) == KIND.hash(await again.live_world(game))
    finally:
        await again.close()


async def test_a_player_resigning_while_others_answer_does_not_hold_the_turn(service) -> None:
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2 H2-C3 C3-C4 H3-C4",
            "owners": {"a": "H1 C1 C2", "b": "H2 C3 C4", "c": "H3"},
            "units": [
                "a 1 infantry @ C1",
                "a 1 infantry @ C2",
                "b 1 infantry @ C3",
                "b 1 infantry @ C4",
                "c 1 infantry @ H3",
            ],
        }
    )
    state.started, state.deadline = True, 96
    game = await service.create_game(name="Three", kind="supply-lines", world=state, now=T0)
    for p in ("a", "b", "c"):
        result = await service.submit(game, p, SubmitOrders())
    asked = sorted(e.player for e in result.events if isinstance(e, ev.SupplyAsked))
    assert asked == ["a", "b"]
    await service.submit(game, "a", ChooseSupply(units=[2]))
    assert (await service.live_world(game)).phase == "supply"  # b has not answered
    await service.resign(game, "b")
    world: State = await service.live_world(game)
    assert world.phase == "orders" and world.turn == 1  # the turn went on without b
    assert world.units[2].marks == 0 and world.units[1].marks == 1


async def test_an_ai_seat_plays_its_turns_through_the_hosts_runner_and_wins(service) -> None:
    """The host's AI runner drives Supply Lines' AI like Strategic Initiative's: an AI seat
    (settings.ai) gives its orders and submits each turn; against a player who never orders,
    it wins."""
    from engine.host.runner import AiRunner
    from engine.supplylines.kind import AI_PLAYER

    game = await service.create_game(
        name="Robot", kind="supply-lines", max_nations=2, turn_hours=1, now=T0
    )
    await service.join(game, name="Idle", colour="#c0392b", player="100")
    bot = await service.join(game, name="Robot", colour="#2980b9", player=AI_PLAYER)
    await service.update_settings(game, ai={bot: "normal"})
    runner = AiRunner(service)
    for _ in range(60 * 4):  # an hour a turn: 60 turns at most
        await runner.run_once()
        await service.advance(game, 1)
        if (await service.game(game)).status == "ended":
            break
    world: State = await service.live_world(game)
    assert world.ended and world.winner == bot
    log = await service.store.log_after(game, 0)
    given = [e["command"] for _, e in log if e["kind"] == "command" and e["nation"] == bot]
    assert {c["kind"] for c in given} >= {"order", "submit"}


async def test_a_game_without_deadlines_waits_for_every_submission(service) -> None:
    """`turn_hours: 0`: a turn resolves only once every player has submitted (or a moderator
    resolves it); time passing resolves nothing, except a supply question's own deadline, and
    the game still ends at its length."""
    from engine.supplylines.kind import MODERATOR, SetDeadline

    game, ann, bob = await two_player_game(service, turn_hours=0, length_days=3)
    world: State = await service.live_world(game)
    assert world.turn_ticks == 0 and world.deadline is None
    summary = await service.summary(game)
    assert summary.now() == "turn 1, orders (0/2 submitted), until everyone has submitted"
    await service.advance(game, 96)  # a whole game day: nothing resolves
    assert (await service.live_world(game)).turn == 0
    with pytest.raises(CommandError, match="no deadline"):
        await service.submit(game, MODERATOR, SetDeadline(now=False, extend_ticks=4))
    await service.submit(game, ann, SubmitOrders())
    await service.submit(game, bob, SubmitOrders())
    world = await service.live_world(game)
    assert world.turn == 1 and world.deadline is None
    await service.submit(game, MODERATOR, SetDeadline(now=True, extend_ticks=0))
    assert (await service.live_world(game)).turn == 2  # a moderator resolves one at once
    await service.advance(game, 2 * 96)  # the game's length: it ends, standings decide
    world = await service.live_world(game)
    assert world.ended and world.turn == 2
    with pytest.raises(Exception, match="quarter of an hour to a week"):
        await two_player_game(service, turn_hours=0.1)


async def test_an_ai_seat_whose_orders_fail_midway_decides_again(service) -> None:
    """The store fails while an AI seat gives its orders (not a refusal: the orders were never
    judged): the seat is asked again at the next pass, in the same turn, and submits; in a
    game without deadlines the turn would otherwise wait for it forever."""
    from engine.host.runner import AiRunner
    from engine.supplylines.kind import AI_PLAYER

    game = await service.create_game(
        name="Flaky", kind="supply-lines", max_nations=2, turn_hours=0, now=T0
    )
    await service.join(game, name="Ann", colour="#c0392b", player="100")
    bot = await service.join(game, name="Robot", colour="#2980b9", player=AI_PLAYER)
    await service.update_settings(game, ai={bot: "normal"})
    submit_all = service.submit_all
    failures: list[object] = []

    async def flaky(game_id, nation, commands, **kw):
        if nation == bot and not failures:
            failures.append(commands)
            raise OSError("disk I/O error")
        return await submit_all(game_id, nation, commands, **kw)

    service.submit_all = flaky
    runner = AiRunner(service)
    await runner.run_once()  # the failure is logged; the pass goes on
    assert failures and bot not in (await service.live_world(game)).submitted
    await runner.run_once()
    world: State = await service.live_world(game)
    assert world.turn == 0 and bot in world.submitted


def test_a_short_turn_gets_a_supply_deadline_that_fits_in_it() -> None:
    """Half-hour turns: the supply question waits half an hour by default, not the hour that
    would not fit in the turn (which used to refuse the game)."""
    world = KIND.setup({"map": "duel", "turn_hours": 0.5, "seed": 1})
    assert (world.turn_ticks, world.choice_ticks) == (2, 2)
    assert KIND.setup({"map": "duel", "turn_hours": 24, "seed": 1}).choice_ticks == 4
    with pytest.raises(Exception, match="supply question waits"):
        KIND.setup({"map": "duel", "turn_hours": 1, "choice_hours": 2, "seed": 1})


def test_a_concession_does_not_show_in_the_supply_phase_count() -> None:
    # both players' networks are short of lines, so the board gives each a supply question;
    # Ann concedes this turn (secret until stage 8): she is asked nothing, but the public
    # count is the board's, "0/2 answered", not "0/1" (which would tell Bob she conceded)
    def game(concede: bool) -> State:
        state = build_state(
            {
                "roads": "H1-C1 C1-C2 C2-C3 C3-C4 C4-H2",
                "owners": {"a": "H1 C1 C2", "b": "H2 C3 C4"},
                "units": [
                    "a 1 infantry @ C1",
                    "a 1 infantry @ C2",
                    "b 1 infantry @ C3",
                    "b 1 infantry @ C4",
                ],
            }
        )
        state.started, state.deadline = True, 96
        if concede:
            turns.add_order(state, "a", "Concede")
        turns.submit(state, "a")
        turns.submit(state, "b")
        assert state.phase == "supply"
        return state

    plain, conceding = game(False), game(True)
    assert plain.asked == ["a", "b"] and conceding.asked == ["b"]
    assert "supply choices (0/2 answered)" in KIND.summary(plain).now()
    assert KIND.summary(conceding).now() == KIND.summary(plain).now()
    turns.answer_supply(conceding, "b", [3])  # the last one asked: the turn goes on
    assert conceding.phase == "orders" and conceding.players["a"].conceded
