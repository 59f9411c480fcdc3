"""Big worlds for benchmarks: a generated map with every slot claimed and units scattered."""

from __future__ import annotations

from engine.strategic.mapgen import claim_slot, generate
from engine.strategic.world import World
from engine.strategic.world.rng import Rng

LAND_TYPES = ["infantry", "infantry", "tank", "engineer"]
SEA_TYPES = ["destroyer", "transport", "supply_ship", "battleship", "submarine", "cruiser"]
AIR_TYPES = ["fighter", "heavy_bomber", "naval_bomber", "helicopter"]


def big_world(
    *,
    nations: int = 32,
    size: int = 256,
    units: int = 20_000,
    seed: int = 1,
    ruleset: str = "standard",
) -> World:
    world = generate(ruleset, nations=nations, width=size, height=size, seed=seed)
    for slot in range(nations):
        joining = f"n{slot:02d}"
        world.add_nation(joining, f"Nation {slot}", "#888888")
        claim_slot(world, slot, joining)
    world.started = True
    for nation in world.nations.values():
        nation.tech = 10.0
    rng = Rng(seed)
    period = world.rules.ticks_per_unit_update
    per = units // nations
    grid = world.grid
    for slot, nid in enumerate(world.slot_owner):
        assert nid is not None
        home = world.slots[slot][0]
        placed = sum(1 for u in world.units.values() if u.owner == nid)
        area = grid.within(home, 12)
        land = [s for s in area if world.is_land(s)]
        sea = [s for s in area if world.is_water(s) and s not in world.at]
        rng.shuffle(sea)
        while placed < per:
            roll = rng.randint(0, 9)
            # built at different times, as in a real game: their 4-hourly updates are spread out
            born = -rng.randint(0, period - 1)
            if roll < 6 and land:
                world.add_unit(rng.choice(LAND_TYPES), nid, rng.choice(land), born=born)
            elif roll < 8 and sea:
                world.add_unit(rng.choice(SEA_TYPES), nid, sea.pop(), born=born)
            else:
                world.add_unit(rng.choice(AIR_TYPES), nid, rng.choice(land or area), born=born)
            placed += 1
    # a war is on: a fifth of the units are damaged and heal at their updates
    for unit in world.units.values():
        if rng.randint(0, 4) == 0:
            unit.hp = rng.randint(1, world.rules.unit[unit.type].hp)
    return world
