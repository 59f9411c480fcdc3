"""Supply Lines adjudication cases, in the spirit of Diplomacy's DATC: a small board, owners,
units, each player's orders, one turn resolved, the outcome checked. Cases are YAML
(tests/supplylines/cases/*.yaml, a list per file):

    - name: head-on, the stronger goes on
      rule: "units from different players attempting to move directly into the structure
             opposite each other"               # the seed's sentence the case tests
      roads: H1-C1 C1-C2 C2-H2                   # structures come from the roads
      owners: {a: H1 C1, b: H2 C2}               # the rest is neutral
      units: [a 2 infantry @ C1, b 1 tank @ C2 marks 2]   # ids 1, 2, 3 in this order
      orders: {a: [C1 > C2], b: [C2 > C1]}       # missing: everything holds
      choices: {a: [1]}                          # supply choices (optional)
      expect:
        at: {C1: b 1 tank, C2: a 2 infantry}     # every occupied structure, nothing else
        owners: {C1: b}                          # only those named are checked
        destroyed: [1, 2]                        # unit ids destroyed in conflicts
        disbanded: [3]                           # unit ids disbanded at the PopCap check
        marks: {3: 3}                            # unit id -> marks after the turn
        immobilised: [3]
        supplied: [1]                            # exactly these (of the players' units)
        questions: {a: [1, 2]}                   # players asked, with the network's units
        built: a 1 tank @ M1                      # what was built (one line each, ;-separated)
        skipped: 1                               # builds skipped
        winner: a                                # or none
        out: [b]                                 # players out after the turn
        conflicts: 2                             # how many conflicts

Players a, b, c... sit at seats 1, 2, 3... (home cities H1, H2, H3...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.supplylines import adjudicator, supply
from engine.supplylines.board import Board, Structure
from engine.supplylines.orders import OrderList, parse
from engine.supplylines.state import Player, State

CASES = Path(__file__).parent / "cases"
UNIT = re.compile(r"^(\w+)\s+(\d+)\s+(\w+)\s*@\s*(\w+)(?:\s+marks\s+(\d+))?$")


@dataclass
class Case:
    name: str
    file: str
    data: dict[str, Any]


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        for data in yaml.safe_load(path.read_text(encoding="utf-8")):
            cases.append(Case(data["name"], path.stem, data))
    return cases


def board_of(roads: str) -> Board:
    pairs = [tuple(r.split("-")) for r in roads.split()]
    labels = sorted({label for pair in pairs for label in pair})
    seats = sorted(int(label[1:]) for label in labels if label.startswith("H"))
    structures = {
        label: Structure(
            x=(i + 1) / (len(labels) + 1),
            y=0.5,
            seat=int(label[1:]) if label.startswith("H") else None,
        )
        for i, label in enumerate(labels)
    }
    return Board(
        name="case",
        title="case",
        seats=len(seats),
        structures=structures,
        roads=[(a, b) for a, b in pairs],
    )


def build_state(data: dict[str, Any]) -> State:
    board = board_of(data["roads"])
    players = [
        Player(id=chr(ord("a") + seat - 1), name=chr(ord("A") + seat - 1), seat=seat)
        for seat in range(1, board.seats + 1)
    ]
    owners: dict[str, str | None] = {label: None for label in board.structures}
    for player, labels in (data.get("owners") or {}).items():
        for label in str(labels).split():
            owners[label] = player
    state = State(board=board, owners=owners, players={p.id: p for p in players})
    state.board.check(state.ruleset)
    for line in data.get("units") or []:
        m = UNIT.match(line.strip())
        assert m, f"bad unit line {line!r}"
        owner, count, type_, at, marks = m.groups()
        type_ = state.ruleset.unit_named(type_) or type_
        for _ in range(int(count)):
            state.add_unit(type_, owner, at, marks=int(marks or 0))
    for player in data.get("out") or []:
        state.players[player].out = True
    state.turn = int(data.get("turn", 0))
    return state


def orders_of(state: State, data: dict[str, Any]) -> dict[str, list]:
    """Each player's orders, parsed and checked as the bot checks them."""
    orders = {}
    for player, lines in (data.get("orders") or {}).items():
        listed = OrderList(state, player)
        for line in lines:
            listed.add(parse(line, state))
        orders[player] = listed.orders
    return orders


