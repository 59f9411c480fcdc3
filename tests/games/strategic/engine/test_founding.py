"""Founding a nation at its join (issue 31 item 1): a leader, a title and a starting island
chosen, kept in the log, refused whole when anything is wrong, and a join without choices
exactly as before."""

from __future__ import annotations

import functools

import pytest

from engine.errors import GameError
from engine.interface import entries as en
from engine.strategic.mapgen import generate
from engine.strategic.replay import apply_entry
from engine.strategic.view import view_for
from engine.strategic.world import World


@functools.cache
def _lobby_json(ruleset: str) -> str:
    return generate(ruleset, nations=3, width=32, height=32, seed=7).to_json()


def lobby(ruleset: str = "standard") -> World:
    import json

    return World.from_dict(json.loads(_lobby_json(ruleset)))


def join(world: World, nation: str, colour: str, founding: dict | None = None, **kw) -> list:
    entry = en.Join(
        nation=nation,
        name=kw.pop("name", nation.title()),
        colour=colour,
        player=kw.pop("player", None),
        founding=founding,
    )
    return apply_entry(world, en.entry_from_json(entry.to_json()))


@pytest.mark.parametrize("ruleset", ["standard", "classic", "total-war"])
def test_a_player_founds_avalon_on_the_island_they_chose(ruleset):
    world = lobby(ruleset)
    told = join(
        world,
        "avalon",
        "#ff2d5a",
        {"leader": "Ada", "title": "President", "island": 3},
        name="Avalon",
    )
    assert world.slot_owner == [None, None, "avalon"]
    home = world.slots[2][0]
    assert world.cities[home].owner == "avalon"
    assert told[0].home == world.grid.label(home)
    join(world, "borduria", "#7887ff")  # no choice: the first free island, no leader
    assert world.slot_owner == ["borduria", None, "avalon"]
    seen = view_for(world, "borduria").nations
    assert seen["avalon"].styled == "Avalon (President Ada)"
    assert seen["borduria"].styled == "Borduria"


def test_a_leader_without_a_title_is_named_alone():
    world = lobby()
    join(world, "avalon", "#ff2d5a", {"leader": "Ada"}, name="Avalon")
    assert view_for(world, "avalon").nations["avalon"].styled == "Avalon (Ada)"


@pytest.mark.parametrize(
    ("founding", "says"),
    [
        ({"island": 2}, "starting island 2 is taken"),
        ({"island": 4}, "there is no starting island 4"),
        ({"island": 0}, "there is no starting island 0"),
        ({"title": "King"}, "a title goes with a leader"),
        ({"leader": "x" * 33}, "1 to 32 characters"),
        ({"leader": "Ada", "title": "y" * 25}, "1 to 24 characters"),
        ({"leader": "<@123>"}, "plain words"),
        ({"leader": "**Ada**"}, "plain words"),
        ({"leader": "Ada\nKing"}, "line break"),
        ({"leader": "Ada", "crown": True}, "a founding is leader, title and island"),
    ],
)
def test_a_refused_founding_changes_nothing(founding, says):
    world = lobby()
    join(world, "borduria", "#7887ff", {"island": 2})
    before = world.hash()
    with pytest.raises(GameError, match=says):
        join(world, "avalon", "#ff2d5a", founding, name="Avalon")
    assert world.hash() == before
    assert "avalon" not in world.nations


def test_a_taken_colour_or_name_is_refused_before_anything_changes():
    world = lobby()
    join(world, "borduria", "#7887ff")
    before = world.hash()
    with pytest.raises(GameError, match="colour is taken"):
        join(world, "avalon", "#7887FF", {"leader": "Ada"})
    with pytest.raises(GameError, match="taken"):
        join(world, "borduria-2", "#ff2d5a", {"leader": "Ada"}, name="BORDURIA")
    assert world.hash() == before


def test_a_join_without_choices_is_stored_and_played_as_before():
    entry = en.Join(nation="red", name="Red", colour="#ff2d5a", player="1")
    assert entry.to_json() == {
        "kind": "lobby",
        "action": "join",
        "nation": "red",
        "name": "Red",
        "colour": "#ff2d5a",
        "player": "1",
    }
    world = lobby()
    join(world, "red", "#ff2d5a")
    assert "leader" not in world.nations["red"].to_dict()  # the world hashes as before
    assert world.slot_owner[0] == "red"


def test_the_founding_is_in_the_log_and_a_replay_keeps_it():
    world = lobby()
    entries = [
        en.Join(
            nation="avalon",
            name="Avalon",
            colour="#ff2d5a",
            player="1",
            founding={"leader": "Ada", "title": "Queen", "island": 2},
        ).to_json(),
        en.Join(nation="borduria", name="Borduria", colour="#7887ff").to_json(),
        en.Start().to_json(),
        en.Advance(ticks=8).to_json(),
    ]
    for e in entries:
        apply_entry(world, e)
    again = lobby()
    for e in entries:
        apply_entry(again, e)
    assert again.hash() == world.hash()
    restored = World.from_dict(world.to_dict())
    assert restored.hash() == world.hash()
    assert restored.nations["avalon"].leader == "Ada"
    assert restored.slot_owner[:2] == ["borduria", "avalon"]


def test_a_scenario_founds_its_nations_with_leaders():
    from engine.strategic.scenario import ScenarioError, build_world

    spec = {"map": "~A.~\n~..~\n~~~~", "nations": {"red": {"leader": "Ada", "title": "Queen"}}}
    world = build_world(spec)[0]
    assert view_for(world, "red").nations["red"].styled == "Red (Queen Ada)"
    with pytest.raises(ScenarioError, match="a title goes with a leader"):
        build_world({"map": "~A.~\n~..~\n~~~~", "nations": {"red": {"title": "Queen"}}})
