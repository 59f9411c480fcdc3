"""Diplomacy: one nation sets its relation towards another.

- Raising a relation is a one-sided offer; what a level allows between two nations (sharing
  supply, refuelling, sight; not intercepting) needs both sides at that level, so the other
  side accepts by raising theirs too.
- Lowering is immediate when it only matches the other side's relation towards you, or when no
  level being left asks for notice; otherwise it takes effect after the ruleset's notice
  (24 hours to leave friendly, and non-aggression in `standard`).
- Whenever a relation drops, the other side's relation drops to at least as low at once.
- An offer of alliance to a nation that already has its ally stands (whom others are allied
  with is not shown); it takes effect if that nation leaves its alliance and accepts.
- Declaring war on a nation also ends friendship with its allies (both ways, to neutral);
  becoming allied ends friendship with the nations your ally is at war with.
"""

from __future__ import annotations

from engine.errors import CommandError
from engine.strategic import events as ev
from engine.strategic.world import PendingRelation, World


def notice_ticks(world: World, current: str, target: str) -> int:
    d = world.rules.diplomacy
    lo, hi = d.rank(target), d.rank(current)
    hours = max((d.notice_hours.get(level, 0) for level in d.levels[lo + 1 : hi + 1]), default=0)
    return hours * world.rules.ticks_per_hour


def set_relation(world: World, nation: str, other: str, level: str) -> list[ev.Event]:
    """Validate and apply (or schedule) `nation`'s new relation towards `other`."""
    d = world.rules.diplomacy
    if other == nation:
        raise CommandError("that is your own nation")
    if other not in world.nations:
        raise CommandError(f"there is no nation {other!r} in this game")
    if world.nations[other].out:
        raise CommandError(f"{world.nations[other].name} is out of the game")
    if level not in d.levels:
        raise CommandError(f"relations are {', '.join(d.levels)}; not {level!r}")
    current = world.relation(nation, other)
    pending = [p for p in world.pending if p.nation == nation and p.other == other]
    if level == current and not pending:
        name = world.nations[other].name
        if level == world.rules.diplomacy.war:
            raise CommandError(f"you are already at war with {name}")
        raise CommandError(f"you are already {level} towards {name}")
    if d.max_allies is not None and level == "allied" and current != "allied":
        mine = [o for o in world.nations if o != other and world.relation(nation, o) == "allied"]
        if len(mine) >= d.max_allies:
            raise CommandError(
                f"a nation may have at most {d.max_allies} ally; you are allied with {world.nations[mine[0]].name}"
            )
    world.pending = [p for p in world.pending if not (p.nation == nation and p.other == other)]
    if d.rank(level) < d.rank(current):
        theirs = world.relation(other, nation)
        delay = 0 if d.rank(level) >= d.rank(theirs) else notice_ticks(world, current, level)
        if delay:
            world.pending.append(PendingRelation(world.tick + delay, nation, other, level))
            return [
                ev.RelationChanged(
                    tick=world.tick,
                    to=[nation, other],
                    nation=nation,
                    other=other,
                    level=level,
                    previous=current,
                    due_tick=world.tick + delay,
                )
            ]
    return change(world, nation, other, level)


def change(world: World, nation: str, other: str, level: str) -> list[ev.Event]:
    """Apply a relation change now, with its knock-on effects."""
    d = world.rules.diplomacy
    previous = world.relation(nation, other)
    if previous == level:
        return []
    theirs = world.relation(other, nation)
    world.set_relation(nation, other, level)
    out: list[ev.Event] = [
        ev.RelationChanged(
            tick=world.tick,
            to=[nation, other],
            nation=nation,
            other=other,
            level=level,
            previous=previous,
            mutual=theirs == level,
            was_mutual=theirs == previous,
        )
    ]
    if d.rank(world.relation(other, nation)) > d.rank(level):
        out.extend(change(world, other, nation, level))
    neutral = d.start
    if level == d.war:
        for ally in [
            o
            for o in world.nations
            if o not in (nation, other) and world.mutual(other, o, "allied")
        ]:
            out.extend(_at_most(world, nation, ally, neutral))
            out.extend(_at_most(world, ally, nation, neutral))
    if level == "allied":
        for enemy in [
            o
            for o in world.nations
            if o not in (nation, other) and world.relation(other, o) == d.war
        ]:
            out.extend(_at_most(world, nation, enemy, neutral))
            out.extend(_at_most(world, enemy, nation, neutral))
    return out


def _at_most(world: World, nation: str, other: str, level: str) -> list[ev.Event]:
    d = world.rules.diplomacy
    if d.rank(world.relation(nation, other)) > d.rank(level):
        return change(world, nation, other, level)
    return []
