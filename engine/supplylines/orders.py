"""Supply Lines' orders as the seed writes them, parsed with errors that say what is wrong, and
checked against the game as the player sees it (the whole board: the game has no fog).

    Build 1 Tank@M1          Build 2 Infantry @ H1     Build Tank@M1 (one)
    Hold@R2                  Hold R2
    C2 > C3                  (every unit at C2 that can move)
    3 Infantry + 1 Tank @ C2 > C3
    Concede

and in the usual Diplomacy notation: `A C2 - C3` or `C2-C3` (a move: the `A`/`F` unit prefix
is ignored, as the seed's moves take every unit there that can move), `A C2 H` or `C2 Hold`
(a hold). Support and convoy orders are refused with why: the seed has none (units of one
player at one structure add their strength).

A player's orders for a turn are a list (`OrderList`); each order is checked against the state
and the orders before it, so a list always makes sense as a whole: a move takes units that are
there and free to move, a hold names units no "all" move takes, builds fit the PopCap left.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.errors import CommandError
from engine.supplylines.board import LABEL
from engine.supplylines.order_types import Build, Concede, Hold, Move, Order
from engine.supplylines.popcap import disbanding
from engine.supplylines.state import State, Unit

__all__ = ["Build", "Concede", "Hold", "Move", "Order", "OrderList", "Orders", "limit", "parse"]

EXAMPLES = (
    "`Build 1 Tank@M1`, `Hold@R2`, `C2 > C3` (or `A C2 - C3`), `3 Infantry + 1 Tank @ C2 > C3` "
    "or `Concede`"
)


_STRUCT = r"(\S+?)"  # any word: `_structure` says what is wrong with it
_BUILD = re.compile(rf"^build\s+(?:(\d+)\s*)?([A-Za-z]+)(?:\s*@\s*|\s+){_STRUCT}$", re.I)
_HOLD = re.compile(rf"^hold\s*(?:@\s*)?{_STRUCT}$", re.I)
_MOVE = re.compile(rf"^(?:(.+?)\s*@\s*)?{_STRUCT}\s*(?:>|->|=>|-|\u2013|\u2192)\s*{_STRUCT}$", re.I)
# the usual Diplomacy notation: a unit prefix ("A", "F"; no unit of the seed is a fleet or an
# army as such, and a move takes every unit there), "R4 H" / "R4 Hold", "S" and "C" refused
_PREFIX = re.compile(r"^(?:a|f|army|fleet)\s+(?=[A-Za-z]+\d)", re.I)
_DIP_HOLD = re.compile(rf"^{_STRUCT}\s+(?:h|holds?)$", re.I)
_SUPPORT = re.compile(rf"^{_STRUCT}\s+(s|supports?|c|convoys?)\b", re.I)
_CONCEDE = re.compile(r"^conc?ee?de$", re.I)
_PART = re.compile(r"^(\d+)\s*([A-Za-z]+)$")


def parse(text: str, state: State) -> Build | Hold | Move | Concede:
    """One order from its text, in the seed's words; `CommandError` says what is wrong. Only
    the form is checked here (names of units and structures included); `OrderList.add`
    checks it against the game."""
    line = " ".join(text.strip().split())
    if not line:
        raise CommandError(f"write an order, e.g. {EXAMPLES}")
    if _CONCEDE.match(line):
        return Concede()
    line = _PREFIX.sub("", line, count=1)
    support = _SUPPORT.match(line)
    if support is not None:
        what = "support" if support.group(2).lower().startswith("s") else "convoy"
        raise CommandError(
            f"Supply Lines has no {what} orders: units of yours at the same structure add their "
            f"strength, so move them together (e.g. `{support.group(1).upper()} > ...`, "
            "or hold where they are)"
        )
    held = _DIP_HOLD.match(line)
    if held is not None:
        return Hold(at=_structure(held.group(1), state))
    if line.lower().startswith("build"):
        m = _BUILD.match(line)
        if not m:
            raise CommandError(
                f"I can't read the build {line!r}: write the number, the unit and the base, "
                "e.g. `Build 1 Tank@M1`"
            )
        count = int(m.group(1) or 1)
        if not 1 <= count <= 99:
            raise CommandError("build between 1 and 99 units in one order")
        return Build(count=count, unit=_unit(m.group(2), state), at=_structure(m.group(3), state))
    if line.lower().startswith("hold"):
        m = _HOLD.match(line)
        if not m:
            raise CommandError(f"I can't read the hold {line!r}: write e.g. `Hold@R2`")
        return Hold(at=_structure(m.group(1), state))
    m = _MOVE.match(line)
    if not m:
        raise CommandError(f"I can't read {line!r}: orders look like {EXAMPLES}")
    units: dict[str, int] | None = None
    if m.group(1):
        units = {}
        for part in re.split(r"\s*(?:\+|,|\band\b)\s*", m.group(1), flags=re.I):
            pm = _PART.match(part.strip())
            if not pm:
                raise CommandError(
                    f"I can't read {part.strip()!r} as units: write the number and the type, "
                    "e.g. `3 Infantry + 1 Tank @ C2 > C3`"
                )
            type_ = _unit(pm.group(2), state)
            units[type_] = units.get(type_, 0) + int(pm.group(1))
        if any(n < 1 for n in units.values()):
            raise CommandError("move at least one unit of each type you name")
    src, dst = _structure(m.group(2), state), _structure(m.group(3), state)
    if src == dst:
        raise CommandError(f"{src} > {dst} goes nowhere: units that stay hold")
    return Move(src=src, dst=dst, units=units)


def _unit(word: str, state: State) -> str:
    found = state.rules.unit_named(word)
    if found is None:
        known = ", ".join(t.title() for t in state.rules.units)
        raise CommandError(f"there is no unit {word!r} (units: {known})")
    return found


def _structure(word: str, state: State) -> str:
    label = state.board.find(word)
    if label is None:
        if not LABEL.match(word.upper()):
            raise CommandError(f"{word!r} is not a structure: structures are named like C2 or M1")
        raise CommandError(f"there is no structure {word.upper()} on this map")
    return label


def movable(state: State, unit: Unit) -> bool:
    """Whether a unit may be given a move this turn: not immobile (too many marks) and not
    built in this turn's build stage (orders are given before it: every unit there now may)."""
    return not state.immobile(unit)


