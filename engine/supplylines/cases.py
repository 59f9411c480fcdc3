"""Supply Lines adjudication cases, in the spirit of Diplomacy's DATC: a small board, owners,
units, each player's orders, the turn resolved, the outcome checked. Cases are YAML, a list per
file (the suite is tests/games/supplylines/engine/cases/*.yaml; `si scenario FILE` runs any such file; the
format in full: docs/SCENARIOS.md, "Supply Lines cases"):

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
        refused: {a: {"Build 1 Tank@M1": not enough PopCap}}  # order -> words of its refusal
        units: {1: C2, 2: gone, 3: {at: H1, marks: 1}}         # unit id -> where (and more)
        bumped: {1: C1}                          # unit id -> where its bump-back ended
        defended: [3]                            # units that held and were in a conflict

Several turns: `turns:` instead of `orders`, `choices` and `expect`, each turn with its
`orders`, `wait` (time passing after the orders resolve: 30m, 4h, 1d, 3t), `answers` (supply
answers, given after the wait, refused after the deadline: `supply_deadline`, default 1h) and
`expect`. Those cases play through the game's own doors (`turns.py`: orders added, submitted,
answered, time advanced), a single turn through the adjudicator alone.

Players a, b, c... sit at seats 1, 2, 3... (home cities H1, H2, H3...). A unit line may end in
`id N` (the unit's id; the next lines go on from the highest). A case that does not follow the
format fails with "malformed case: FIELD: what is wrong", and the other cases still run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from engine.errors import CommandError
from engine.supplylines import adjudicator, supply, turns
from engine.supplylines import events as ev
from engine.supplylines.adjudicator import TurnReport
from engine.supplylines.board import LABEL, Board, Structure
from engine.supplylines.orders import Order, OrderList, parse
from engine.supplylines.state import NEUTRAL, TICKS_PER_HOUR, Player, State

UNIT = re.compile(
    r"^(\w+)\s+(\d+)\s+(\w+)\s*@\s*(\w+)(?:\s+marks\s+(\d+))?(?:\s+id\s+(\d+))?$", re.I
)
UNIT_EXAMPLE = "e.g. 'a 2 infantry @ C1 marks 1'"
ANSWER = "answer"  # the key of a refused supply answer in `refused`

FIELDS = [
    *("name", "rule", "roads", "owners", "units", "out", "turn", "supply_deadline"),
    *("orders", "choices", "expect", "turns"),
]
TURN_FIELDS = ["rule", "orders", "answers", "wait", "expect"]
EXPECT_FIELDS = sorted(
    [
        *("at", "owners", "destroyed", "disbanded", "marks", "immobilised", "restored"),
        *("supplied", "questions", "built", "skipped", "winner", "out", "conflicts"),
        *("refused", "units", "bumped", "defended", "tick"),
    ]
)
UNIT_FIELDS = ("at", "marks", "owner", "type")


class Malformed(ValueError):
    """A case that does not follow the format: the field and what is wrong with it."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)


@dataclass
class Case:
    name: str
    file: str  # the file's name without its suffix
    data: Any  # the case as loaded (a mapping, unless the case is malformed)


@dataclass
class Outcome:
    """A case resolved: the state after its turns, the report of a single turn, and what was
    not as expected."""

    case: Case
    state: State | None = None
    report: TurnReport | None = None
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def is_cases(data: Any) -> bool:
    """Whether a loaded YAML document is a file of Supply Lines cases: a list (a Strategic
    Initiative scenario is a mapping). Its items are checked when each case runs."""
    return isinstance(data, list) and bool(data)


