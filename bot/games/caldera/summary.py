"""What a Caldera game's channel is told in words beside each turn's star map: the turn's
shared results (who moved how many ships, the battles, the places scouted, the NPCs found,
missions done, the zone and trust), and the reminder of a deadline near. Public facts only:
no captain's hand, credits, income or ship details."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.turnbased import waiting
from engine.caldera import events as ev

RESULTS = {
    "enemy-base": "an enemy base",
    "heavy-enemy": "heavy enemy presence",
    "enemy": "enemy presence",
    "mission": "a loyalty mission",
    "empty": "an empty system",
    "none": "nothing placed",
}


def turn_summary(e: ev.TurnResolved, names: Mapping[str, str]) -> list[str]:
    lines: list[str] = []
    moving: dict[str, int] = {}
    for m in e.moved:
        moving[m["owner"]] = moving.get(m["owner"], 0) + 1
    if moving:
        lines.append(
            "Moved: "
            + ", ".join(
                f"{names.get(o, o)} {n} ship{'s' if n > 1 else ''}" for o, n in moving.items()
            )
            + "."
        )
    if e.battles:
        lines.append("Battles at " + ", ".join(b["at"] for b in e.battles) + ".")
    for s in e.scouted:
        by: Any = s.get("by")
        who = f" by {names.get(by, by)}" if isinstance(by, str) else ""
        lines.append(
            f"Scouted {s['at']}{who}: {RESULTS.get(str(s.get('result')), s.get('result'))}."
        )
    if e.npcs:
        lines.append("New on the map: " + ", ".join(names.get(n, n) for n in e.npcs) + ".")
    for m in e.missions:
        captain: Any = m.get("captain")
        lines.append(
            "The zone mission is done."
            if captain is None
            else f"{names.get(captain, captain)} completed a loyalty mission."
        )
    lines.append(
        f"Zone {e.zone}"
        + (" (a new zone opened)" if e.zone_changed else "")
        + f", zone counter {e.zone_counter}, trust {e.trust}."
    )
    return lines


def reminder(
    e: ev.DeadlineNear, names: Mapping[str, str], pinged: Mapping[str, str], due: str
) -> str:
    return f"Turn {e.turn} resolves {due}. Not submitted yet: {waiting(e, names, pinged)}."