def pick(units: list[Unit], counts: dict[str, int]) -> list[Unit]:
    """The units a counted move takes from those free at its structure: of each type, the
    fewest marks first, then the oldest (lowest id). Assumes there are enough."""
    chosen: list[Unit] = []
    for type_, n in sorted(counts.items()):
        of_type = sorted((u for u in units if u.type == type_), key=lambda u: (u.marks, u.id))
        chosen.extend(of_type[:n])
    return chosen


class Orders(list[Build | Hold | Move | Concede]):
    """A player's orders for the turn as the state keeps them (a list), with what they hold
    (`ledger`) kept along, so that the next order is checked without reading them again."""

    ledger: _Ledger

    def __init__(self, orders: Iterable[Build | Hold | Move | Concede] = ()) -> None:
        super().__init__()
        self.ledger = _Ledger()
        for order in orders:
            self.add(order)

    def add(self, order: Build | Hold | Move | Concede) -> None:
        """The order at the end, noted in the ledger (a list changed otherwise is noted
        again when next added to: `OrderList.given` compares the counts)."""
        self.append(order)
        self.ledger.note(order)


@dataclass
class _Ledger:
    """What a player's orders so far hold, by structure and unit type."""

    count: int = 0  # the orders noted (the list's length while the two agree)
    conceded: bool = False
    builds: dict[str, int] = field(default_factory=dict)  # unit type -> units ordered built
    holds: set[str] = field(default_factory=set)  # structures with a hold order
    every: set[str] = field(default_factory=set)  # structures an "every unit" move leaves
    taken: dict[tuple[str, str], int] = field(default_factory=dict)  # (structure, type) -> moved
    # the player's position as the turn begins, which no order of the turn changes: worked
    # out at the first order checked (`OrderList.position`, `OrderList.most`)
    position: tuple[int, int, int] | None = None
    most: tuple[int, str] | None = None

    def note(self, order: Build | Hold | Move | Concede) -> None:
        self.count += 1
        if isinstance(order, Concede):
            self.conceded = True
        elif isinstance(order, Build):
            self.builds[order.unit] = self.builds.get(order.unit, 0) + order.count
        elif isinstance(order, Hold):
            self.holds.add(order.at)
        elif order.units is None:
            self.every.add(order.src)
        else:
            for type_, n in order.units.items():
                self.taken[(order.src, type_)] = self.taken.get((order.src, type_), 0) + n


