"""The supply check (stage 5): which units a player's refineries and home cities can supply.

A structure that supplies (a refinery, a home city: `supply` in the rules) sends its lines
along roads through the player's own structures. So a player's structures fall into networks
(the connected components of the graph of their own structures, found with networkx), and in
one network every supplier can reach every unit: the network's lines are a pool that its units
share. A unit passes when it is given as many lines as it needs (infantry 1, tank 2); a line
goes to one unit.

When a network's lines cannot supply all its units and more than one choice of units is
possible, the seed has the player choose (`Question`); the `default` choice is the units with
the most marks first (to keep them from becoming immobile), then the strongest, then the
oldest, each taken while lines are left for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx

from engine.supplylines.board import sorted_labels
from engine.supplylines.state import State, Unit


@dataclass(frozen=True)
class Network:
    """A player's connected structures, their lines and the units in them."""

    player: str
    structures: tuple[str, ...]
    lines: int
    units: tuple[int, ...]  # unit ids, in id order
    need: int  # lines all of them need

    @property
    def short(self) -> bool:
        return self.need > self.lines


@dataclass(frozen=True)
class Question:
    """A choice the player makes: which units of a network get its lines."""

    player: str
    network: Network
    default: tuple[int, ...]  # what is supplied without an answer


def networks(state: State, player: str) -> list[Network]:
    """The player's networks, in the order of their first structure."""
    rules = state.rules
    mine = [s for s, o in state.owners.items() if o == player]
    graph: nx.Graph[str] = nx.Graph(state.board.graph.subgraph(mine))
    units_by_place: dict[str, list[Unit]] = {}
    for u in state.units.values():
        if u.owner == player:
            units_by_place.setdefault(u.at, []).append(u)
    found = []
    for component in nx.connected_components(graph):
        labels = tuple(sorted_labels(component))
        lines = sum(rules.structures[state.kind(s)].supply for s in labels)
        ids = tuple(sorted(u.id for s in labels for u in units_by_place.get(s, [])))
        need = sum(rules.units[state.units[i].type].supply for i in ids)
        found.append(Network(player, labels, lines, ids, need))
    return sorted(found, key=lambda n: n.structures[0] if n.structures else "")


def default_choice(state: State, network: Network, chosen: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The units supplied when the player does not choose (see the module's docstring); with
    `chosen` (a valid choice), those first and the lines they leave to the others in the same
    order, so that no line a unit could use is left unused."""
    rules = state.rules
    if not network.short:
        return network.units
    order = sorted(
        (state.units[i] for i in network.units if i not in chosen),
        key=lambda u: (-u.marks, -rules.units[u.type].strength, u.id),
    )
    picked = list(chosen)
    left = network.lines - sum(rules.units[state.units[i].type].supply for i in chosen)
    for u in order:
        need = rules.units[u.type].supply
        if need <= left:
            picked.append(u.id)
            left -= need
    return tuple(sorted(picked))


def questions(state: State, *, skip: Iterable[str] = ()) -> list[Question]:
    """The choices the players (but those in `skip`: conceding) have to make this turn: the
    networks short of lines where more than one choice is possible (some unit left out of the
    default could be supplied instead)."""
    rules = state.rules
    asked = []
    skipped = set(skip)
    for player in state.active():
        if player in skipped:
            continue
        for network in networks(state, player):
            if not network.short:
                continue
            default = default_choice(state, network)
            left_out = [i for i in network.units if i not in default]
            if any(rules.units[state.units[i].type].supply <= network.lines for i in left_out):
                asked.append(Question(player, network, default))
    return asked


def check_choice(state: State, network: Network, chosen: list[int]) -> tuple[int, ...]:
    """A player's choice for a network, checked: its units, within the lines. Raises
    `ValueError` with what is wrong."""
    rules = state.rules
    picked = tuple(sorted(set(chosen)))
    stray = [i for i in picked if i not in network.units]
    if stray:
        raise ValueError(f"units {stray} are not in this network")
    need = sum(rules.units[state.units[i].type].supply for i in picked)
    if need > network.lines:
        raise ValueError(f"those units need {need} lines and the network has {network.lines}")
    return picked


def supplied(
    state: State, choices: dict[str, list[int]] | None = None, *, skip: Iterable[str] = ()
) -> set[int]:
    """Every unit that passes the supply check: per network all, or the player's choice (if
    valid) with the lines it leaves given in the default's order, else the default. Neutral
    units and those of players in `skip` (conceding) are left out (they need no supply)."""
    choices = choices or {}
    passed: set[int] = set()
    skipped = set(skip)
    for player in state.active():
        if player in skipped:
            continue
        answer = set(choices.get(player, []))
        for network in networks(state, player):
            if not network.short:
                passed.update(network.units)
                continue
            mine = [i for i in network.units if i in answer]
            try:
                chosen = check_choice(state, network, mine) if mine else None
            except ValueError:
                chosen = None
            passed.update(default_choice(state, network, chosen or ()))
    return passed
