"""The orders a view holds (a player's own, or everyone's for a moderator), read with the
engine's parser: moves as arrows with the units each takes, builds by structure."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import CommandError
from engine.supplylines.orders import Build, Move, parse
from engine.supplylines.rules import Rules
from engine.supplylines.state import State
from engine.supplylines.view import View
from renderers.supplylines.game import owner_rank, type_rank


@dataclass(frozen=True)
class Arrow:
    owner: str
    src: str
    dst: str
    counts: dict[str, int]


def orders_of(
    view: View, state: State, rules: Rules
) -> tuple[list[Arrow], dict[str, list[tuple[str, dict[str, int]]]]]:
    """The orders the view holds, read with the engine's parser: moves (with the units each
    takes: counted moves their counts, an "every unit" move the rest of the units free to
    move) and builds by structure. Orders that do not read (any more) are left out."""
    immobile_at = rules.marks.immobile_at
    arrows: list[Arrow] = []
    builds: dict[str, list[tuple[str, dict[str, int]]]] = {}
    for player in sorted(view.orders, key=lambda o: owner_rank(view, o)):
        moves: list[Move] = []
        for text in view.orders[player]:
            try:
                order = parse(text, state)
            except (CommandError, ValueError):
                continue
            if isinstance(order, Move):
                moves.append(order)
            elif isinstance(order, Build):
                builds.setdefault(order.at, []).append((player, {order.unit: order.count}))
        taken: dict[tuple[str, str], int] = {}
        for m in moves:
            for t, n in (m.units or {}).items():
                taken[(m.src, t)] = taken.get((m.src, t), 0) + n
        for m in moves:
            if m.units is not None:
                counts = dict(m.units)
            else:
                free: dict[str, int] = {}
                for u in view.units:
                    if u.owner == player and u.at == m.src and u.marks < immobile_at:
                        free[u.type] = free.get(u.type, 0) + 1
                counts = {t: max(0, n - taken.get((m.src, t), 0)) for t, n in free.items()}
            arrows.append(Arrow(player, m.src, m.dst, by_type(rules, counts)))
    return arrows, builds


def by_type(rules: Rules, counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: type_rank(rules, kv[0])))
