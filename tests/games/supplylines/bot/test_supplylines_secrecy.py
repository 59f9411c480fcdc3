"""Orders are secret until their turn resolves: nothing a Supply Lines player gets from the bot
depends on the orders other players have given this turn. For generated games in the middle
(turns played by the simulator's players), the same game is hosted twice, alike but for the
other players' orders of the turn (different random orders, or none; who has submitted is
public and kept the same); everything the player can ask for (their orders, the board as text
and as a picture, the game's status, the autocomplete's suggestions) must come out the same,
byte for byte, and giving orders tells nobody anything (no event, so no DM)."""

from __future__ import annotations

import contextlib
import random
import re

import pytest

from bot.context import Caller
from bot.desk import Desk
from bot.games.supplylines.orders import Orders
from engine.errors import CommandError
from engine.host.service import GameService
from engine.supplylines import turns
from engine.supplylines.kind import KIND, GiveOrder, SubmitOrders
from engine.supplylines.simulate import RandomPlayer, apply_command
from engine.supplylines.state import State
from engine.supplylines.view import view_for

GUILD = "10"
T0 = 1_700_000_000.0
SEEDS = range(24)


def played(seed: int) -> State | None:
    """A game on a hand-made map, some turns in, at the start of a turn's orders (None: it
    ended first)."""
    rng = random.Random(seed)
    name = rng.choice(["duel", "triangle", "four", "five"])
    state: State = KIND.setup({"map": name, "seed": seed})
    seats = state.board.seats
    players = {}
    for n in range(seats):
        pid = f"p{n + 1}"
        turns.join(state, pid, f"P{n + 1}", "#888888", str(100 + n))
        players[pid] = RandomPlayer(seed * 10 + n)
    turns.start(state)
    for _ in range(rng.randint(0, 8)):
        for pid in state.active():
            if state.phase != "orders" or state.ended:
                break
            for command in players[pid].commands(view_for(state, pid)):
                _apply(state, pid, command)
        if state.phase == "supply":
            turns.finish_turn(state)  # the defaults
        if state.ended:
            return None
    return state


def _apply(state: State, pid: str, command) -> None:
    with contextlib.suppress(CommandError):  # a random player's refused command: nothing
        apply_command(state, pid, command)


def orders_given(state: State, pid: str, dice: int) -> None:
    """Random valid orders of `pid` for this turn (no submission)."""
    for command in RandomPlayer(dice).commands(view_for(state, pid)):
        if isinstance(command, GiveOrder):
            _apply(state, pid, command)


async def everything_told(desk: Desk, caller: Caller) -> list[object]:
    """All a player can get from the bot about their game, the game's own id left out."""
    listed = await desk.part(Orders).orders_list(caller)
    board = await desk.part(Orders).orders_board(caller)
    info = await desk.lifecycle.game_info(caller)
    suggested = await desk.part(Orders).choose_orders(caller, "")
    typed = await desk.part(Orders).choose_orders(caller, ">")

    def plain(text: str) -> str:
        return re.sub(r"\(game \d+\)", "(game N)", text)

    return [
        plain(listed.text),
        plain(board.text),
        [data for _, data in board.files],
        plain(info.text),
        suggested,
        typed,
    ]


@pytest.mark.parametrize("seed", SEEDS)
async def test_nothing_a_player_gets_depends_on_the_others_orders(tmp_path, seed: int) -> None:
    state = played(seed)
    if state is None:
        pytest.skip("this seed's game ended before the turn to look at (counted below)")
    rng = random.Random(seed)
    me = rng.choice(state.active())
    others = [p for p in state.active() if p != me]
    orders_given(state, me, seed)  # the player's own orders: the same in both
    a, b = state.model_copy(deep=True), state.model_copy(deep=True)
    for pid in others:
        orders_given(a, pid, 1000 + seed)
        if rng.random() < 0.5:
            orders_given(b, pid, 2000 + seed)  # other orders; else none at all
    submitting = [pid for pid in others if rng.random() < 0.5]
    for world in (a, b):
        for pid in submitting:
            assert turns.submit(world, pid) == []  # the player has not: nothing resolves
    assert a.orders != b.orders or not any(a.orders.get(p) for p in others)
    service = await GameService.open(str(tmp_path / "secret.db"), synchronous="NORMAL")
    try:
        desk = Desk(service)
        told = []
        for channel, world in (("1", a), ("2", b)):
            await service.create_game(  # (the same moment: the deadlines' real times alike)
                name="Secret",
                kind="supply-lines",
                world=world,
                guild_id=GUILD,
                channel_id=channel,
                now=T0,
            )
            user = world.players[me].user
            assert user is not None
            told.append(await everything_told(desk, Caller(user, "me", GUILD, channel)))
        assert told[0] == told[1]
    finally:
        await service.close()


def test_enough_generated_games_are_looked_at() -> None:
    """The property above is not skipped away: most seeds give a game in the middle."""
    assert sum(played(seed) is not None for seed in SEEDS) >= len(SEEDS) * 2 // 3


async def test_giving_orders_tells_nobody(tmp_path) -> None:
    """Adding, clearing and submitting orders (short of the last submission) make no event:
    nothing is written for anyone's DMs."""
    state = played(3)
    assert state is not None
    service = await GameService.open(str(tmp_path / "quiet.db"), synchronous="NORMAL")
    try:
        game = await service.create_game(name="Quiet", kind="supply-lines", world=state)
        before = await service.store.pending_events(limit=10_000)
        me, *rest = state.active()
        for command in RandomPlayer(7).commands(await service.view(game, me)):
            if isinstance(command, GiveOrder):
                assert (await service.submit(game, me, command)).events == []
        assert (await service.submit(game, me, SubmitOrders())).events == []
        assert rest  # someone has not submitted: the turn waits
        assert await service.store.pending_events(limit=10_000) == before
    finally:
        await service.close()