def limit(
    state: State, player: str, position: tuple[int, int, int] | None = None
) -> tuple[int, str]:
    """The most orders a player may have in this turn, and how it is made up: what the rules
    could ever use (docs/RULES-SUPPLY-LINES.md, "Orders"). One for each of their units (a move
    of its own), one for each structure they hold (a hold, or "every unit" moves), one for each
    PopCap left as the turn begins (a build makes a unit at least), and a concession; never
    more than the rules' `orders.most`. It does not change while the turn's orders are given
    (nothing but the turn's resolution changes a player's units and structures, and a player
    out of the game gives no orders). `position`: `_popcap_left`'s, if known."""
    units = len(state.units_of(player))
    held = len(state.structures_of(player))
    left = max((position or _popcap_left(state, player))[0], 0)
    most = state.rules.orders.most
    why = (
        f"one for each of your {_count(units, 'unit')}, each of your {_count(held, 'structure')} "
        f"and each PopCap left ({left}), and a concession"
    )
    return min(units + held + left + 1, most), why


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _popcap_left(state: State, player: str) -> tuple[int, int, int]:
    """(PopCap left for builds, PopCap the units use, units disbanded) as the turn's builds
    see them: after stage 1 has disbanded units over the PopCap, as the adjudicator does."""
    rules = state.rules
    used = state.popcap_used(player)
    gone = disbanding(state, player)
    used -= sum(rules.units[state.units[i].type].popcap for i in gone)
    return state.popcap(player) - used, used, len(gone)


