"""The end of a game: nations with nothing left are out; when the game's time is up, the team
of mutual allies with the most cities wins (seed 000 section 16). Ties share the win."""

from __future__ import annotations

from engine.strategic import events as ev
from engine.strategic.world import World


def eliminate(world: World) -> list[ev.Event]:
    """A nation with no cities and no units is out of the game."""
    out: list[ev.Event] = []
    if not world.started:
        return out
    with_cities: set[str] | None = None  # asked only when a nation has no units left
    for nation in world.nations.values():
        if nation.out or world.owned.get(nation.id):
            continue
        if with_cities is None:
            with_cities = {c.owner for c in world.cities.values() if c.owner is not None}
        if nation.id in with_cities:
            continue
        nation.out = True
        out.append(
            ev.NationEliminated(
                tick=world.tick, to=list(world.nations), nation=nation.id, name=nation.name
            )
        )
    return out


def standings(world: World) -> list[dict]:
    """Teams of mutual allies (every nation in exactly one team, grouped by its own team),
    with their combined cities, best first."""
    counts: dict[str, int] = {}
    for city in world.cities.values():
        if city.owner is not None:
            counts[city.owner] = counts.get(city.owner, 0) + 1
    teams: list[list[str]] = []
    placed: set[str] = set()
    for nid in sorted(world.nations):
        if nid in placed:
            continue
        team = sorted(world.team(nid) - placed)
        placed.update(team)
        teams.append(team)
    rows: list[dict] = [  # as returned (and as GameEnded.standings holds them)
        {"nations": team, "cities": sum(counts.get(n, 0) for n in team)} for team in teams
    ]
    rows.sort(key=lambda r: (-r["cities"], r["nations"]))
    return rows


def end_if_due(world: World) -> list[ev.Event]:
    if world.ended or world.tick < world.end_tick:
        return []
    return finish(world)


def collapse(world: World) -> list[ev.Event]:
    """Society collapses (ruleset total-war: the ecological meter reached its threshold): the
    game ends now and every nation loses; the standings say how it stood."""
    world.ended = True
    return [
        ev.GameEnded(
            tick=world.tick,
            to=list(world.nations),
            standings=standings(world),
            winners=[],
            collapse=True,
        )
    ]


def finish(world: World, *, by_moderator: bool = False) -> list[ev.Event]:
    """End the game now: the team of mutual allies with the most cities wins."""
    world.ended = True
    rows = standings(world)
    best = rows[0]["cities"] if rows else 0
    winners = sorted(n for r in rows if r["cities"] == best and best > 0 for n in r["nations"])
    return [
        ev.GameEnded(
            tick=world.tick,
            to=list(world.nations),
            standings=rows,
            winners=winners,
            by_moderator=by_moderator,
        )
    ]