def load_file(path: str | Path) -> list[Case]:
    path = Path(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not is_cases(data):
        raise ValueError(f"{path}: not a list of Supply Lines cases (each with its roads)")
    return [
        Case(
            str(item.get("name", f"case {i + 1}")) if isinstance(item, dict) else f"case {i + 1}",
            path.stem,
            item,
        )
        for i, item in enumerate(data)
    ]


def load_folder(folder: str | Path) -> list[Case]:
    return [case for path in sorted(Path(folder).glob("*.yaml")) for case in load_file(path)]


# --- the setup ---------------------------------------------------------------------------------


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
    """The board, owners and units a case describes (raises `Malformed`, a ValueError, naming
    the field that is wrong)."""
    state = State(board=_board(data.get("roads")), owners={})
    board = state.board
    state.owners = {label: None for label in board.structures}
    state.players = {
        p.id: p
        for p in (
            Player(id=chr(ord("a") + seat - 1), name=chr(ord("A") + seat - 1), seat=seat)
            for seat in range(1, board.seats + 1)
        )
    }
    owners = _mapping("owners", data.get("owners"))
    for player, labels in owners.items():
        player = _player("owners", player, state)
        for label in str(labels).split():
            state.owners[_label("owners", label, state)] = player
    for line in _list("units", data.get("units")):
        _add_units(state, line)
    for player in _list("out", data.get("out")):
        state.players[_player("out", player, state)].out = True
    state.turn = _count("turn", data.get("turn", 0))
    if "supply_deadline" in data:
        state.choice_ticks = max(1, _duration("supply_deadline", data["supply_deadline"]))
    return state


def _board(roads: Any) -> Board:
    if not isinstance(roads, str) or not roads.split():
        raise Malformed("roads", f"{roads!r} is not roads like 'H1-C1 C1-H2'")
    for road in roads.split():
        ends = road.split("-")
        if len(ends) != 2 or not all(LABEL.match(end) for end in ends):
            raise Malformed("roads", f"{road!r} is not a road between two structures like H1-C1")
    homes = {end for road in roads.split() for end in road.split("-") if end.startswith("H")}
    if len(homes) < 2:
        raise Malformed("roads", "a case needs two home cities or more (H1, H2...): one a player")
    try:
        board = board_of(roads)
        board.check(State(board=board, owners={}).rules)
    except ValidationError as exc:
        message = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise Malformed("roads", message) from None
    except ValueError as exc:
        raise Malformed("roads", str(exc)) from None
    return board


def _add_units(state: State, line: Any) -> None:
    m = UNIT.match(str(line).strip())
    if not isinstance(line, str) or not m:
        raise Malformed("units", f"bad unit line {line!r} ({UNIT_EXAMPLE})")
    owner, count, type_, at, marks, first = m.groups()
    where = f"units: {line!r}"
    if owner != NEUTRAL:
        owner = _player(where, owner, state)
    known = state.rules.unit_named(type_)
    if known is None:
        raise Malformed(
            where, f"there is no unit {type_!r} (units: {', '.join(state.rules.units)})"
        )
    label = _label(where, at.upper(), state, listed=False)
    for n in range(int(count)):
        unit = state.add_unit(known, owner, label, marks=int(marks or 0))
        if first is not None:
            uid = int(first) + n
            if uid in state.units:
                raise Malformed(where, f"unit id {uid} is already taken")
            del state.units[unit.id]
            unit.id = uid
            state.units[uid] = unit
            state.next_unit = max(state.units) + 1


# --- reading the fields --------------------------------------------------------------------------


def _mapping(where: str, value: Any) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Malformed(where, f"{value!r} is not a mapping")
    return value


def _list(where: str, value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Malformed(where, f"{value!r} is not a list")
    return value


def _count(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Malformed(where, f"{value!r} is not a whole number")
    return value


def _ids(where: str, value: Any) -> list[int]:
    return sorted(_count(where, i) for i in _list(where, value))


def _player(where: str, player: Any, state: State) -> str:
    if player not in state.players:
        known = ", ".join(sorted(state.players))
        raise Malformed(where, f"there is no player {player!r} (players: {known})")
    return str(player)


def _label(where: str, label: Any, state: State, *, listed: bool = True) -> str:
    if label not in state.board.structures:
        known = f" (structures: {', '.join(sorted(state.board.structures))})" if listed else ""
        raise Malformed(where, f"there is no structure {label}{known}")
    return str(label)


def _duration(where: str, value: Any) -> int:
    """'30m', '4h', '2d', '3t' or a number of ticks -> ticks (a tick: a quarter of an hour)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    m = re.fullmatch(r"\s*(\d+)\s*([dhmt]?)\s*", str(value))
    minutes = {"d": 1440, "h": 60, "m": 1, "t": 60 // TICKS_PER_HOUR, "": 60 // TICKS_PER_HOUR}
    if not m or int(m.group(1)) * minutes[m.group(2)] % (60 // TICKS_PER_HOUR):
        raise Malformed(where, f"{value!r} is not a duration (use 30m, 4h, 2d or 3t)")
    return int(m.group(1)) * minutes[m.group(2)] // (60 // TICKS_PER_HOUR)


def _units_text(where: str, text: Any, state: State) -> str:
    """ "a 2 infantry, b 1 tank" in the order `placement` writes it."""
    parts = []
    for part in str(text).split(","):
        words = part.split()
        if len(words) != 3 or not words[1].isdigit() or int(words[1]) < 1:
            raise Malformed(where, f"{text!r} is not units like 'a 2 infantry, b 1 tank'")
        owner, n, type_ = words
        known = state.rules.unit_named(type_)
        if known is None:
            raise Malformed(where, f"there is no unit {type_!r}")
        parts.append((owner, known, int(n)))
    return ", ".join(f"{o} {n} {t}" for o, t, n in sorted(parts))


@dataclass
class _Turn:
    """One turn of a case, its fields read and checked."""

    where: str  # the prefix of its fields in messages ("" or "turns.2.")
    label: str  # the prefix of its failures ("" or "turn 2: ")
    orders: dict[str, list[str]]
    choices: dict[str, list[int]] | None = None  # a single turn's (the adjudicator's)
    answers: dict[str, list[int]] = field(default_factory=dict)  # a turn's in `turns`
    wait: int = 0
    expect: dict[str, Any] = field(default_factory=dict)


def _unknown(where: str, data: dict[Any, Any], known: list[str]) -> None:
    for key in data:
        if key not in known:
            raise Malformed(where, f"unknown field {key!r} (fields: {', '.join(known)})")


def _plan(data: dict[str, Any], state: State) -> list[_Turn]:
    """The case's turns: one (`orders`, `choices`, `expect`) or those of `turns`."""
    if "turns" not in data:
        return [
            _Turn(
                "",
                "",
                _orders("orders", data.get("orders"), state),
                choices=_choices("choices", data.get("choices"), state),
                expect=_expect("expect", data.get("expect"), state),
            )
        ]
    for key in ("orders", "choices", "expect"):
        if key in data:
            raise Malformed(key, "a case with turns gives it in each turn")
    listed = _list("turns", data["turns"])
    if not listed:
        raise Malformed("turns", "a case with turns has one at least")
    plan = []
    for n, item in enumerate(listed, 1):
        where = f"turns.{n}"
        item = _mapping(where, item)
        _unknown(where, item, TURN_FIELDS)
        plan.append(
            _Turn(
                f"{where}.",
                f"turn {n}: ",
                _orders(f"{where}.orders", item.get("orders"), state),
                answers=_choices(f"{where}.answers", item.get("answers"), state),
                wait=_duration(f"{where}.wait", item.get("wait", 0)),
                expect=_expect(f"{where}.expect", item.get("expect"), state),
            )
        )
    return plan


def _orders(where: str, value: Any, state: State) -> dict[str, list[str]]:
    orders = {}
    for player, lines in _mapping(where, value).items():
        player = _player(where, player, state)
        listed = _list(f"{where}.{player}", lines)
        for line in listed:
            if not isinstance(line, str):
                raise Malformed(f"{where}.{player}", f"{line!r} is not an order")
        orders[player] = listed
    return orders


def _choices(where: str, value: Any, state: State) -> dict[str, list[int]]:
    return {
        _player(where, player, state): _ids(f"{where}.{player}", units)
        for player, units in _mapping(where, value).items()
    }


def _expect(where: str, value: Any, state: State) -> dict[str, Any]:
    """The expectations, each read into the form they are compared in."""
    expect = _mapping(where, value)
    _unknown(where, expect, EXPECT_FIELDS)
    out: dict[str, Any] = {}
    for key, wanted in expect.items():
        at = f"{where}.{key}"
        if key == "at":
            out[key] = {
                _label(at, label, state): _units_text(f"{at}.{label}", text, state)
                for label, text in _mapping(at, wanted).items()
            }
        elif key == "owners":
            out[key] = {
                _label(at, label, state): None
                if owner in (None, "none")
                else _player(f"{at}.{label}", owner, state)
                for label, owner in _mapping(at, wanted).items()
            }
        elif key in ("destroyed", "disbanded", "immobilised", "restored", "supplied", "defended"):
            out[key] = _ids(at, wanted)
        elif key == "marks":
            out[key] = {
                _count(at, u): _count(f"{at}.{u}", n) for u, n in _mapping(at, wanted).items()
            }
        elif key == "questions":
            out[key] = _choices(at, wanted, state)
        elif key == "built":
            out[key] = sorted(_built(at, str(wanted or ""), state))
        elif key in ("skipped", "conflicts", "tick"):
            out[key] = _count(at, wanted)
        elif key == "winner":
            out[key] = None if wanted in (None, "none") else _player(at, wanted, state)
        elif key == "out":
            out[key] = sorted(_player(at, p, state) for p in _list(at, wanted))
        elif key == "refused":
            out[key] = {
                _player(at, player, state): {
                    _words(order): str(words)
                    for order, words in _mapping(f"{at}.{player}", orders).items()
                }
                for player, orders in _mapping(at, wanted).items()
            }
        elif key == "units":
            out[key] = {
                _count(at, uid): _unit_expected(f"{at}.{uid}", about, state)
                for uid, about in _mapping(at, wanted).items()
            }
        elif key == "bumped":
            out[key] = {
                _count(at, uid): _label(f"{at}.{uid}", label, state)
                for uid, label in _mapping(at, wanted).items()
            }
    return out


def _built(where: str, text: str, state: State) -> list[str]:
    lines = []
    for line in (part.strip() for part in text.split(";")):
        m = UNIT.match(line)
        if not line:
            continue
        if not m:
            raise Malformed(where, f"{line!r} is not a unit line like 'a 1 tank @ M1'")
        known = state.rules.unit_named(m.group(3))
        if known is None:
            raise Malformed(where, f"there is no unit {m.group(3)!r}")
        lines += [f"{m.group(1)} 1 {known} @ {m.group(4).upper()}"] * int(m.group(2))
    return lines


def _unit_expected(where: str, about: Any, state: State) -> dict[str, Any] | str:
    """ "gone", or the fields of the unit to check ("C2" alone: where it is)."""
    if about == "gone":
        return "gone"
    if isinstance(about, str):
        return {"at": _label(where, about, state)}
    fields = _mapping(where, about)
    _unknown(where, fields, list(UNIT_FIELDS))
    if "at" in fields:
        _label(f"{where}.at", fields["at"], state)
    if "marks" in fields:
        _count(f"{where}.marks", fields["marks"])
    if "type" in fields:
        known = state.rules.unit_named(str(fields["type"]))
        if known is None:
            raise Malformed(f"{where}.type", f"there is no unit {fields['type']!r}")
        fields = {**fields, "type": known}
    return fields


def _words(text: Any) -> str:
    return " ".join(str(text).split())


# --- running --------------------------------------------------------------------------------------


def orders_of(state: State, data: dict[str, Any]) -> dict[str, list]:
    """Each player's orders, parsed and checked as the bot checks them."""
    orders = {}
    for player, lines in (data.get("orders") or {}).items():
        listed = OrderList(state, player)
        for line in lines:
            listed.add(parse(line, state))
        orders[player] = list(listed.orders)
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


@dataclass
class _Record:
    """What a turn did, as the expectations read it (from the adjudicator's report, or from
    the events of a turn played through the game)."""

    refused: dict[str, dict[str, str]] = field(default_factory=dict)  # player -> order -> why
    disbanded: list[int] = field(default_factory=list)
    destroyed: list[int] = field(default_factory=list)
    built: list[str] = field(default_factory=list)
    skipped: int = 0
    conflicts: int = 0
    moved: set[int] = field(default_factory=set)  # units given a move (not holding)
    in_conflict: set[int] = field(default_factory=set)
    bumped: dict[int, str] = field(default_factory=dict)  # unit -> where its bumps ended
    supplied: list[int] = field(default_factory=list)
    immobilised: list[int] = field(default_factory=list)
    restored: list[int] = field(default_factory=list)
    asked: dict[str, list[int]] = field(default_factory=dict)

    def conflict(self, stayed: list[int], bumped: dict[int, str], destroyed: list[int]) -> None:
        self.conflicts += 1
        self.in_conflict.update(stayed, bumped, destroyed)
        self.bumped.update(bumped)


def run(case: Case) -> Outcome:
    """Resolve the case (one turn through the adjudicator, or its `turns` through the game)
    and compare; a malformed case is one failure that says which field is wrong."""
    out = Outcome(case)
    data = case.data
    try:
        if not isinstance(data, dict):
            raise Malformed(
                "", f"a case is a mapping of its fields (name, roads, ...), not {data!r}"
            )
        _unknown("", data, FIELDS)
        state = build_state(data)
        plan = _plan(data, state)
    except Malformed as exc:
        out.failures.append(f"malformed case: {exc}")
        return out
    if "turns" in data:
        state.started = True
        state.deadline = state.next_deadline()
        for turn in plan:
            _compare(out, turn, state, _play(state, turn))
    else:
        (turn,) = plan
        out.report, record = _adjudicate(state, turn)
        _compare(out, turn, state, record)
    out.state = state
    return out


def _adjudicate(state: State, turn: _Turn) -> tuple[TurnReport, _Record]:
    """A single turn: stages 1-4, the supply questions, stages 5-8 with the choices."""
    record = _Record()
    orders: dict[str, list[Order]] = {}
    for player, lines in turn.orders.items():
        listed = OrderList(state, player)
        for line in lines:
            try:
                listed.add(parse(line, state))
            except CommandError as exc:
                record.refused.setdefault(player, {})[_words(line)] = str(exc)
        orders[player] = list(listed.orders)
    report = adjudicator.resolve_orders(state, orders)
    conceding = {p for p, listed in orders.items() if any(o.kind == "concede" for o in listed)}
    for q in supply.questions(state, skip=conceding):
        record.asked.setdefault(q.player, []).extend(q.network.units)
    adjudicator.finish_turn(state, report, orders, turn.choices)
    record.disbanded = [u.id for u in report.disbanded]
    record.destroyed = [u.id for u in report.destroyed]
    record.built = [f"{u.owner} 1 {u.type} @ {u.at}" for u in report.built]
    record.skipped = len(report.skipped)
    record.moved = {uid for uid, _, _ in report.moved}
    for c in report.conflicts:
        record.conflict(c.stayed, c.bumped, c.destroyed)
    record.supplied = sorted(report.supplied)
    record.immobilised, record.restored = list(report.immobilised), list(report.restored)
    return report, record


def _play(state: State, turn: _Turn) -> _Record:
    """A turn through the game's doors: each player's orders added (a refusal recorded with
    its words), everyone submits, time passes (`wait`), the supply answers are given, and the
    supply phase, if still waiting, runs to its deadline."""
    record = _Record()
    number = state.turn + 1
    events: list[ev.Event] = []
    for player, lines in turn.orders.items():
        for line in lines:
            try:
                events += turns.add_order(state, player, line)
            except CommandError as exc:
                record.refused.setdefault(player, {})[_words(line)] = str(exc)
    for player in state.active():
        if not state.ended and state.phase == "orders" and state.turn + 1 == number:
            events += turns.submit(state, player)
    events += turns.advance(state, turn.wait)
    for player, units in turn.answers.items():
        try:
            events += turns.answer_supply(state, player, units)
        except CommandError as exc:
            record.refused.setdefault(player, {})[ANSWER] = str(exc)
    while not state.ended and state.phase == "supply" and state.deadline is not None:
        events += turns.advance(state, max(1, state.deadline - state.tick))
    for event in events:
        if isinstance(event, ev.SupplyAsked) and event.turn == number:
            record.asked.setdefault(event.player, []).extend(u["id"] for u in event.units)
        elif isinstance(event, ev.TurnMoved) and event.turn == number:
            record.disbanded = [u["id"] for u in event.disbanded]
            record.destroyed = [u["id"] for u in event.destroyed]
            record.built = [f"{u['owner']} 1 {u['type']} @ {u['at']}" for u in event.built]
            record.skipped = len(event.skipped)
            record.moved = {m["id"] for m in event.moved}
            for c in event.conflicts:
                bumped = {int(uid): to for uid, to in c["bumped"].items()}
                record.conflict(c["stayed"], bumped, c["destroyed"])
        elif isinstance(event, ev.TurnEnded) and event.turn == number:
            record.immobilised, record.restored = list(event.immobilised), list(event.restored)
            unsupplied = set(event.unsupplied)
            record.supplied = sorted(
                u.id for u in state.units.values() if u.owner != NEUTRAL and u.id not in unsupplied
            )
    return record


def _compare(out: Outcome, turn: _Turn, state: State, record: _Record) -> None:
    expect, label = turn.expect, turn.label

    def differ(what: str, got: Any, wanted: Any) -> None:
        if got != wanted:
            out.failures.append(f"{label}{what}: expected {wanted!r}, got {got!r}")

    wanted_refusals = expect.get("refused", {})
    for player in sorted(set(record.refused) | set(wanted_refusals)):
        got, wanted = record.refused.get(player, {}), wanted_refusals.get(player, {})
        for order in [*got, *(o for o in wanted if o not in got)]:
            what = f"{player}'s supply answer" if order == ANSWER else f"{player}'s order {order!r}"
            if order not in wanted:
                out.failures.append(f"{label}{what} was refused: {got[order]}")
            elif order not in got:
                out.failures.append(
                    f"{label}{what} was not refused (expected it to say {wanted[order]!r})"
                )
            elif wanted[order].lower() not in got[order].lower():
                out.failures.append(
                    f"{label}{what} was refused with {got[order]!r}, expected it to say "
                    f"{wanted[order]!r}"
                )
    if "at" in expect:
        differ("units", placement(state), expect["at"])
    for place, owner in expect.get("owners", {}).items():
        differ(f"owner of {place}", state.owners[place], owner)
    for key in ("destroyed", "disbanded"):
        if key in expect:
            differ(key, sorted(getattr(record, key)), expect[key])
    for uid, marks in expect.get("marks", {}).items():
        unit = state.units.get(uid)
        differ(f"marks of unit {uid}", unit.marks if unit else "no such unit", marks)
    for key in ("immobilised", "restored", "supplied"):
        if key in expect:
            differ(key, sorted(getattr(record, key)), expect[key])
    if "questions" in expect:
        differ(
            "supply questions",
            {p: sorted(us) for p, us in record.asked.items()},
            expect["questions"],
        )
    if "built" in expect:
        differ("built", sorted(record.built), expect["built"])
    if "skipped" in expect:
        differ("builds skipped", record.skipped, expect["skipped"])
    if "winner" in expect:
        differ("winner", state.winner, expect["winner"])
        differ("the game is over", state.ended, expect["winner"] is not None or not state.active())
    if "out" in expect:
        differ("out", sorted(p for p, pl in state.players.items() if pl.out), expect["out"])
    if "conflicts" in expect:
        differ("conflicts", record.conflicts, expect["conflicts"])
    for uid, about in expect.get("units", {}).items():
        unit = state.units.get(uid)
        if about == "gone" or unit is None:
            differ(f"unit {uid}", "gone" if unit is None else f"at {unit.at}", about)
            continue
        for key, value in about.items():
            differ(f"unit {uid} {key}", getattr(unit, key), value)
    if "bumped" in expect:
        gone = set(record.destroyed)
        bumped = {uid: to for uid, to in sorted(record.bumped.items()) if uid not in gone}
        differ("bumped", bumped, dict(sorted(expect["bumped"].items())))
    if "defended" in expect:
        differ("defended", sorted(record.in_conflict - record.moved), expect["defended"])
    if "tick" in expect:
        differ("tick", state.tick, expect["tick"])
