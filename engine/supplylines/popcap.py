"""Stage 1 of a turn, the PopCap check, as far as it is known before the turn: the units a
player over their PopCap disbands (`disbanding`), which the adjudicator disbands, every player
is told of, and the order check counts builds after (`orders`)."""

from __future__ import annotations

import networkx as nx

from engine.supplylines.state import State


def disbanding(state: State, player: str) -> list[int]:
    """The units stage 1 will disband for a player over their PopCap (none if they fit): the
    most marks first, then the farthest from the player's own suppliers, then the weakest,
    then the newest, until the rest fit. Known to everyone before the turn (the board
    decides it)."""
    rules = state.rules
    over = state.popcap_used(player) - state.popcap(player)
    if over <= 0:
        return []
    distance = _distance_to_supply(state, player)
    order = sorted(
        state.units_of(player),
        key=lambda u: (
            -u.marks,
            -distance.get(u.at, len(state.board.structures) + 1),
            rules.units[u.type].strength,
            -u.id,
        ),
    )
    gone: list[int] = []
    for unit in order:
        if over <= 0:
            break
        gone.append(unit.id)
        over -= rules.units[unit.type].popcap
    return gone


def _distance_to_supply(state: State, player: str) -> dict[str, int]:
    rules = state.rules
    sources = [s for s in state.structures_of(player) if rules.structures[state.kind(s)].supply]
    if not sources:
        return {}
    lengths = nx.multi_source_dijkstra_path_length(state.board.graph, set(sources))
    return {label: int(n) for label, n in lengths.items()}