def placement(state: State) -> dict[str, str]:
    """Structure -> "a 2 infantry, a 1 tank" (occupied structures only)."""
    found: dict[str, dict[tuple[str, str], int]] = {}
    for u in state.units.values():
        found.setdefault(u.at, {})
        found[u.at][(u.owner, u.type)] = found[u.at].get((u.owner, u.type), 0) + 1
    return {
        label: ", ".join(f"{o} {n} {t}" for (o, t), n in sorted(groups.items()))
        for label, groups in found.items()
    }


def run(case: Case) -> None:
    data = case.data
    state = build_state(data)
    orders = orders_of(state, data)
    expect = data.get("expect") or {}
    report = adjudicator.resolve_orders(state, orders)
    asked: dict[str, list[int]] = {}
    conceding = {p for p, listed in orders.items() if any(o.kind == "concede" for o in listed)}
    for q in supply.questions(state, skip=conceding):
        asked.setdefault(q.player, []).extend(q.network.units)
    adjudicator.finish_turn(state, report, orders, data.get("choices"))
    where = f"{case.file}: {case.name}"
    if "at" in expect:
        wanted = {k: _normal(v) for k, v in (expect["at"] or {}).items()}
        assert placement(state) == wanted, where
    for label, owner in (expect.get("owners") or {}).items():
        want = None if owner in (None, "none") else owner
        assert state.owners[label] == want, f"{where}: owner of {label}"
    if "destroyed" in expect:
        assert sorted(u.id for u in report.destroyed) == sorted(expect["destroyed"]), where
    if "disbanded" in expect:
        assert sorted(u.id for u in report.disbanded) == sorted(expect["disbanded"]), where
    for uid, marks in (expect.get("marks") or {}).items():
        assert state.units[int(uid)].marks == marks, f"{where}: marks of unit {uid}"
    if "immobilised" in expect:
        assert sorted(report.immobilised) == sorted(expect["immobilised"]), where
    if "restored" in expect:
        assert sorted(report.restored) == sorted(expect["restored"]), where
    if "supplied" in expect:
        assert sorted(report.supplied) == sorted(expect["supplied"]), where
    if "questions" in expect:
        wanted_q = {p: sorted(us) for p, us in (expect["questions"] or {}).items()}
        assert {p: sorted(us) for p, us in asked.items()} == wanted_q, where
    if "built" in expect:
        built = sorted(f"{u.owner} 1 {u.type} @ {u.at}" for u in report.built)
        wanted_b = sorted(
            f"{m.group(1)} 1 {m.group(3)} @ {m.group(4)}"
            for line in str(expect["built"] or "").split(";")
            if line.strip()
            for m in [UNIT.match(line.strip())]
            if m
            for _ in range(int(m.group(2)))
        )
        assert built == wanted_b, where
    if "skipped" in expect:
        assert len(report.skipped) == expect["skipped"], where
    if "winner" in expect:
        want_w = None if expect["winner"] in (None, "none") else expect["winner"]
        assert state.winner == want_w, f"{where}: winner"
        assert state.ended == (want_w is not None or not state.active()), where
    if "out" in expect:
        assert sorted(p for p, pl in state.players.items() if pl.out) == sorted(expect["out"])
    if "conflicts" in expect:
        assert len(report.conflicts) == expect["conflicts"], where


def _normal(text: str) -> str:
    """ "a 2 infantry, b 1 tank" in the order `placement` writes it."""
    parts = []
    for part in str(text).split(","):
        owner, n, type_ = part.split()
        parts.append((owner, type_, int(n)))
    return ", ".join(f"{o} {n} {t}" for o, t, n in sorted(parts))
