"""The game log's entries are typed, and their stored JSON is the same as the untyped entries
older logs hold, so those logs replay as they are."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.interface import entries as en
from engine.strategic import commands as cmd
from engine.strategic.replay import apply_entry
from tests.games.strategic.worlds import strip_world

STORED = [  # entries as older logs hold them (the shapes the service wrote before)
    {"kind": "command", "nation": "red", "command": {"kind": "move", "units": [1], "to": [3, 4]}},
    {"kind": "advance", "ticks": 4},
    {
        "kind": "lobby",
        "action": "join",
        "nation": "red",
        "name": "Red",
        "colour": "#c0392b",
        "player": "123",
    },
    {"kind": "lobby", "action": "leave", "nation": "red"},
    {"kind": "lobby", "action": "resign", "nation": "red"},
    {"kind": "lobby", "action": "start"},
    {"kind": "lobby", "action": "substitute", "nation": "red", "player": None},
    {"kind": "lobby", "action": "end"},
]


@pytest.mark.parametrize("stored", STORED, ids=lambda d: d.get("action", d["kind"]))
def test_a_stored_entry_loads_typed_and_is_stored_again_the_same(stored) -> None:
    entry = en.entry_from_json(stored)
    assert isinstance(entry, en.Entry)
    assert entry.to_json() == stored


def test_a_typed_command_entry_is_stored_as_the_command_was() -> None:
    move = cmd.Move(units=[1, 2], to=(4, 2))
    entry = en.CommandEntry(nation="red", command=move.model_dump(mode="json"))
    assert entry.to_json() == {
        "kind": "command",
        "nation": "red",
        "command": move.model_dump(mode="json"),
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "lobby", "action": "dance"},
        {"kind": "advance", "ticks": -1},
        {"kind": "teleport"},
        {"kind": "lobby", "action": "leave"},  # which nation?
    ],
)
def test_a_malformed_entry_is_refused(bad) -> None:
    with pytest.raises(ValidationError):
        en.entry_from_json(bad)


def test_a_typed_entry_and_its_stored_form_change_a_world_alike() -> None:
    typed, stored = strip_world(), strip_world()
    for entry in (
        en.CommandEntry(
            nation="red", command=cmd.Move(units=[1], to=(4, 2)).model_dump(mode="json")
        ),
        en.Advance(ticks=8),
    ):
        a = apply_entry(typed, entry)
        b = apply_entry(stored, entry.to_json())
        assert a == b
    assert typed.hash() == stored.hash()
