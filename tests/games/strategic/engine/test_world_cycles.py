"""A world holds no reference cycles, so whatever drops it (an eviction, a deleted or ended
game) frees it at once by reference counting: the host may then keep the games' bulk out of the
cyclic garbage collector's full collections (`engine.host.heap`) without leaking dropped
worlds (issue 30)."""

from __future__ import annotations

import gc
import json

from engine.strategic import commands as cmd
from engine.strategic.ai.simulate import new_world
from engine.strategic.clock import advance
from engine.strategic.replay import apply_entry
from engine.strategic.world import World


def test_a_played_world_dropped_leaves_no_garbage_for_the_cyclic_collector() -> None:
    world, _ = new_world(3, 48, 48, 10, 5, "standard", ["normal"])
    advance(world, 8 * world.ticks_per_hour)
    text = world.to_json()
    del world
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        world = World.from_dict(json.loads(text))
        nation = sorted(world.nations)[0]
        other = sorted(world.nations)[1]
        apply_entry(
            world,
            {
                "kind": "command",
                "nation": nation,
                "command": cmd.SetRelation(other=other, level="war").model_dump(mode="json"),
            },
        )
        for _ in range(12):  # ticks: units move, cities build, sight and supply change
            apply_entry(world, {"kind": "advance", "ticks": 1})
        assert gc.collect() == 0  # playing left no cycles behind
        del world
        assert gc.collect() == 0  # and the world itself was freed whole
    finally:
        if was:
            gc.enable()
