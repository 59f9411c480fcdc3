"""What a Supply Lines game's channel is told in words beside each turn's board: the turn's
results in a few lines (who moved where, the fights, units destroyed and disbanded, structures
that changed hands, builds, supply losses, players out), and the reminder of a deadline near
for the players who have not submitted. Public facts only: everything here is on the board
everyone sees once the turn has resolved (the game has no fog); orders not yet resolved and
supply questions (a player's own) are never told."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import turnbased
from bot.dm.text import DISCORD_LIMIT
from engine.supplylines import events as ev

ROOM = DISCORD_LIMIT - 200  # the summary's share of a message (the heading goes before it)


def _counts(units: list[dict[str, Any]]) -> str:
    """ "2 infantry and 1 tank" """
    by_type: dict[str, int] = {}
    for u in units:
        by_type[u["type"]] = by_type.get(u["type"], 0) + 1
    return " and ".join(
        f"{n} {t}{'s' if n > 1 and t != 'infantry' else ''}" for t, n in sorted(by_type.items())
    )


def _by_owner_place(units: list[dict[str, Any]], names: Mapping[str, str]) -> str:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for u in units:
        groups.setdefault((names.get(u["owner"], u["owner"] or "neutral"), u["at"]), []).append(u)
    return ", ".join(f"{who} {_counts(us)} at {at}" for (who, at), us in sorted(groups.items()))


def turn_summary(
    moved: ev.TurnMoved | None, ended: ev.TurnEnded | None, names: Mapping[str, str]
) -> list[str]:
    """The lines telling everyone what a turn did (`moved`: stages 1-4; `ended`: 5-8)."""
    lines: list[str] = []
    if moved is not None:
        routes: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = {}
        for m in moved.moved:
            routes.setdefault(m["owner"], {}).setdefault((m["src"], m["dst"]), []).append(m)
        for owner in sorted(routes, key=lambda o: names.get(o, o)):
            legs = ", ".join(
                f"{a} > {b} ({_counts(us)})" for (a, b), us in sorted(routes[owner].items())
            )
            lines.append(f"{names.get(owner, owner)} moved {legs}.")
        if moved.built:
            lines.append(f"Built: {_by_owner_place(moved.built, names)}.")
        for c in moved.conflicts:
            sides = " vs ".join(f"{names.get(p, p)} {s}" for p, s in c["strengths"].items())
            where = f"on the road {c['place']}" if c["round"] == 0 else f"at {c['place']}"
            won = "a tie" if c["winner"] is None else f"{names.get(c['winner'], c['winner'])} won"
            back: dict[tuple[str, str], int] = {}
            for uid, to in c["bumped"].items():
                whose = c.get("owners", {}).get(uid)
                who = names.get(whose, whose) if whose else "units"
                back[(who, to)] = back.get((who, to), 0) + 1
            bumped = ", ".join(
                f"{who} {n} unit{'s' if n > 1 else ''} to {to}"
                for (who, to), n in sorted(back.items())
            )
            lines.append(
                f"Fight {where}: {sides}, {won}" + (f"; bumped back: {bumped}." if bumped else ".")
            )
        if moved.destroyed:
            lines.append(f"Destroyed: {_by_owner_place(moved.destroyed, names)}.")
        if moved.disbanded:
            lines.append(f"Disbanded over the PopCap: {_by_owner_place(moved.disbanded, names)}.")
        for c in moved.captured:
            before = f" from {names.get(c['before'], c['before'])}" if c["before"] else ""
            lines.append(f"{names.get(c['after'], c['after'])} took {c['at']}{before}.")
    if ended is not None:
        lines += _supply(ended, names)
    return lines


def _supply(e: ev.TurnEnded, names: Mapping[str, str]) -> list[str]:
    lines = []
    if e.owners:  # (events stored before owners were kept say nothing of supply here)
        short: dict[str, int] = {}
        stuck: dict[str, int] = {}
        for i in e.unsupplied:
            if i in e.owners:
                short[e.owners[i]] = short.get(e.owners[i], 0) + 1
        for i in e.immobilised:
            if i in e.owners:
                stuck[e.owners[i]] = stuck.get(e.owners[i], 0) + 1
        for p in sorted(short, key=lambda o: names.get(o, o)):
            now = f" ({stuck[p]} now immobile)" if stuck.get(p) else ""
            units = "unit" if short[p] == 1 else "units"
            lines.append(f"Out of supply: {names.get(p, p)} {short[p]} {units}{now}.")
    for p in e.conceded:
        lines.append(f"{names.get(p, p)} conceded.")
    for p in e.defeated:
        lines.append(f"{names.get(p, p)} holds no structure and is out.")
    if e.winner is not None:
        lines.append(f"{names.get(e.winner, e.winner)} has won.")
    return lines


def fitted(lines: list[str], room: int = ROOM) -> str:
    """The lines as one message's part: those that fit, then how many more."""
    return turnbased.fitted(lines, room, "the board")


def reminder(
    e: ev.DeadlineNear,
    names: Mapping[str, str],
    pinged: Mapping[str, str],
    due: str,
) -> str:
    """The channel's reminder: the players not submitted, a mention for those who chose the
    channel over a DM (`pinged`: nation -> Discord user id), the others by name."""
    who = turnbased.waiting(e, names, pinged)
    return f"Turn {e.turn}'s orders are due {due}. Not submitted yet: {who}."
