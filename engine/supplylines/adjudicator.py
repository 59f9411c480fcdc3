"""A Supply Lines turn: every player's orders at once, in the seed's 8 stages.

    1 PopCap check   2 Build   3 Movement   4 Conflict/Capture
    5 Supply check   6 Penalty   7 Restoration   8 Victory/Defeat/Concession

`resolve_orders` runs stages 1-4, `finish_turn` stages 5-8 (between them the players whose
supply is short choose which units get it: `supply.questions`); `resolve` runs all 8 with
given (or default) choices. The outcome depends only on the state and the orders, never on
the order in which players gave them: players are taken in seat order, structures and units in
label and id order, and conflicts of one round are decided together, from the same positions.

Conflicts (stage 4), as the seed has them, with the choices docs/RULES-SUPPLY-LINES.md lists:

- Head-on: units of two players moving along the same road in opposite directions meet on it.
  The stronger group goes on; the weaker is bumped back (it stays where it was); on a tie
  both are.
- In a structure: units of several players in one structure after the moves. Each player's
  strength is the sum of its units' (infantry 1, tank 4). The single strongest stays (and
  captures); every other unit is bumped back. On a tie at the top, every unit is bumped back
  except the defenders: units that held (every unit without a move order holds).
- Bumped back: a unit goes back to the structure it moved from. A unit with nowhere it came
  from (a defender, or one bumped back already) retreats to an adjacent structure its player
  held at the start of the turn and it has not been bumped out of this turn (the one with the
  least enemy strength, then the most of its own, then the first by label). Bumped units
  arriving where other players' units stand make a new conflict there; the rounds go on
  until no structure holds two players' units. A unit with nowhere to go, an immobile one
  (3 marks) or a neutral one is destroyed instead.
- Capture: a structure holding one player's units after the conflicts is that player's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.supplylines import supply
from engine.supplylines.board import label_order, sorted_labels
from engine.supplylines.orders import Build, Concede, Move, Order, movable, pick
from engine.supplylines.popcap import disbanding
from engine.supplylines.state import NEUTRAL, State, Unit


@dataclass
class Conflict:
    """One conflict: where (a structure, or a road "C2-C3" for a head-on), each party's
    strength, who won (None: a tie), and what became of the losers."""

    place: str
    round: int  # 0: head-on on a road; 1, 2...: the rounds in structures
    strengths: dict[str, int]
    winner: str | None
    stayed: list[int] = field(default_factory=list)  # units that stayed (winners, defenders)
    bumped: dict[int, str] = field(default_factory=dict)  # unit -> where it was bumped to
    destroyed: list[int] = field(default_factory=list)


@dataclass
class TurnReport:
    turn: int  # the turn resolved (1 for the first)
    disbanded: list[Unit] = field(default_factory=list)  # stage 1: over the PopCap
    built: list[Unit] = field(default_factory=list)
    skipped: list[tuple[str, Build, str]] = field(default_factory=list)  # (player, order, why)
    moved: list[tuple[int, str, str]] = field(default_factory=list)  # (unit, from, to) ordered
    conflicts: list[Conflict] = field(default_factory=list)
    captured: list[tuple[str, str | None, str]] = field(default_factory=list)  # (where, from, to)
    destroyed: list[Unit] = field(default_factory=list)  # in conflicts
    supplied: set[int] = field(default_factory=set)
    unsupplied: list[int] = field(default_factory=list)
    marked: dict[int, int] = field(default_factory=dict)  # unit -> its marks after stages 6-7
    immobilised: list[int] = field(default_factory=list)  # became immobile this turn
    restored: list[int] = field(default_factory=list)  # became mobile again this turn
    conceded: list[str] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    winner: str | None = None


def resolve(
    state: State, orders: dict[str, list[Order]], choices: dict[str, list[int]] | None = None
) -> TurnReport:
    """A whole turn (stages 1-8) on `state`, in place."""
    report = resolve_orders(state, orders)
    finish_turn(state, report, orders, choices)
    return report


def resolve_orders(state: State, orders: dict[str, list[Order]]) -> TurnReport:
    """Stages 1-4 on `state`, in place. `orders`: each player's orders (missing: hold)."""
    report = TurnReport(turn=state.turn + 1)
    players = state.active()
    _popcap_check(state, players, report)
    _build(state, players, orders, report)
    _move_and_fight(state, players, orders, report)
    return report


