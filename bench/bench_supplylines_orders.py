"""Supply Lines: what one player's orders cost (issue 27, finding 1). A player repeats
`/orders add` 10,000 times in one turn: the first ones are kept up to what the rules could use
(`engine.supplylines.orders.limit`), the rest refused. Printed: the time of one add at the cap
and past it, in the engine (what the event loop runs for a command) and through the service
(with a probe of the event loop's longest stall while they run), on the duel's first turn and on
the largest generated map with one player holding every structure."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
from pathlib import Path

from engine.errors import CommandError
from engine.host.service import GameService
from engine.supplylines import turns
from engine.supplylines.commands import GiveOrder
from engine.supplylines.kind import KIND
from engine.supplylines.orders import limit
from engine.supplylines.state import State

ATTEMPTS = 10_000


def duel() -> State:
    state = KIND.setup({"map": "duel", "seed": 1})
    turns.join(state, "a", "Ann", "#c0392b", "100")
    turns.join(state, "b", "Bob", "#2980b9", "200")
    turns.start(state)
    return state


def large() -> State:
    """random-large for 6, two players: Ann holds every structure but Bob's home city, an
    infantry in each city and home city (her PopCap full): the most orders a player can have
    on a generated map."""
    state = KIND.setup({"map": "random-large", "max_nations": 6, "seed": 7})
    turns.join(state, "a", "Ann", "#c0392b", "100")
    turns.join(state, "b", "Bob", "#2980b9", "200")
    turns.start(state)
    rules = state.rules
    bob = state.board.home_of(2)
    for label in state.board.labels():
        if label != bob:
            state.owners[label] = "a"
            if rules.structures[state.kind(label)].popcap and not state.units_at(label):
                state.add_unit("infantry", "a", label)
    return state


def orders(state: State) -> list[str]:
    """Useful orders first (a move for each unit, a hold in each structure with units), then
    the same hold again and again."""
    out = []
    for unit in state.units_of("a"):
        out.append(f"1 Infantry @ {unit.at} > {state.board.neighbours(unit.at)[0]}")
    places = sorted({u.at for u in state.units_of("a")})
    out += [f"Hold@{p}" for p in places]
    return out + [f"Hold@{places[0]}"] * (ATTEMPTS - len(out))


def engine_costs(state: State) -> tuple[int, list[float], list[float]]:
    kept, refused = [], []
    for text in orders(state):
        t0 = time.perf_counter()
        try:
            turns.add_order(state, "a", text)
            kept.append(time.perf_counter() - t0)
        except CommandError:
            refused.append(time.perf_counter() - t0)
    return len(state.orders["a"]), kept, refused


async def service_costs(state: State) -> tuple[int, float, float, float, float]:
    """Through the service (a SQLite store), each add a task's turn on the event loop as an
    interaction's is: (kept, slowest add in ms, the most CPU time one add took in ms (on a
    shared machine the slowest add may have waited for the CPU), the event loop's longest
    stall in ms, seconds for all)."""
    with tempfile.TemporaryDirectory() as tmp:
        service = await GameService.open(str(Path(tmp) / "orders.db"), synchronous="NORMAL")
        try:
            game = await service.create_game(name="Orders", kind="supply-lines", world=state)
            stall = 0.0
            running = True

            async def probe() -> None:
                nonlocal stall
                while running:
                    t0 = time.perf_counter()
                    await asyncio.sleep(0)
                    stall = max(stall, time.perf_counter() - t0)

            watcher = asyncio.create_task(probe())
            slowest, cpu, start = 0.0, 0.0, time.perf_counter()
            for text in orders(state):
                await asyncio.sleep(0)  # each add is an interaction of its own
                t0, c0 = time.perf_counter(), time.thread_time()
                with contextlib.suppress(CommandError):
                    await service.submit(game, "a", GiveOrder(text=text))
                slowest = max(slowest, time.perf_counter() - t0)
                cpu = max(cpu, time.thread_time() - c0)
            seconds = time.perf_counter() - start
            running = False
            await watcher
            kept = len((await service.live_world(game)).orders["a"])
            return kept, slowest * 1e3, cpu * 1e3, stall * 1e3, seconds
        finally:
            await service.close()


def main() -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M')}: Supply Lines, {ATTEMPTS:,} attempted orders")
    for name, make in (("duel, turn 1", duel), ("random-large, every structure", large)):
        state = make()
        cap, _ = limit(state, "a")
        kept, accepted, refused = engine_costs(make())
        print(
            f"  {name}: cap {cap}, kept {kept}; engine: add at the cap "
            f"{accepted[-1] * 1e3:.3f} ms (slowest kept {max(accepted) * 1e3:.3f} ms), "
            f"refused past it median {statistics.median(refused) * 1e3:.3f} ms, slowest "
            f"{max(refused) * 1e3:.3f} ms, the first 1,000 attempts "
            f"{sum((accepted + refused)[:1000]) * 1e3:.0f} ms in all"
        )
        kept, slowest, cpu, stall, seconds = asyncio.run(service_costs(make()))
        print(
            f"    service: kept {kept}, slowest add {slowest:.2f} ms (CPU {cpu:.2f} ms at most), "
            f"event loop's longest stall {stall:.2f} ms, {seconds:.1f} s for {ATTEMPTS:,}"
        )


if __name__ == "__main__":
    main()
