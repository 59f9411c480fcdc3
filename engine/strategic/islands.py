"""The starting islands a joining player may choose among (issue 31, founding a nation): the
free ones, numbered as `/game join home:` takes them (slot i is island i + 1, in the
generator's farthest-point order: `mapgen`), with their land and first home city. This is what
anyone may know of a game in its lobby: the free islands only, never the taken ones (where
another nation starts is its own secret) nor the rest of the map."""

from __future__ import annotations

from dataclasses import dataclass

from engine.strategic.world import LAND, World


@dataclass(frozen=True, slots=True)
class StartingIsland:
    number: int  # as the player names it (1 to the game's seats)
    home: int  # its first home city's square
    land: tuple[int, ...]  # its land squares, sorted


@dataclass(frozen=True, slots=True)
class StartingIslands:
    width: int
    height: int
    seats: int  # islands in all, free or taken
    free: tuple[StartingIsland, ...]  # by number

    def label(self, sq: int) -> str:
        return f"{sq % self.width},{sq // self.width}"


def island_of(world: World, start: int) -> tuple[int, ...]:
    """The land squares joined to `start` (8 neighbours: the way units walk)."""
    seen = {start}
    todo = [start]
    while todo:
        sq = todo.pop()
        for n in world.grid.neighbours(sq):
            if n not in seen and world.terrain[n] == LAND:
                seen.add(n)
                todo.append(n)
    return tuple(sorted(seen))


def free_islands(world: World) -> StartingIslands:
    """The free starting islands of a game (in its lobby: after the start, none are offered)."""
    free: tuple[StartingIsland, ...] = ()
    if not world.started and not world.ended:
        free = tuple(
            StartingIsland(i + 1, squares[0], island_of(world, squares[0]))
            for i, (squares, owner) in enumerate(zip(world.slots, world.slot_owner, strict=True))
            if owner is None and squares
        )
    return StartingIslands(world.width, world.height, len(world.slots), free)
