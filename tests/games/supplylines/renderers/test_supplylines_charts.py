"""The end-of-game charts of Supply Lines (issue 29, item 16): each player's structures and
units after every turn, replayed from the game's first state and its log."""

from __future__ import annotations

from renderers.supplylines.charts import charts, counts_by_turn
from tests.games.supplylines.engine.scenario import played_duel

PNG = b"\x89PNG\r\n\x1a\n"


def test_each_players_structures_and_units_are_counted_after_every_turn() -> None:
    first, log = played_duel()
    samples = counts_by_turn(first, log)
    assert [turn for turn, _ in samples] == [0, 1, 2]
    (_, start), (_, one), (_, two) = samples
    assert start["ann"][0] == start["bob"][0]  # a fair map: as many structures each
    assert one["ann"][0] == start["ann"][0] + 1  # Ann took C1 in turn 1
    assert one["bob"] == start["bob"]
    assert two["bob"][0] == start["bob"][0] + 1  # and Bob took C4 in turn 2


def test_the_charts_are_a_picture() -> None:
    first, log = played_duel()
    data = charts(first, log, title="Replay")
    assert data is not None and data.startswith(PNG)
