"""Supply Lines adjudication cases, in the spirit of Diplomacy's DATC: a small board, owners,
units, each player's orders, one turn resolved, the outcome checked. Cases are YAML, a list per
file (the suite is tests/supplylines/cases/*.yaml; `si scenario FILE` runs any such file):

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.errors import CommandError
from engine.supplylines import adjudicator, supply
from engine.supplylines.adjudicator import TurnReport
from engine.supplylines.board import Board, Structure
from engine.supplylines.orders import OrderList, parse
from engine.supplylines.state import Player, State

UNIT = re.compile(r"^(\w+)\s+(\d+)\s+(\w+)\s*@\s*(\w+)(?:\s+marks\s+(\d+))?$")


@dataclass
class Case:
    name: str
    file: str  # the file's name without its suffix
    data: dict[str, Any]


@dataclass
class Outcome:
    """A case resolved: the state after the turn, its report, and what was not as expected."""

    case: Case
    state: State | None = None
    report: TurnReport | None = None
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def is_cases(data: Any) -> bool:
    """Whether a loaded YAML document is a list of Supply Lines cases (each has its roads)."""
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(item, dict) and "roads" in item for item in data)
    )


def load_file(path: str | Path) -> list[Case]:
    path = Path(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not is_cases(data):
        raise ValueError(f"{path}: not a list of Supply Lines cases (each with its roads)")
    return [
        Case(str(item.get("name", f"case {i + 1}")), path.stem, item) for i, item in enumerate(data)
    ]


def load_folder(folder: str | Path) -> list[Case]:
    return [case for path in sorted(Path(folder).glob("*.yaml")) for case in load_file(path)]


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
    """The board, owners and units a case describes (raises ValueError on a bad line)."""
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
        if not m:
            raise ValueError(f"bad unit line {line!r} (e.g. 'a 2 infantry @ C1 marks 1')")
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


def run(case: Case) -> Outcome:
    """Resolve the case's turn (stages 1-8, supply choices as given) and compare."""
    out = Outcome(case)
    data = case.data
    try:
        state = build_state(data)
        orders = orders_of(state, data)
    except (ValueError, CommandError) as exc:
        out.failures.append(f"the case cannot be set up: {exc}")
        return out
    expect = data.get("expect") or {}
    report = adjudicator.resolve_orders(state, orders)
    asked: dict[str, list[int]] = {}
    conceding = {p for p, listed in orders.items() if any(o.kind == "concede" for o in listed)}
    for q in supply.questions(state, skip=conceding):
        asked.setdefault(q.player, []).extend(q.network.units)
    adjudicator.finish_turn(state, report, orders, data.get("choices"))
    out.state, out.report = state, report
    _compare(out, expect, state, report, asked)
    return out


def _compare(
    out: Outcome,
    expect: dict[str, Any],
    state: State,
    report: TurnReport,
    asked: dict[str, list[int]],
) -> None:
    def differ(what: str, got: Any, wanted: Any) -> None:
        if got != wanted:
            out.failures.append(f"{what}: expected {wanted!r}, got {got!r}")

    if "at" in expect:
        differ("units", placement(state), {k: _normal(v) for k, v in (expect["at"] or {}).items()})
    for label, owner in (expect.get("owners") or {}).items():
        differ(f"owner of {label}", state.owners[label], None if owner in (None, "none") else owner)
    if "destroyed" in expect:
        differ("destroyed", sorted(u.id for u in report.destroyed), sorted(expect["destroyed"]))
    if "disbanded" in expect:
        differ("disbanded", sorted(u.id for u in report.disbanded), sorted(expect["disbanded"]))
    for uid, marks in (expect.get("marks") or {}).items():
        unit = state.units.get(int(uid))
        differ(f"marks of unit {uid}", unit.marks if unit else "no such unit", marks)
    for key in ("immobilised", "restored", "supplied"):
        if key in expect:
            differ(key, sorted(getattr(report, key)), sorted(expect[key]))
    if "questions" in expect:
        differ(
            "supply questions",
            {p: sorted(us) for p, us in asked.items()},
            {p: sorted(us) for p, us in (expect["questions"] or {}).items()},
        )
    if "built" in expect:
        wanted = sorted(
            f"{m.group(1)} 1 {m.group(3)} @ {m.group(4)}"
            for line in str(expect["built"] or "").split(";")
            if line.strip()
            for m in [UNIT.match(line.strip())]
            if m
            for _ in range(int(m.group(2)))
        )
        differ("built", sorted(f"{u.owner} 1 {u.type} @ {u.at}" for u in report.built), wanted)
    if "skipped" in expect:
        differ("builds skipped", len(report.skipped), expect["skipped"])
    if "winner" in expect:
        winner = None if expect["winner"] in (None, "none") else expect["winner"]
        differ("winner", state.winner, winner)
        differ("the game is over", state.ended, winner is not None or not state.active())
    if "out" in expect:
        differ("out", sorted(p for p, pl in state.players.items() if pl.out), sorted(expect["out"]))
    if "conflicts" in expect:
        differ("conflicts", len(report.conflicts), expect["conflicts"])


def _normal(text: str) -> str:
    """ "a 2 infantry, b 1 tank" in the order `placement` writes it."""
    parts = []
    for part in str(text).split(","):
        owner, n, type_ = part.split()
        parts.append((owner, type_, int(n)))
    return ", ".join(f"{o} {n} {t}" for o, t, n in sorted(parts))
