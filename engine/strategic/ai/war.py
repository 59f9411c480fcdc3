"""War and peace: answering war, alliances, choosing whom to make war on and preparing it."""

from __future__ import annotations

from engine.strategic import commands as cmd
from engine.strategic.ai.state import Plan


def diplomacy(p: Plan) -> None:
    """Answer war with war; accept an alliance when allied-free and the proposer is not its
    target; offer one to the strongest other nation it knows, leave an ally grown too big;
    then (if its style starts wars and it is at peace) prepare war."""
    view, profile, memory = p.view, p.profile, p.memory
    levels = p.rules.diplomacy.levels
    for n in view.nations.values():
        if n.id == view.nation or n.out:
            continue
        if n.relation_from == p.war and n.relation_to != p.war:
            p.issue(cmd.SetRelation(other=n.id, level=p.war))
            p.at_war.add(n.id)
    allies = [n for n in view.nations.values() if n.relation_to == "allied"]
    active = [n for n in view.nations.values() if n.id != view.nation and not n.out]
    # an alliance only makes sense while someone else is left to beat
    worth_allying = len(active) >= 2
    if "allied" in levels and not allies and worth_allying:
        for n in view.nations.values():
            if (
                n.id != view.nation
                and n.relation_from == "allied"
                and n.id != memory.target
                and n.id not in p.at_war
            ):
                p.issue(cmd.SetRelation(other=n.id, level="allied"))
                p.notes.append(f"accepts {n.name}'s alliance")
                break
    day = view.tick // (p.rules.ticks_per_day)
    mine = len(p.my_cities)
    counts: dict[str, int] = {}
    for c in view.cities.values():
        if c.owner and c.owner != view.nation:
            counts[c.owner] = counts.get(c.owner, 0) + 1
    ally = next((n for n in allies if not n.out), None)
    if profile.makes_alliances and "allied" in levels:
        if ally is None and day >= profile.alliance_from_day and worth_allying:
            # ask the strongest nation it knows, other than its target, to be its ally
            friends = [
                n
                for n in view.nations.values()
                if n.id != view.nation
                and not n.out
                and n.id != memory.target
                and n.id not in p.at_war
                and n.relation_to != "allied"
                and counts.get(n.id, 0) > 0
            ]
            if friends:
                best = max(friends, key=lambda n: (counts.get(n.id, 0), n.id))
                p.issue(cmd.SetRelation(other=best.id, level="allied"))
                p.notes.append(f"offers {best.name} an alliance")
        elif (
            ally is not None
            and day >= profile.leave_ally_from_day
            and counts.get(ally.id, 0) > profile.leave_ally_ratio * max(1, mine)
        ):
            # an ally that much bigger would take the win: part ways
            p.issue(cmd.SetRelation(other=ally.id, level=p.rules.diplomacy.start))
            p.notes.append(f"leaves its alliance with {ally.name}")
    if not profile.starts_wars or p.at_war:
        return
    prepare_war(p, day)


def prepare_war(p: Plan, day: int) -> None:
    """Expand first. Then choose the weakest nation whose cities it knows (nearest first),
    move the army next to its cities while still at peace, and declare war once enough
    units stand ready there (or the staging time has passed): the first blow falls on many
    cities at once."""
    view, memory, profile = p.view, p.memory, p.profile
    dist = p.map.dist
    neutral_left = sum(1 for c in view.cities.values() if c.owner is None)
    if day < profile.war_from_day or (
        neutral_left > profile.neutral_left and day < profile.war_by_day
    ):
        memory.target = None
        return
    known: dict[str, list[int]] = {}
    for c in view.cities.values():
        if c.owner and c.owner != view.nation:
            rel = view.nations.get(c.owner)
            if rel is not None and rel.relation_to != "allied" and not rel.out:
                known.setdefault(c.owner, []).append(c.sq)
    if not known:
        memory.target = None
        return
    if memory.target not in known:
        home = sorted(p.my_cities)[: profile.target_measured_from]

        def weakness(item: tuple[str, list[int]]) -> tuple[int, int]:
            _, squares = item
            near = min(dist(h, s) for h in home for s in squares) if home else 0
            return (len(squares), near)

        memory.target = min(sorted(known.items()), key=weakness)[0]
        memory.staging_since = view.tick
        p.notes.append(f"prepares war on {view.nations[memory.target].name}")
    cities = known[memory.target]
    if len(p.my_cities) > sum(len(v) for v in known.values()):
        return  # ahead of everyone it knows of put together: a war would only risk that
    ready = 0
    for u in p.land_units():
        if u.carried_by is None and any(dist(u.sq, c) == 1 for c in cities):
            ready += 1
    waited = view.tick - memory.staging_since
    wanted = max(
        profile.war_ready_min,
        min(profile.war_ready_max, profile.war_ready_per_city * len(cities)),
    )
    if ready >= wanted or waited >= profile.staging_hours * p.rules.ticks_per_hour:
        p.issue(cmd.SetRelation(other=memory.target, level=p.war))
        p.at_war.add(memory.target)
        p.notes.append(f"declares war on {view.nations[memory.target].name} ({ready} units ready)")