class OrderList:
    """One player's orders for the coming turn, each checked as it is added (in time that does
    not grow with the orders already given: they are noted in a ledger, `Orders`)."""

    def __init__(self, state: State, player: str, orders: list[Order] | None = None) -> None:
        self.state = state
        self.player = player
        self.orders = Orders()
        for order in orders or []:
            self.add(order)

    @classmethod
    def given(cls, state: State, player: str) -> OrderList:
        """The player's orders the state keeps, to add to: checked when they were given, so
        only noted in a ledger here (once; then it is kept with them). Adding changes the state's
        list in place; a new list (its ledger made now) is the state's only once it is stored."""
        listed = cls(state, player)
        kept = state.orders.get(player, [])
        if isinstance(kept, Orders) and kept.ledger.count == len(kept):
            listed.orders = kept
        else:
            listed.orders = Orders(kept)
        return listed

    def add(self, order: Build | Hold | Move | Concede) -> None:
        """Check the order against the game and the orders before it; `CommandError` (and
        nothing added) if it cannot be carried out."""
        state, me = self.state, self.player
        if state.ended:
            raise CommandError("the game is over")
        player = state.players.get(me)
        if player is None or player.out:
            raise CommandError("you are out of the game")
        most, why = self.most()
        if len(self.orders) >= most:
            raise CommandError(
                f"you have given {len(self.orders)} orders this turn, as many as the rules could "
                f"use ({why}): take one back to give another"
            )
        if isinstance(order, Concede):
            if self.orders.ledger.conceded:
                raise CommandError("you have already conceded this turn")
        elif isinstance(order, Build):
            self._check_build(order)
        elif isinstance(order, Hold):
            self._check_hold(order)
        else:
            self._check_move(order)
        self.orders.add(order)

    def position(self) -> tuple[int, int, int]:
        """`_popcap_left` for the player, worked out once a turn (kept in the ledger)."""
        ledger = self.orders.ledger
        if ledger.position is None:
            ledger.position = _popcap_left(self.state, self.player)
        return ledger.position

    def most(self) -> tuple[int, str]:
        """`limit` for the player, worked out once a turn (kept in the ledger)."""
        ledger = self.orders.ledger
        if ledger.most is None:
            ledger.most = limit(self.state, self.player, self.position())
        return ledger.most

    def _check_build(self, order: Build) -> None:
        state, rules = self.state, self.state.rules
        if state.owners.get(order.at) != self.player:
            raise CommandError(f"you do not hold {order.at}: build in your own bases")
        kind = state.kind(order.at)
        if not rules.structures[kind].builds:
            builders = [k for k, s in rules.structures.items() if s.builds]
            where = " and ".join(f"{k}s ({rules.structures[k].letter})" for k in builders)
            raise CommandError(f"{order.at} is a {kind}: units are built in {where}")
        # the PopCap the builds find at stage 2: after stage 1's disbanding, less the builds
        # ordered before this one (built first, in the order given)
        free, used, gone = self.position()
        ordered = sum(n * rules.units[t].popcap for t, n in self.orders.ledger.builds.items())
        cost = order.count * rules.units[order.unit].popcap
        if cost > free - ordered:
            left = max(free - ordered, 0)
            after = f" once the {_count(gone, 'unit')} over it are disbanded" if gone else ""
            raise CommandError(
                f"not enough PopCap: {order.count} {order.unit} need {cost}, and you have "
                f"{left} left this turn (PopCap {state.popcap(self.player)}: your cities and "
                f"home cities; your units use {used}{after})"
            )

    def _mine_at(self, label: str) -> list[Unit]:
        return [u for u in self.state.units_at(label) if u.owner == self.player]

    def _check_hold(self, order: Hold) -> None:
        if not self._mine_at(order.at):
            raise CommandError(f"you have no units at {order.at}")
        ledger = self.orders.ledger
        if order.at in ledger.every:
            raise CommandError(
                f"every unit at {order.at} already has a move order: clear your orders to change it"
            )

    def _check_move(self, order: Move) -> None:
        state, ledger = self.state, self.orders.ledger
        mine = self._mine_at(order.src)
        if not mine:
            raise CommandError(f"you have no units at {order.src}")
        if not state.board.adjacent(order.src, order.dst):
            near = ", ".join(state.board.neighbours(order.src))
            raise CommandError(
                f"{order.dst} is not next to {order.src}: units move one road a turn "
                f"(from {order.src}: {near})"
            )
        free = [u for u in mine if movable(state, u)]
        if not free:
            raise CommandError(
                f"your units at {order.src} cannot move: a unit with "
                f"{state.rules.marks.immobile_at} marks is immobile until it is supplied again"
            )
        if order.src in ledger.every:
            raise CommandError(
                f"every unit at {order.src} already has a move order: clear your orders to "
                "change it"
            )
        if order.units is None:
            if order.src in ledger.holds:
                raise CommandError(
                    f"your units at {order.src} have a hold order: name the units that move, "
                    f"e.g. `1 Infantry @ {order.src} > {order.dst}`"
                )
            return
        for type_, n in order.units.items():
            taken = ledger.taken.get((order.src, type_), 0)
            have = sum(1 for u in free if u.type == type_)
            if n > have - taken:
                held = sum(1 for u in mine if u.type == type_) - have
                why = f" ({held} more cannot move)" if held else ""
                raise CommandError(
                    f"you have {max(have - taken, 0)} {type_} free to move at {order.src}{why}"
                )
