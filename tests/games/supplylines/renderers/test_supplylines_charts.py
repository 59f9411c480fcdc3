"""The end-of-game charts of Supply Lines (issue 29, item 16): each player's structures and
units after every turn, replayed from the game's first state and its log."""

from __future__ import annotations

from engine.interface import entries as en
from engine.supplylines.kind import KIND
from renderers.supplylines.charts import charts, counts_by_turn

PNG = b"\x89PNG\r\n\x1a\n"


def played() -> tuple[object, list[dict]]:
    first = KIND.setup({"map": "duel", "seed": 1, "turn_hours": 1})
    log = [
        en.Join(nation="ann", name="Ann", colour="#c0392b").to_json(),
        en.Join(nation="bob", name="Bob", colour="#2980b9").to_json(),
        en.Start().to_json(),
        en.CommandEntry(nation="ann", command={"kind": "order", "text": "H1 > C1"}).to_json(),
        en.Advance(ticks=4).to_json(),
        en.CommandEntry(nation="bob", command={"kind": "order", "text": "H2 > C4"}).to_json(),
        en.Advance(ticks=4).to_json(),
    ]
    return first, log


def test_each_players_structures_and_units_are_counted_after_every_turn() -> None:
    first, log = played()
    samples = counts_by_turn(first, log)  # type: ignore[arg-type]
    assert [turn for turn, _ in samples] == [0, 1, 2]
    (_, start), (_, one), (_, two) = samples
    assert start["ann"][0] == start["bob"][0]  # a fair map: as many structures each
    assert one["ann"][0] == start["ann"][0] + 1  # Ann took C1 in turn 1
    assert one["bob"] == start["bob"]
    assert two["bob"][0] == start["bob"][0] + 1  # and Bob took C4 in turn 2


def test_the_charts_are_a_picture() -> None:
    first, log = played()
    data = charts(first, log, title="Replay")  # type: ignore[arg-type]
    assert data is not None and data.startswith(PNG)
