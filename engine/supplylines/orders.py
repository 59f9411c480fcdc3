"""Supply Lines' orders as the seed writes them, parsed with errors that say what is wrong, and
checked against the game as the player sees it (the whole board: the game has no fog).

    Build 1 Tank@M1          Build 2 Infantry @ H1     Build Tank@M1 (one)
    Hold@R2                  Hold R2
    C2 > C3                  (every unit at C2 that can move)
    3 Infantry + 1 Tank @ C2 > C3
    Concede

A player's orders for a turn are a list (`OrderList`); each order is checked against the state
and the orders before it, so a list always makes sense as a whole: a move takes units that are
there and free to move, a hold names units no "all" move takes, builds fit the PopCap left.
"""

from __future__ import annotations

import re

from engine.errors import CommandError
from engine.supplylines.board import LABEL
from engine.supplylines.order_types import Build, Concede, Hold, Move, Order
from engine.supplylines.state import State, Unit

__all__ = ["Build", "Concede", "Hold", "Move", "Order", "OrderList", "parse"]

EXAMPLES = "`Build 1 Tank@M1`, `Hold@R2`, `C2 > C3`, `3 Infantry + 1 Tank @ C2 > C3` or `Concede`"


_STRUCT = r"(\S+?)"  # any word: `_structure` says what is wrong with it
_BUILD = re.compile(rf"^build\s+(?:(\d+)\s*)?([A-Za-z]+)\s*@\s*{_STRUCT}$", re.I)
_HOLD = re.compile(rf"^hold\s*(?:@\s*)?{_STRUCT}$", re.I)
_MOVE = re.compile(rf"^(?:(.+?)\s*@\s*)?{_STRUCT}\s*(?:>|->|=>)\s*{_STRUCT}$", re.I)
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
    found = state.ruleset.unit_named(word)
    if found is None:
        known = ", ".join(t.title() for t in state.ruleset.units)
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


class OrderList:
    """One player's orders for the coming turn, each checked as it is added."""

    def __init__(self, state: State, player: str, orders: list[Order] | None = None) -> None:
        self.state = state
        self.player = player
        self.orders: list[Build | Hold | Move | Concede] = []
        for order in orders or []:
            self.add(order)

    def add(self, order: Build | Hold | Move | Concede) -> None:
        """Check the order against the game and the orders before it; `CommandError` (and
        nothing added) if it cannot be carried out."""
        state, me = self.state, self.player
        if state.ended:
            raise CommandError("the game is over")
        player = state.players.get(me)
        if player is None or player.out:
            raise CommandError("you are out of the game")
        if isinstance(order, Concede):
            if any(isinstance(o, Concede) for o in self.orders):
                raise CommandError("you have already conceded this turn")
        elif isinstance(order, Build):
            self._check_build(order)
        elif isinstance(order, Hold):
            self._check_hold(order)
        else:
            self._check_move(order)
        self.orders.append(order)

    def _check_build(self, order: Build) -> None:
        state, rules = self.state, self.state.ruleset
        if state.owners.get(order.at) != self.player:
            raise CommandError(f"you do not hold {order.at}: build in your own bases")
        kind = state.kind(order.at)
        if not rules.structures[kind].builds:
            builders = [k for k, s in rules.structures.items() if s.builds]
            where = " and ".join(f"{k}s ({rules.structures[k].letter})" for k in builders)
            raise CommandError(f"{order.at} is a {kind}: units are built in {where}")
        free = state.popcap(self.player) - state.popcap_used(self.player)
        ordered = sum(
            o.count * rules.units[o.unit].popcap for o in self.orders if isinstance(o, Build)
        )
        cost = order.count * rules.units[order.unit].popcap
        if cost > free - ordered:
            left = max(free - ordered, 0)
            raise CommandError(
                f"not enough PopCap: {order.count} {order.unit} need {cost}, and you have "
                f"{left} left this turn (PopCap {state.popcap(self.player)}: your cities and "
                f"home cities; your units use {state.popcap_used(self.player)})"
            )

    def _mine_at(self, label: str) -> list[Unit]:
        return [u for u in self.state.units_at(label) if u.owner == self.player]

    def _check_hold(self, order: Hold) -> None:
        if not self._mine_at(order.at):
            raise CommandError(f"you have no units at {order.at}")
        if any(isinstance(o, Move) and o.src == order.at and o.units is None for o in self.orders):
            raise CommandError(
                f"every unit at {order.at} already has a move order: clear your orders to change it"
            )

    def _check_move(self, order: Move) -> None:
        state = self.state
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
                f"{state.ruleset.marks.immobile_at} marks is immobile until it is supplied again"
            )
        earlier = [o for o in self.orders if isinstance(o, Move) and o.src == order.src]
        if any(o.units is None for o in earlier):
            raise CommandError(
                f"every unit at {order.src} already has a move order: clear your orders to "
                "change it"
            )
        if order.units is None:
            if any(isinstance(o, Hold) and o.at == order.src for o in self.orders):
                raise CommandError(
                    f"your units at {order.src} have a hold order: name the units that move, "
                    f"e.g. `1 Infantry @ {order.src} > {order.dst}`"
                )
            return
        for type_, n in order.units.items():
            taken = sum((o.units or {}).get(type_, 0) for o in earlier)
            have = sum(1 for u in free if u.type == type_)
            if n > have - taken:
                held = sum(1 for u in mine if u.type == type_) - have
                why = f" ({held} more cannot move)" if held else ""
                raise CommandError(
                    f"you have {max(have - taken, 0)} {type_} free to move at {order.src}{why}"
                )
