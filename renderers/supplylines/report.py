"""The last turn's report (a `TurnMoved` event) as the board shows it: the moves (and those
stopped on the road by a head-on conflict), units bumped back, conflicts on roads and in
structures, structures captured, units lost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.supplylines.board import label_order, sorted_labels
from engine.supplylines.events import TurnMoved
from engine.supplylines.rules import Rules
from engine.supplylines.state import NEUTRAL
from engine.supplylines.view import View
from renderers.supplylines.game import owner_rank
from renderers.supplylines.orders import Arrow, by_type


@dataclass(frozen=True)
class Outcome:
    moved: list[tuple[Arrow, bool]]  # (arrow, stopped on the road by a head-on conflict)
    bumped: list[Arrow]  # from a conflict's structure to where its losers went
    road_bursts: list[tuple[str, str]]
    structure_bursts: list[str]
    captured: list[str]
    lost: dict[str, dict[tuple[str, str], int]]  # structure -> (owner, type) -> how many


def outcome_of(view: View, rules: Rules, report: TurnMoved) -> Outcome:
    structures = view.board.structures
    who: dict[int, tuple[str, str]] = {u.id: (u.owner, u.type) for u in view.units}
    for entry in [*report.moved, *report.disbanded, *report.destroyed, *report.built]:
        who.setdefault(int(entry["id"]), (str(entry.get("owner")), str(entry.get("type"))))
    stopped: set[int] = set()
    road_bursts: set[tuple[str, str]] = set()
    structure_bursts: set[str] = set()
    bumps: dict[tuple[str, str, str], dict[str, int]] = {}
    for c in report.conflicts:
        place = str(c.get("place", ""))
        if place not in structures:  # a head-on conflict on the road "C2-C3"
            a, _, b = place.partition("-")
            if a in structures and b in structures:
                road_bursts.add((min(a, b, key=label_order), max(a, b, key=label_order)))
            stopped.update(int(i) for i in c.get("bumped", {}))
            continue
        structure_bursts.add(place)
        for uid, target in c.get("bumped", {}).items():
            owner, type_ = who.get(int(uid), (NEUTRAL, "?"))
            if target in structures and target != place:
                counts = bumps.setdefault((owner, place, str(target)), {})
                counts[type_] = counts.get(type_, 0) + 1
    groups: dict[tuple[str, str, str, bool], dict[str, int]] = {}
    for m in report.moved:
        src, dst = str(m.get("src")), str(m.get("dst"))
        if src in structures and dst in structures and src != dst:
            owner, type_ = who[int(m["id"])]
            counts = groups.setdefault((owner, src, dst, int(m["id"]) in stopped), {})
            counts[type_] = counts.get(type_, 0) + 1
    lost: dict[str, dict[tuple[str, str], int]] = {}
    for entry in [*report.destroyed, *report.disbanded]:
        at = str(entry.get("at"))
        if at in structures:
            here = lost.setdefault(at, {})
            key = (str(entry.get("owner")), str(entry.get("type")))
            here[key] = here.get(key, 0) + 1

    def road(key: tuple[str, str, str]) -> tuple[Any, ...]:
        return (owner_rank(view, key[0]), label_order(key[1]), label_order(key[2]))

    return Outcome(
        moved=[
            (Arrow(k[0], k[1], k[2], by_type(rules, c)), k[3])
            for k, c in sorted(groups.items(), key=lambda kv: (road(kv[0][:3]), kv[0][3]))
        ],
        bumped=[
            Arrow(k[0], k[1], k[2], by_type(rules, c))
            for k, c in sorted(bumps.items(), key=lambda kv: road(kv[0]))
        ],
        road_bursts=sorted(road_bursts, key=lambda ab: (label_order(ab[0]), label_order(ab[1]))),
        structure_bursts=sorted_labels(structure_bursts),
        captured=sorted_labels(
            {str(c.get("at")) for c in report.captured if str(c.get("at")) in structures}
        ),
        lost=lost,
    )
