"""Refusals tell only what the nation's view shows (issue 27, finding 2): a hidden submarine
neither names itself in a refusal nor makes an order refused that would otherwise be taken."""

from __future__ import annotations

import pytest

from engine.errors import CommandError
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.orders import apply
from engine.strategic.view import view_for
from engine.strategic.world import World
from tests.games.strategic.worlds import STRIP, strip_world

GREEN = {**STRIP["nations"], "green": {"player": "300"}}
ALLIED = [["red", "blue", "allied"], ["blue", "red", "allied"]]


def _outcome(world: World, nation: str, command: cmd.Command) -> tuple[str, object]:
    """What the nation learns from its order: the refusal's words, or its own events."""
    try:
        events = apply(world, nation, command)
    except CommandError as exc:
        return "refused", str(exc)
    mine = [e for e in events if nation in e.to and not isinstance(e, ev.SubSighted)]
    return "done", [e.model_copy(update={"to": []}) for e in mine]  # who else: not its to know


def _port_with(sub: bool) -> World:
    """Red's port at 3,3, allied with Blue; with `sub`, Green's submarine lies in it, hidden
    from Red (it came in while Green and Red were allied: the alliance has ended)."""
    extra = [{"id": 9, "owner": "green", "type": "submarine", "at": "3,3"}] if sub else []
    green = {"id": 10, "owner": "green", "type": "destroyer", "at": "17,5"}  # Green plays on
    return strip_world(relations=ALLIED, nations=GREEN, units=[*STRIP["units"], green, *extra])


def test_a_hidden_submarine_in_a_port_neither_blocks_nor_names_itself_in_a_cession() -> None:
    """Found from outside: the refusal said "Green's units are in the city at 3,3"."""
    outcomes, views = [], []
    for sub in (False, True):
        world = _port_with(sub)
        views.append(view_for(world, "red").units)
        outcomes.append(_outcome(world, "red", cmd.CedeCity(city=(3, 3), receiver="blue")))
        if sub:  # ceded with the sub in it, which stays Green's
            assert world.cities[world.grid.index(3, 3)].owner == "blue"
            assert world.units[9].owner == "green" and world.units[9].sq == world.grid.index(3, 3)
    assert views[0] == views[1]  # Red cannot tell the two worlds apart
    assert outcomes[0] == outcomes[1] and outcomes[0][0] == "done"


def test_a_third_nations_unit_the_cedent_sees_in_the_city_still_keeps_it() -> None:
    world = strip_world(
        relations=ALLIED,
        nations=GREEN,
        units=STRIP["units"] + [{"id": 9, "owner": "green", "type": "destroyer", "at": "3,3"}],
    )
    with pytest.raises(CommandError, match="Green's units are in the city at 3,3"):
        apply(world, "red", cmd.CedeCity(city=(3, 3), receiver="blue"))


def _engineer_at_sea(sub: bool, ruleset: str) -> World:
    """Red's engineer on water at 11,2 (land next to it); with `sub`, Green's submarine hidden
    on the same square."""
    extra = [{"id": 9, "owner": "green", "type": "submarine", "at": "11,2"}] if sub else []
    engineer = {"id": 8, "owner": "red", "type": "engineer", "at": "11,2", "mobility": 9}
    return strip_world(ruleset=ruleset, nations=GREEN, units=[*STRIP["units"], engineer, *extra])


@pytest.mark.parametrize("ruleset", ["standard", "classic"])
def test_an_engineer_finds_a_hidden_submarine_instead_of_being_refused_because_of_it(
    ruleset: str,
) -> None:
    """Found by the sweep of refusals: "only engineers may be on a square being switched" was
    said of a square where the nation sees nothing but its engineer."""
    clear, hidden = _engineer_at_sea(False, ruleset), _engineer_at_sea(True, ruleset)
    assert view_for(clear, "red").units == view_for(hidden, "red").units
    assert _outcome(clear, "red", cmd.SwitchTerrain(unit=8))[0] == "done"
    cp, mobility = hidden.nations["red"].cp, hidden.units[8].mobility
    events = apply(hidden, "red", cmd.SwitchTerrain(unit=8))
    assert [type(e) for e in events] == [ev.SubSighted]  # found: shown, as a bump shows it
    found = events[0]
    assert isinstance(found, ev.SubSighted) and found.to == ["red"] and found.unit == 9
    assert hidden.is_water(hidden.grid.index(11, 2))  # nothing switched, nothing spent
    assert (hidden.nations["red"].cp, hidden.units[8].mobility) == (cp, mobility)
    assert any(u.id == 9 for u in view_for(hidden, "red").units)
    with pytest.raises(CommandError, match="only engineers may be on a square"):
        apply(hidden, "red", cmd.SwitchTerrain(unit=8))  # seen now: refused as any unit is
