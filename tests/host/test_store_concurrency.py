"""The store and the service under concurrency and cancellation.

Many games share one store: every transaction must be one atomic unit, whatever other games
commit at the same moment and whatever gets cancelled. The guarantees checked here:

- games committing at once from many tasks all succeed;
- a cancellation, wherever it lands in `submit`, `advance`, `create_game` or a notifier write,
  never wedges the store, never leaves memory ahead of (or behind) the store, and never turns a
  committed command into a reported failure: the caller either gets the result or sees its own
  CancelledError, and in the latter case the command may have committed (the store says so);
- a cancelled task stops on the first `cancel()`.

Cancellation is injected after n turns of the event loop, for every n from 1 until the
operation completes before the cancel lands (as the outside test that found the bugs did).

Every test runs on SQLite and on PostgreSQL (`store_url`), the bot's own tables (BotStore)
included.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.store import BotStore
from engine.errors import CommandError
from engine.host.service import GameService
from engine.strategic import commands as cmd
from engine.strategic.world import World
from tests.games.strategic.worlds import strip_world

MAX_STEPS = 200


@pytest.fixture
async def service(store_url):
    svc = await GameService.open(store_url, synchronous="NORMAL")
    yield svc
    await svc.close()


async def _stored_hash(service: GameService, game_id: int) -> str:
    """The world as a fresh process would load it from the store."""
    fresh = GameService(service.store)
    return (await fresh.live_world(game_id)).hash()


async def _assert_consistent(service: GameService, game_id: int) -> None:
    """Memory equals a reload from the store, and the store still takes writes."""
    live = (await service.live_world(game_id)).hash()
    assert live == await _stored_hash(service, game_id)
    # not wedged: a write in this game and a write elsewhere both commit
    await service.advance(game_id, 1)
    await service.store.mark_delivered([])  # a write of another kind, on any backend
    await BotStore.of(service.store).set_player_settings("probe", {"sitrep": False})
    assert (await BotStore.of(service.store).get_player_settings("probe")) == {"sitrep": False}


async def _cancel_after(coro, steps: int):
    """Run `coro` as a task, cancel it after `steps` turns of the event loop; returns
    ("done", result) | ("error", exc) | ("cancelled", None)."""
    task = asyncio.ensure_future(coro)
    for _ in range(steps):
        if task.done():
            break
        await asyncio.sleep(0)
    task.cancel()
    try:
        return "done", await task
    except asyncio.CancelledError:
        assert task.cancelled() or task.done()
        return "cancelled", None
    except Exception as exc:  # noqa: BLE001 - reported to the test
        return "error", exc


# --- many games at once ---------------------------------------------------------------------------


async def test_many_games_commit_at_the_same_moment(service):
    games = [await service.create_game(name=f"g{i}", world=strip_world()) for i in range(12)]

    async def player(game_id: int, nation: str, unit: int, squares: list[tuple[int, int]]):
        for _ in range(3):
            for to in squares:
                await service.submit(game_id, nation, cmd.Move(units=[unit], to=to))
                await service.advance(game_id, 16)  # a new unit update: mobility back

    tasks = []
    for g in games:
        tasks.append(player(g, "red", 1, [(3, 1), (2, 1)]))
        tasks.append(player(g, "blue", 4, [(17, 1), (18, 1)]))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    assert failures == []
    for g in games:
        await _assert_consistent(service, g)
        assert await service.store.last_seq(g) == 2 * 3 * 2 * 2 + 1  # commands, advances, probe


async def test_store_writes_of_many_kinds_interleave_safely(service):
    games = [await service.create_game(name=f"g{i}", world=strip_world()) for i in range(6)]

    async def settings_writer(i: int):
        for n in range(20):
            await BotStore.of(service.store).set_player_settings(f"u{i}", {"n": n})
            await BotStore.of(service.store).set_dm_status(f"u{i}", "ok" if n % 2 else "closed")

    async def game_writer(g: int):
        for _ in range(10):
            await service.advance(g, 2)

    async def creator(i: int):
        return await service.create_game(name=f"new{i}", world=strip_world())

    results = await asyncio.gather(
        *(settings_writer(i) for i in range(6)),
        *(game_writer(g) for g in games),
        *(creator(i) for i in range(6)),
        return_exceptions=True,
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    for i in range(6):
        assert await BotStore.of(service.store).get_player_settings(f"u{i}") == {"n": 19}
    for g in games:
        assert (await service.live_world(g)).tick == 20
        await _assert_consistent(service, g)


# --- cancellation at every await --------------------------------------------------------------------


async def _other_games_commit_meanwhile(service, others: list[int], stop: asyncio.Event):
    while not stop.is_set():
        for g in others:
            await service.advance(g, 1)
        await asyncio.sleep(0)


async def test_cancelling_submit_anywhere_never_lies(service):
    """A command cancelled after n loop turns: either it committed (and memory, store and the
    log agree; the caller got the result or its cancellation) or it changed nothing."""
    # long enough for every step's 16 ticks (on a loaded machine a command may need many loop
    # turns: the ruleset's 10 days would end the game before the steps do)
    game = await service.create_game(name="g", world=strip_world(length_days=MAX_STEPS))
    others = [await service.create_game(name=f"o{i}", world=strip_world()) for i in range(2)]
    stop = asyncio.Event()
    background = asyncio.create_task(_other_games_commit_meanwhile(service, others, stop))
    outcomes: dict[str, int] = {}
    try:
        to = [(3, 1), (2, 1)]
        for steps in range(1, MAX_STEPS):
            seq_before = await service.store.last_seq(game)
            hash_before = (await service.live_world(game)).hash()
            kind, value = await _cancel_after(
                service.submit(game, "red", cmd.Move(units=[1], to=to[steps % 2])), steps
            )
            outcomes[kind] = outcomes.get(kind, 0) + 1
            assert kind != "error", f"step {steps}: {value!r}"
            committed = await service.store.last_seq(game) > seq_before
            if kind == "done":
                assert committed, f"step {steps}: reported done but not in the store"
            if not committed:
                assert (await service.live_world(game)).hash() == hash_before, f"step {steps}"
            assert (await service.live_world(game)).hash() == await _stored_hash(service, game)
            await service.advance(game, 16)  # mobility back for the next move
            if kind == "done" and steps > 20:
                break
    finally:
        stop.set()
        await background
    assert outcomes.get("cancelled", 0) > 0 and outcomes.get("done", 0) > 0
    for g in (game, *others):
        await _assert_consistent(service, g)


async def test_cancelling_an_ai_decision_anywhere_gives_all_of_it_or_none(service):
    """An AI seat's decision (`submit_all`: applied in the AI's thread, committed together)
    cancelled after n loop turns: its accepted commands are all in the store and in memory, or
    none is; memory and store agree either way."""
    from concurrent.futures import ThreadPoolExecutor

    game = await service.create_game(name="g", world=strip_world(length_days=MAX_STEPS))
    others = [await service.create_game(name=f"o{i}", world=strip_world()) for i in range(2)]
    stop = asyncio.Event()
    background = asyncio.create_task(_other_games_commit_meanwhile(service, others, stop))
    thinking = ThreadPoolExecutor(1, "ai")
    outcomes: dict[str, int] = {}
    try:
        to = [(3, 1), (2, 1)]
        for steps in range(1, MAX_STEPS):
            seq_before = await service.store.last_seq(game)
            world = await service.live_world(game)
            hash_before = world.hash()
            # each unit to the square of the two it is not on (a decision cancelled before it
            # committed left them where they were)
            where = [world.grid.xy(world.units[u].sq) for u in (1, 2)]
            decision = [
                cmd.Move(units=[1], to=to[0] if where[0] != to[0] else to[1]),
                cmd.Move(units=[999], to=(3, 1)),  # refused: no such unit
                cmd.Move(units=[2], to=to[0] if where[1] != to[0] else to[1]),
            ]
            kind, value = await _cancel_after(
                service.submit_all(game, "red", decision, pool=thinking), steps
            )
            outcomes[kind] = outcomes.get(kind, 0) + 1
            assert kind != "error", f"step {steps}: {value!r}"
            written = await service.store.last_seq(game) - seq_before
            assert written in (0, 2), f"step {steps}: {written} of the 2 accepted commands"
            if kind == "done":
                assert written == 2, f"step {steps}: {value!r}"
                assert isinstance(value[1], CommandError), f"step {steps}"
            if not written:
                assert (await service.live_world(game)).hash() == hash_before, f"step {steps}"
            assert (await service.live_world(game)).hash() == await _stored_hash(service, game)
            await service.advance(game, 16)  # mobility back for the next move
            if kind == "done" and steps > 20:
                break
    finally:
        stop.set()
        await background
        thinking.shutdown()
    assert outcomes.get("cancelled", 0) > 0 and outcomes.get("done", 0) > 0
    for g in (game, *others):
        await _assert_consistent(service, g)


async def test_cancelling_advance_anywhere_never_lies(service):
    game = await service.create_game(name="g", world=strip_world())
    other = await service.create_game(name="o", world=strip_world())
    stop = asyncio.Event()
    background = asyncio.create_task(_other_games_commit_meanwhile(service, [other], stop))
    try:
        for steps in range(1, MAX_STEPS):
            kind, value = await _cancel_after(service.advance(game, 40), steps)
            assert kind != "error", f"step {steps}: {value!r}"
            world = await service.live_world(game)
            assert world.hash() == await _stored_hash(service, game), f"step {steps}"
            if kind == "done" and steps > 20:
                break
    finally:
        stop.set()
        await background
    await _assert_consistent(service, game)
    await _assert_consistent(service, other)


async def test_cancelling_create_game_anywhere_leaves_no_half_game(service):
    other = await service.create_game(name="o", world=strip_world())
    stop = asyncio.Event()
    background = asyncio.create_task(_other_games_commit_meanwhile(service, [other], stop))
    try:
        for steps in range(1, MAX_STEPS):
            before = {g.id for g in await service.games()}
            kind, value = await _cancel_after(
                service.create_game(name=f"c{steps}", world=strip_world()), steps
            )
            assert kind != "error", f"step {steps}: {value!r}"
            new = [g for g in await service.games() if g.id not in before]
            if kind == "done":
                assert [g.id for g in new] == [value]
            assert len(new) <= 1
            for g in new:  # whatever was created is whole: world, hash and members
                world = await service.live_world(g.id)
                assert world.hash() == await _stored_hash(service, g.id)
                assert await service.store.members(g.id) == {"red": "100", "blue": "200"}
            if kind == "done" and steps > 20:
                break
    finally:
        stop.set()
        await background
    await _assert_consistent(service, other)


async def test_cancelling_store_writes_anywhere_never_wedges_the_store(service):
    """The notifier's writes (settings, DM status, sitreps, outbox marks) cancelled at every
    point: each is all or nothing, and the store goes on working for every game."""
    game = await service.create_game(name="g", world=strip_world())
    await service.advance(game, 8 * 4)  # builds: outbox rows
    rows = await service.store.pending_events()
    assert rows
    bot_writes = [
        lambda: BotStore.of(service.store).set_player_settings("100", {"sitrep": False}),
        lambda: BotStore.of(service.store).set_dm_status("100", "closed", "no DMs"),
        lambda: BotStore.of(service.store).set_sitrep(game, "red", 3),
    ]
    writes = [
        *bot_writes,
        lambda: service.store.hold([r.id for r in rows], 1e12),
        lambda: service.store.release_held("100"),
        lambda: service.store.mark_failed([r.id for r in rows[:2]], "rate limited"),
        lambda: service.store.mark_delivered([r.id for r in rows[:3]]),
    ]
    for write in writes:
        for steps in range(1, 40):
            kind, value = await _cancel_after(write(), steps)
            assert kind != "error", f"step {steps}: {value!r}"
            await _assert_consistent(service, game)
            if kind == "done":
                break
    # what was acknowledged is durable
    delivered = await service.store.query(
        "SELECT id FROM outbox WHERE delivered_at IS NOT NULL ORDER BY id"
    )
    assert [i for (i,) in delivered] == [r.id for r in rows[:3]]
    assert await BotStore.of(service.store).get_player_settings("100") == {"sitrep": False}


async def test_a_cancelled_command_that_committed_survives_a_restart(store_url):
    path = store_url
    svc = await GameService.open(path)
    game = await svc.create_game(name="g", world=strip_world())
    committed = []
    for steps in range(1, MAX_STEPS):
        before = await svc.store.last_seq(game)
        kind, _ = await _cancel_after(
            svc.submit(
                game, "red", cmd.SetNextBuild(city=(1, 1), unit=("infantry", None)[steps % 2])
            ),
            steps,
        )
        if await svc.store.last_seq(game) > before:
            committed.append(kind)
        if kind == "done" and steps > 10:
            break
    expected = (await svc.live_world(game)).hash()
    await svc.close()
    again = await GameService.open(path)
    assert (await again.live_world(game)).hash() == expected
    await again.close()
    assert "done" in committed


async def test_a_refused_command_is_still_refused_when_others_commit(service):
    game = await service.create_game(name="g", world=strip_world())

    async def refused():
        with pytest.raises(CommandError):
            await service.submit(game, "red", cmd.Move(units=[1], to=(0, 1)))  # water in sight

    await asyncio.gather(*(refused() for _ in range(5)), service.advance(game, 8))
    await _assert_consistent(service, game)


def test_world_json_is_canonical():
    # the consistency checks above compare hashes; they rely on this
    world = strip_world()
    assert World.from_dict(json.loads(world.to_json())).hash() == world.hash()
