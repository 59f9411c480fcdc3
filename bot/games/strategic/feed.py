"""The game's public news in its channel, as the original game's bulletins: what every player
may know, whatever their fog (docs/RULES.md, "The channel's news").

Told: a war declared (who on whom), an alliance formed or broken (both sides at allied, or no
longer), a city taken from a player (who from whom, never where), a satellite launched (who,
never where), an ICBM launched (who, at which square, with what blast: that much is news to
every nation by the rules; in ruleset total-war whether it missed and the ecological meter
after it), a nation out, society's collapse (ruleset total-war). Never a square but an ICBM's target, never a unit, a
neutral city taken, nor anything of a nation's technology, builds or forces."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

WAR = "war"
ALLIED = "allied"


def feed_lines(events: Iterable[Any], names: Mapping[str, str]) -> list[str]:
    """The news lines these events make, in order (`names`: nation id -> its public name)."""

    def name(nation: str | None) -> str:
        return f"**{names.get(nation or '', nation or 'nobody')}**"

    lines: list[str] = []
    launches: set[tuple[str, str, int]] = set()
    for e in events:
        match e.kind:
            case "RelationChanged" if e.due_tick is None:
                if e.level == WAR and e.previous != WAR and not e.mutual:
                    lines.append(f"⚔️ {name(e.nation)} declared war on {name(e.other)}.")
                elif e.level == ALLIED and e.mutual:
                    lines.append(f"🤝 {name(e.nation)} and {name(e.other)} are now allies.")
                elif e.previous == ALLIED and e.was_mutual:
                    lines.append(
                        f"💔 The alliance of {name(e.nation)} and {name(e.other)} is over."
                    )
            case "CityCaptured" if e.previous is not None:
                lines.append(f"🏴 {name(e.nation)} took a city from {name(e.previous)}.")
            case "SatelliteLaunched" if e.square is None:  # (the others' copy: one a launch)
                lines.append(f"🛰️ {name(e.nation)} launched a satellite.")
            case "IcbmLaunched":
                key = (e.nation, e.square, e.tick)
                if key in launches:
                    continue  # one launch, told to several nations in several copies
                launches.add(key)
                what = "a counter-strike" if e.counter else "an ICBM"
                line = f"☢️ {name(e.nation)} launched {what} at {e.square} (blast radius {e.radius})"
                if getattr(e, "hit", None) is False:
                    line += ": it missed"
                ecology, limit = getattr(e, "ecology", None), getattr(e, "collapse_at", None)
                if ecology is not None and limit is not None:
                    line += f"; the ecological meter stands at {ecology}/{limit}"
                lines.append(line + ".")
            case "GameEnded" if getattr(e, "collapse", False):
                lines.append(
                    "🌋 Society has collapsed under the wastelands' ecological damage: "
                    "the game is over and every nation lost."
                )
            case "NationEliminated":
                lines.append(f"🏳️ {name(e.nation)} is out of the game.")
    return lines