def finish_turn(
    state: State,
    report: TurnReport,
    orders: dict[str, list[Order]],
    choices: dict[str, list[int]] | None = None,
) -> None:
    """Stages 5-8 on `state`, in place, after `resolve_orders`."""
    rules = state.rules
    marks = rules.marks
    # players conceding this turn: their units become neutral at stage 8 (no supply, no marks)
    conceding = {
        p for p in state.active() if any(isinstance(o, Concede) for o in orders.get(p, []))
    }
    # 5: the supply check
    report.supplied = supply.supplied(state, choices, skip=conceding)
    # 6 and 7: a mark for each unit out of supply, one taken off each unit supplied
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.owner == NEUTRAL or unit.owner in conceding:
            continue
        before = unit.marks
        if unit.id in report.supplied:
            unit.marks = max(0, unit.marks - marks.restoration)
        else:
            report.unsupplied.append(unit.id)
            unit.marks = min(marks.most, unit.marks + marks.penalty)
        if unit.marks != before:
            report.marked[unit.id] = unit.marks
        if before < marks.immobile_at <= unit.marks:
            report.immobilised.append(unit.id)
        elif unit.marks < marks.immobile_at <= before:
            report.restored.append(unit.id)
    # 8: concessions, defeats, victory
    for player in state.active():
        if player in conceding:
            concede(state, player)
            report.conceded.append(player)
    for player in state.active():
        if not state.structures_of(player):
            state.players[player].out = True
            report.defeated.append(player)
    left = state.active()
    needed = [s for s in state.owners if rules.structures[state.kind(s)].victory]
    for player in left:
        if all(state.owners[s] == player for s in needed):
            report.winner = player
    if report.winner is None and len(left) == 1:
        report.winner = left[0]  # the last one standing
    if report.winner is not None or not left:
        state.winner = report.winner
        state.ended = True
    state.turn += 1


def concede(state: State, player: str) -> None:
    """Everything of a player who concedes becomes neutral."""
    p = state.players[player]
    p.out = p.conceded = True
    for label, owner in state.owners.items():
        if owner == player:
            state.owners[label] = None
    for unit in state.units.values():
        if unit.owner == player:
            unit.owner = NEUTRAL
            unit.marks = 0


# --- stage 1: PopCap ------------------------------------------------------------------------------


def _popcap_check(state: State, players: list[str], report: TurnReport) -> None:
    """A player whose units need more PopCap than their cities give disbands units until
    they fit (`disbanding`)."""
    for player in players:
        for uid in disbanding(state, player):
            report.disbanded.append(state.units.pop(uid))


# --- stage 2: builds ------------------------------------------------------------------------------


