"""What a picture reads from the game: its rules, each player's supply networks (their lines,
what their units need, where a network is short of lines, which networks send lines), the
players' seat order and colours, and the orders of owners and unit types that keep drawing
deterministic."""

from __future__ import annotations

from dataclasses import dataclass

from engine.supplylines import supply
from engine.supplylines.rules import Rules
from engine.supplylines.rules import load as load_rules
from engine.supplylines.state import State
from engine.supplylines.view import View
from renderers import style
from renderers.palette import RGB


def rules_of(view: View) -> Rules:
    return load_rules(view.ruleset)


@dataclass(frozen=True)
class Supply:
    lines: dict[str, int]  # player -> lines of all their networks
    need: dict[str, int]  # player -> lines their units need
    short: frozenset[tuple[str, str]]  # (player, structure) in a network short of lines
    feeding: frozenset[tuple[str, str]]  # (player, structure) in a network that sends lines


def supply_of(state: State, view: View) -> Supply:
    lines: dict[str, int] = {}
    need: dict[str, int] = {}
    short: set[tuple[str, str]] = set()
    feeding: set[tuple[str, str]] = set()
    for p in seat_order(view):
        if view.players[p].out:
            continue
        lines[p] = need[p] = 0
        for network in supply.networks(state, p):
            lines[p] += network.lines
            need[p] += network.need
            if network.short and network.units:
                short.update((p, s) for s in network.structures)
            if network.lines:
                feeding.update((p, s) for s in network.structures)
    return Supply(lines, need, frozenset(short), frozenset(feeding))


def seat_order(view: View) -> list[str]:
    return [p.id for p in sorted(view.players.values(), key=lambda p: (p.seat, p.id))]


def colour_of(view: View, owner: str | None) -> RGB:
    player = view.players.get(owner) if owner is not None else None
    return style.parse_colour(player.colour) if player is not None else style.NEUTRAL


def owner_rank(view: View, owner: str) -> tuple[int, str]:
    player = view.players.get(owner)
    return (player.seat if player is not None else 10**6, owner)


def type_rank(rules: Rules, type_: str) -> tuple[int, str]:
    names = list(rules.units)
    return (names.index(type_) if type_ in names else len(names), type_)
