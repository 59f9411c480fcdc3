"""The hand-made Supply Lines maps: they load, every seat has a home city, every structure can
be reached, and they are fair: from every home city the other structures lie at the same
distances (the same number of cities, refineries and bases one road away, two roads away...)."""

from __future__ import annotations

import networkx as nx
import pytest

from engine.supplylines.board import MapError, available, load_map
from engine.supplylines.rules import load as load_rules

RULES = load_rules()


def test_there_are_maps_for_two_and_three_players() -> None:
    seats = sorted(load_map(name, RULES).seats for name in available())
    assert {2, 3} <= set(seats)


@pytest.mark.parametrize("name", available())
def test_every_home_city_sees_the_same_map(name: str) -> None:
    board = load_map(name, RULES)
    rings = []
    for seat in range(1, board.seats + 1):
        home = board.home_of(seat)
        lengths = nx.single_source_shortest_path_length(board.graph, home)
        rings.append(
            sorted(
                (n, board.kind_of(label, RULES))
                for label, n in lengths.items()
                if label != home and board.kind_of(label, RULES) != "home"
            )
        )
    assert all(r == rings[0] for r in rings), name


def test_a_map_with_a_lone_structure_is_refused(tmp_path, monkeypatch) -> None:
    import engine.supplylines.board as board_module

    (tmp_path / "broken.toml").write_text(
        'title = "Broken"\nseats = 2\nroads = [["H1", "C1"], ["C1", "H2"]]\n\n'
        "[structures]\n"
        "H1 = { x = 0.1, y = 0.5, seat = 1 }\n"
        "H2 = { x = 0.9, y = 0.5, seat = 2 }\n"
        "C1 = { x = 0.5, y = 0.5 }\n"
        "C2 = { x = 0.5, y = 0.9 }\n"
    )
    monkeypatch.setattr(board_module, "MAPS_DIR", tmp_path)
    with pytest.raises(MapError, match="cannot be reached"):
        load_map("broken", RULES)


def test_a_map_name_is_never_a_path() -> None:
    with pytest.raises(MapError, match="there is no map"):
        load_map("../../rulesets/supply-lines/standard", RULES)


def test_a_copy_with_other_roads_has_their_graph() -> None:
    board = load_map("duel", RULES)
    assert board.graph.number_of_edges() == len(board.roads)
    fewer = board.model_copy(update={"roads": board.roads[:-1]})
    assert fewer.graph.number_of_edges() == len(board.roads) - 1
