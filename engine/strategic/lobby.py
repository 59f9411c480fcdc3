"""Game lifecycle as pure changes of the world: join, leave, start, resign.

They are logged like commands, so a replay rebuilds the lobby exactly.
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import GameError
from engine.interface.entries import AI_PLAYER
from engine.strategic import events as ev
from engine.strategic.founding import founding_of
from engine.strategic.world import World

NATION_ID = re.compile(r"^[a-z0-9_-]{1,24}$")


def nation_id_for(world: World, name: str) -> str:
    """A short stable id made from a nation's name, unique in the game."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:20] or "nation"
    candidate, n = base, 2
    while candidate in world.nations:
        candidate = f"{base}-{n}"
        n += 1
    return candidate


def join(
    world: World,
    nation_id: str,
    name: str,
    colour: str,
    player: str | None,
    founding: dict[str, Any] | None = None,
) -> list[ev.Event]:
    """A nation joins before the start, founded as its player chose (`founding.Founding`: a
    leader, a title, a starting island) or, by default, leaderless on the first free island.
    Everything is checked before anything changes."""
    from engine.strategic.mapgen import claim_slot  # the generator owns home positions

    chosen = founding_of(founding)
    if world.ended:
        raise GameError("the game is over")
    if not NATION_ID.match(nation_id):
        raise GameError("a nation id is 1-24 lowercase letters, digits, '-' or '_'")
    if nation_id in world.nations:
        raise GameError(f"there is already a nation {nation_id!r}")
    if any(n.name.lower() == name.lower() for n in world.nations.values()):
        raise GameError(f"the name {name!r} is taken in this game")
    if founding is not None and any(
        n.colour.lower() == colour.lower() for n in world.nations.values()
    ):
        raise GameError("that colour is taken in this game")
    if (
        player is not None
        and player != AI_PLAYER
        and any(n.player == player and not n.out for n in world.nations.values())
    ):
        raise GameError("you already play a nation in this game")
    free = [i for i, owner in enumerate(world.slot_owner) if owner is None]
    if not free:
        raise GameError("the game is full")
    slot = free[0]
    if chosen.island is not None:
        slot = chosen.island - 1
        if not 0 <= slot < len(world.slots):
            raise GameError(
                f"there is no starting island {chosen.island}: "
                f"this map's are numbered 1 to {len(world.slots)}"
            )
        if world.slot_owner[slot] is not None:
            raise GameError(f"starting island {chosen.island} is taken: choose a free one")
    nation = world.add_nation(nation_id, name, colour, player=player)
    nation.leader = chosen.leader or ""
    nation.title = chosen.title or ""
    for other in list(world.nations):
        if other != nation_id:
            world.set_relation(nation_id, other, world.rules.diplomacy.start)
            world.set_relation(other, nation_id, world.rules.diplomacy.start)
    claim_slot(world, slot, nation_id)
    world.cities_changed()
    home = world.grid.label(world.slots[slot][0])
    others = [n for n in world.nations if n != nation_id]
    told: list[ev.Event] = [
        ev.NationJoined(tick=world.tick, to=[nation_id], nation=nation_id, name=name, home=home)
    ]
    if others:  # where its home is, the others do not learn
        told.append(ev.NationJoined(tick=world.tick, to=others, nation=nation_id, name=name))
    return told


def leave(world: World, nation_id: str) -> list[ev.Event]:
    """Leave before the start: the nation and everything it had disappear."""
    if world.started:
        raise GameError("the game has started; resign instead")
    nation = _nation(world, nation_id)
    _strip(world, nation_id)
    slot = world.slot_owner.index(nation_id)
    world.slot_owner[slot] = None
    world.remove_nation(nation_id)
    return [
        ev.NationLeft(
            tick=world.tick,
            to=[nation_id, *world.nations],
            nation=nation_id,
            name=nation.name,
            resigned=False,
        )
    ]


def resign(world: World, nation_id: str) -> list[ev.Event]:
    """Give up: units are disbanded, cities become neutral, the nation is out."""
    if world.ended:  # an ended game's result is final
        raise GameError("the game is over")
    nation = _nation(world, nation_id)
    if nation.out:
        raise GameError(f"{nation.name} is already out")
    _strip(world, nation_id)
    nation.out = True
    return [
        ev.NationLeft(
            tick=world.tick,
            to=list(world.nations),
            nation=nation_id,
            name=nation.name,
            resigned=True,
        )
    ]


def substitute(world: World, nation_id: str, player: str | None) -> list[ev.Event]:
    """Hand a nation to another player (a moderator's substitute, or None: nobody / the AI)."""
    if world.ended:  # an ended game's result, and who played it, are final
        raise GameError("the game is over")
    nation = _nation(world, nation_id)
    if nation.out:
        raise GameError(f"{nation.name} is out of the game")
    if (
        player is not None
        and player != AI_PLAYER
        and any(
            n.player == player and not n.out and n.id != nation_id for n in world.nations.values()
        )
    ):
        raise GameError("that player already plays a nation in this game")
    previous = nation.player
    nation.player = player
    return [
        ev.PlayerChanged(
            tick=world.tick,
            to=[nation_id],
            nation=nation_id,
            player=player,
            previous=previous,
        )
    ]


def end_now(world: World) -> list[ev.Event]:
    """A moderator ends the game now: standings as at the end of time."""
    from engine.strategic.systems.endgame import finish

    if world.ended:
        raise GameError("the game is over")
    if not world.started:
        raise GameError("the game has not started; delete it instead")
    return finish(world, by_moderator=True)


def start(world: World) -> list[ev.Event]:
    if world.started:
        raise GameError("the game has already started")
    if len(world.nations) < 1:
        raise GameError("nobody has joined yet")
    world.started = True
    world.sight_index.settle()
    return [
        ev.GameStarted(
            tick=world.tick,
            to=list(world.nations),
            nations=list(world.nations),
            end_tick=world.end_tick,
        )
    ]


def _nation(world: World, nation_id: str):
    nation = world.nations.get(nation_id)
    if nation is None:
        raise GameError(f"there is no nation {nation_id!r} in this game")
    return nation


def _strip(world: World, nation_id: str) -> None:
    for unit in world.units_of(nation_id):
        world.remove_unit(unit)
    for city in world.cities.values():
        if city.owner == nation_id:
            city.owner = None
            city.designation = world.rules.capture.new_designation
            city.build = None
            city.next_build = None
            city.progress = 0
            city.skipped = False
            city.waypoint = None
    world.cities_changed()