def _build(
    state: State, players: list[str], orders: dict[str, list[Order]], report: TurnReport
) -> None:
    """Each build in the order given, as far as the PopCap left allows (the rest skipped)."""
    rules = state.rules
    for player in players:
        for order in orders.get(player, []):
            if not isinstance(order, Build):
                continue
            if state.owners.get(order.at) != player:
                report.skipped.append((player, order, f"{order.at} is no longer yours"))
                continue
            if not rules.structures[state.kind(order.at)].builds:
                report.skipped.append((player, order, f"{order.at} builds nothing"))
                continue
            cost = rules.units[order.unit].popcap
            free = state.popcap(player) - state.popcap_used(player)
            fits = order.count if cost == 0 else min(order.count, max(free, 0) // cost)
            for _ in range(fits):
                unit = state.add_unit(order.unit, player, order.at)
                unit.built = report.turn  # it does not move this turn
                report.built.append(unit.model_copy())  # as built (it may be bumped later)
            if fits < order.count:
                report.skipped.append((player, order, f"PopCap left for {fits} of {order.count}"))


# --- stages 3 and 4: movement, conflicts, captures --------------------------------------------------


def _moves(
    state: State, players: list[str], orders: dict[str, list[Order]], turn: int
) -> dict[int, str]:
    """Unit -> where its player's orders send it. Counted moves take their units first (the
    fewest marks, then the oldest), then an "every unit" move takes the rest; units built
    this turn and immobile units stay."""
    moves: dict[int, str] = {}
    for player in players:
        mine = [o for o in orders.get(player, []) if isinstance(o, Move)]
        for rest in (False, True):
            for order in mine:
                if (order.units is None) != rest:
                    continue
                free = [
                    u
                    for u in state.units_at(order.src)
                    if u.owner == player
                    and u.id not in moves
                    and u.built < turn
                    and movable(state, u)
                ]
                if not state.board.adjacent(order.src, order.dst):
                    continue
                chosen = free if order.units is None else pick(free, order.units)
                for u in chosen:
                    moves[u.id] = order.dst
    return moves


def _move_and_fight(
    state: State, players: list[str], orders: dict[str, list[Order]], report: TurnReport
) -> None:
    moves = _moves(state, players, orders, report.turn)
    start_owner = dict(state.owners)
    origin = {u.id: u.at for u in state.units.values()}
    for uid in sorted(moves):
        report.moved.append((uid, origin[uid], moves[uid]))

    # head-on: groups meeting on a road
    groups: dict[tuple[str, str], dict[str, list[int]]] = {}
    for uid, dst in moves.items():
        unit = state.units[uid]
        groups.setdefault((unit.at, dst), {}).setdefault(unit.owner, []).append(uid)
    stopped: set[int] = set()
    for src, dst in sorted(groups):
        if (dst, src) not in groups or (src, dst) > (dst, src):
            continue
        ahead, back = groups[(src, dst)], groups[(dst, src)]
        # one player's units stand in a structure at the start: one party each way
        for a_owner, a_units in sorted(ahead.items()):
            for b_owner, b_units in sorted(back.items()):
                if a_owner == b_owner:
                    continue
                a = state.strength([state.units[i] for i in a_units])
                b = state.strength([state.units[i] for i in b_units])
                conflict = Conflict(
                    place=f"{src}-{dst}",
                    round=0,
                    strengths={a_owner: a, b_owner: b},
                    winner=a_owner if a > b else b_owner if b > a else None,
                )
                losers = (b_units if a > b else []) + (a_units if b > a else [])
                if a == b:
                    losers = a_units + b_units
                for uid in sorted(losers):
                    stopped.add(uid)
                    conflict.bumped[uid] = origin[uid]  # it never left
                conflict.stayed = sorted(set(a_units + b_units) - set(losers))
                report.conflicts.append(conflict)

    came: dict[int, str | None] = {}
    defending: set[int] = set()
    for unit in state.units.values():
        if unit.id in moves and unit.id not in stopped:
            came[unit.id] = unit.at
            unit.at = moves[unit.id]
        else:
            came[unit.id] = None
            if unit.id not in moves:
                defending.add(unit.id)

    visited: dict[int, set[str]] = {uid: set() for uid in state.units}
    round_ = 0
    while True:
        here: dict[str, dict[str, list[Unit]]] = {}
        for unit in state.units.values():
            here.setdefault(unit.at, {}).setdefault(unit.owner, []).append(unit)
        contested = [s for s in sorted_labels(here) if len(here[s]) > 1]
        if not contested:
            break
        round_ += 1
        going: dict[int, str] = {}
        gone: list[int] = []
        for place in contested:
            parties = here[place]
            strengths = {o: state.strength(us) for o, us in sorted(parties.items())}
            top = max(strengths.values())
            best = [o for o, s in strengths.items() if s == top]
            everyone = sorted((u for us in parties.values() for u in us), key=lambda u: u.id)
            if len(best) == 1:
                stays = {u.id for u in parties[best[0]]}
            else:
                stays = {u.id for u in everyone if u.id in defending}
            conflict = Conflict(
                place=place,
                round=round_,
                strengths=strengths,
                winner=best[0] if len(best) == 1 else None,
                stayed=sorted(stays),
            )
            for unit in everyone:
                if unit.id in stays:
                    continue
                target = _bump_target(state, unit, place, came, visited, start_owner, here)
                if target is None:
                    gone.append(unit.id)
                    conflict.destroyed.append(unit.id)
                else:
                    going[unit.id] = target
                    conflict.bumped[unit.id] = target
            report.conflicts.append(conflict)
        for uid, target in going.items():
            unit = state.units[uid]
            visited[uid].add(unit.at)
            unit.at = target
            came[uid] = None
            defending.discard(uid)
        for uid in gone:
            report.destroyed.append(state.units.pop(uid))

    # capture: a structure held by one player's units is theirs
    for label in sorted_labels({u.at for u in state.units.values()}):
        owners = {u.owner for u in state.units.values() if u.at == label}
        (owner,) = owners
        if owner != NEUTRAL and state.owners[label] != owner:
            report.captured.append((label, state.owners[label], owner))
            state.owners[label] = owner


def _bump_target(
    state: State,
    unit: Unit,
    place: str,
    came: dict[int, str | None],
    visited: dict[int, set[str]],
    start_owner: dict[str, str | None],
    here: dict[str, dict[str, list[Unit]]],
) -> str | None:
    """Where a unit bumped out of `place` goes (None: it is destroyed)."""
    if unit.owner == NEUTRAL or state.immobile(unit):
        return None
    back = came.get(unit.id)
    if back is not None:
        return back
    options = [
        n
        for n in state.board.neighbours(place)
        if start_owner.get(n) == unit.owner and n not in visited[unit.id]
    ]
    if not options:
        return None

    def preference(label: str) -> tuple[int, int, tuple[str, int]]:
        parties = here.get(label, {})
        enemy = sum(state.strength(us) for o, us in parties.items() if o != unit.owner)
        own = state.strength(parties.get(unit.owner, []))
        return (enemy, -own, label_order(label))

    return min(options, key=preference)
