"""Nothing a nation receives tells what its view hides (issue 12): not the view only, but every
output. Red plays the same orders in two worlds it cannot tell apart (world B is world A changed
where Red sees nothing: hidden units moved, added or removed, hidden cargo, never-seen terrain,
hidden cities, other nations' relations, technology and points, hidden numbers of units it
sees), with arguments aimed at what it cannot see, while other nations act and time passes.
Every reply, error, DM, autocomplete suggestion, list and the map's input must be the same in
both worlds for as long as Red's views stay the same, and no DM may name a unit Red never saw
(`tests/games/strategic/fogcases.py` has the worlds, the steps and the comparison).

- `test_no_output_tells_what_the_view_hides`: 2,000 random cases on CI (a tenth locally:
  tests/scaled.py) through the engine's pure functions, with the desk's reply wording and the
  DMs as `bot/games/strategic/notices.py` writes them;
- `test_the_desk_tells_nothing_the_view_hides`: 150 random cases on CI (15 locally) through
  the bot's Desk on a real GameService (replies and errors as typed commands get them, the
  ICBM confirmation button, `/units`, `/cities`, `/nations`, `/status`, `/map`'s view, every
  autocomplete);
- one small test per leak found from outside (issue 12, "Found" 2-5), each also an explicit
  example of both properties, and tests of the leaks these properties found beyond that list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings

from bot.desk import Desk
from bot.games.strategic import intel
from engine.host.service import GameService
from engine.strategic import commands as cmd
from engine.strategic.orders import apply
from engine.strategic.scenario import build_world
from engine.strategic.view import view_for
from engine.strategic.world import LAND, World
from tests.games.strategic.fogcases import (
    NAMES,
    PLAYERS,
    Case,
    DeskRunner,
    build_case,
    cases,
    compare,
    picture_input,
    pure_compare,
)
from tests.scaled import examples

PURE_EXAMPLES = examples(2000)
DESK_EXAMPLES = examples(150)

# --- hand-made cases: the leaks found from outside, and those the properties found -------------

NATIONS = {n: {"name": NAMES[n], "player": PLAYERS[n]} for n in ("a", "b", "c")}


def scenario(rows: list[str], **spec: Any) -> World:
    """A started world from the scenario format (docs/SCENARIOS.md), Red = nation a."""
    world, _ = build_world(
        {"ruleset": "standard", "seed": 7, "nations": NATIONS, **spec, "map": "\n".join(rows)}
    )
    world.sight_index.settle()
    return world


def pair(
    label: str,
    make: Callable[[bool], World],
    changes: list[str],
    steps: list[tuple],
    *,
    map_differs: bool = False,
) -> Case:
    """A case from one builder: make(False) is world A, make(True) world B."""
    return build_case(make(False), make(True), changes, steps, map_differs=map_differs, label=label)


# Red's infantry (unit 1) at 2,1 next to its fort at 1,1; far to the east Blue's land, never seen.
WEST = "~A.......~~~~~~~~~~~~~"
SEA = "~" * 28


def far_east(*, city: bool, square: str, relation: str = "neutral", bridge: bool = False) -> World:
    """Row 1: Red's island (x 1-8), then water, then Blue's island (x 22-26); with `bridge`
    the land runs all the way. `square` is what 25,1 is without the city: "." or "~"; Blue's
    city is then at 26,1 (how many cities each nation holds is public: the worlds of a case
    keep the counts)."""
    east = "..." + ("B." if city else square + "B")
    row1 = ("~A" + "." * 20 if bridge else WEST) + east + "~"
    row2 = "~........~~" + "~" * 16 + "~"
    row4 = "~" * 14 + "C" + "~" * 13  # Green's home, far from everything
    cities = {
        "A": {"owner": "a", "designation": "fort"},
        "C": {"owner": "c", "designation": "fort"},
    }
    cities["B"] = {"owner": "b", "designation": "fort"}
    return scenario(
        [SEA, row1, row2, SEA, row4],
        cities=cities,
        relations=[["a", "b", relation]],
        units=[{"id": 1, "owner": "a", "type": "infantry", "at": "2,1", "mobility": 6}],
    )


def unseen_city_case() -> Case:
    """Found 2: `cannot move into the city at 25,1; cities are taken by capture`."""
    return pair(
        "2a: a move into a city Red never saw",
        lambda b: far_east(city=not b, square="~"),
        ["Blue's city at 25,1 is water instead"],
        [("me", "move", "1", "25,1")],
        map_differs=True,
    )


def unseen_water_case() -> Case:
    """Found 2: `moves on land, and 11,3 is water` (world B: a lone island there)."""

    def make(b: bool) -> World:
        world = far_east(city=True, square=".")
        if b:
            world.terrain[world.grid.index(11, 3)] = LAND
            world.map_changed()
        return world

    return pair(
        "2b: a move onto water Red never saw",
        make,
        ["never-seen 11,3 is land (an island) instead of water"],
        [("me", "move", "1", "11,3")],
        map_differs=True,
    )


def unseen_city_attack_case() -> Case:
    """Found 2: an attack on a hidden city says `you are not at war with Blue`, on empty
    ground `you see nothing to attack`."""
    return pair(
        "2c: an attack on a city Red never saw, not at war",
        lambda b: far_east(city=not b, square="."),
        ["Blue's city at 25,1 is plain land instead"],
        [("me", "attack", "1", "25,1")],
        map_differs=True,
    )


def unseen_city_war_case() -> Case:
    """Found 2: at war, an attack on a hidden city says `needs 40 mobility to reach 25,1`."""
    return pair(
        "2d: an attack on a city Red never saw, at war",
        lambda b: far_east(city=not b, square=".", relation="war", bridge=True),
        ["Blue's city at 25,1 is plain land instead"],
        [("me", "attack", "1", "25,1")],
        map_differs=True,
    )


OCEAN = [
    "~~~~~~~~~~",
    "~~~~~~~~~~",
    "~~~~~~~~~~",
    "~~~~~~~~~~",
    "~~~~~~~~~~",
    "A...B...C.",
]
HOMES = {  # a city each, far from the action, so that nobody is out of the game
    "A": {"owner": "a", "designation": "fort"},
    "B": {"owner": "b", "designation": "fort"},
    "C": {"owner": "c", "designation": "fort"},
}


def strike(*, red_at_war: bool = False, sub: bool = True) -> World:
    """Blue's submarine (2) at 5,2 next to Green's transport (1) at 4,2, at war; Red's
    battleship (3) at 4,3 sees both squares but cannot see submarines."""
    units = [
        {"id": 1, "owner": "c", "type": "transport", "at": "4,2"},
        {"id": 3, "owner": "a", "type": "battleship", "at": "4,3"},
    ]
    if sub:
        units.insert(1, {"id": 2, "owner": "b", "type": "submarine", "at": "5,2"})
    return scenario(
        OCEAN,
        cities=HOMES,
        relations=[["b", "c", "war"], ["a", "b", "war" if red_at_war else "neutral"]],
        units=units,
    )


def sub_strike_case() -> Case:
    """Found 3: Green (here: Red) watching with a battleship is told "Blue's submarine 2
    attacked Green's transport 1"."""
    return pair(
        "3: a submarine's attack seen by a third nation without sub sight",
        lambda b: strike(),
        [],
        [("other", "b", cmd.Attack(units=[2], target=(4, 2)))],
    )


def convoy(*, cargo: bool) -> World:
    """Blue's transport (10, 1 hp) at 4,2 with a tank (11) and infantry (12) aboard; Red's
    destroyer (1) next to it at 4,3; at war."""
    units = [
        {"id": 1, "owner": "a", "type": "destroyer", "at": "4,3"},
        {"id": 10, "owner": "b", "type": "transport", "at": "4,2", "hp": 1},
    ]
    if cargo:
        units += [
            {"id": 11, "owner": "b", "type": "tank", "at": "4,2", "carried_by": 10},
            {"id": 12, "owner": "b", "type": "infantry", "at": "4,2", "carried_by": 10},
        ]
    world = scenario(OCEAN, cities=HOMES, relations=[["a", "b", "war"]], units=units)
    world.next_unit_id = 13
    return world


def cargo_case() -> Case:
    """Found 4: sinking a transport lists its hidden cargo in the attacker's reply."""
    return pair(
        "4: a transport sunk with cargo Red never saw",
        lambda b: convoy(cargo=not b),
        ["no tank 11 and infantry 12 aboard Blue's transport 10"],
        [("me", "attack", "1", "4,2")],
    )


def allies(*, allied: bool) -> World:
    return scenario(
        ["~~~~~~~~~~", "~A..B..C.~", "~~~~~~~~~~"],
        cities=HOMES,
        relations=[["b", "c", "allied" if allied else "neutral"]],
        units=[{"id": 1, "owner": "a", "type": "infantry", "at": "1,1"}],
    )


def alliance_case() -> Case:
    """Found 5: "Blue already has an ally"."""
    return pair(
        "5: an alliance offer to a nation allied with another",
        lambda b: allies(allied=not b),
        ["Blue and Green are not allied"],
        [("me", "diplomacy", "Blue", "allied")],
    )


KNOWN_LEAKS = [
    unseen_city_case,
    unseen_water_case,
    unseen_city_attack_case,
    unseen_city_war_case,
    sub_strike_case,
    cargo_case,
    alliance_case,
]


def ghost(*, moved: bool) -> World:
    """Red's infantry (1) saw Blue's infantry (10) at 5,1 and walked away (to 2,1): a ghost.
    World B: Blue's infantry has since gone on (to 7,1), unseen."""
    world = scenario(
        ["~~~~~~~~~~", "~.........", "~~~~~~~~~~", "A~~~B~~~C~"],
        cities=HOMES,
        relations=[["a", "b", "war"]],
        units=[
            {"id": 1, "owner": "a", "type": "infantry", "at": "4,1", "mobility": 6},
            {"id": 10, "owner": "b", "type": "infantry", "at": "5,1"},
        ],
    )
    apply(world, "a", cmd.Move(units=[1], to=(2, 1)))
    if moved:
        world.move_unit(world.units[10], world.grid.index(7, 1))
        world.sight_index.settle()
    return world


def ghost_case(verb: str) -> Case:
    return pair(
        f"ghost: Red orders {verb} on a unit it remembers",
        lambda b: ghost(moved=b),
        ["Blue's remembered infantry 10 went from 5,1 to 7,1 unseen"],
        [("me", verb, "1", "5,1")],
    )


def harbour(*, sub: bool) -> World:
    """Blue's port at 5,1 holds a destroyer (10) and, unseen by Red's battleship (1) at 6,1,
    a submarine (11); at war."""
    units = [
        {"id": 1, "owner": "a", "type": "battleship", "at": "6,1"},
        {"id": 10, "owner": "b", "type": "destroyer", "at": "5,1"},
    ]
    if sub:
        units.append({"id": 11, "owner": "b", "type": "submarine", "at": "5,1"})
    world = scenario(
        ["~~~~~~~~~~", "~....P~~~~", "~~~~~~~~~~", "A~~~B~~~C~"],
        cities={**HOMES, "P": {"owner": "b", "designation": "port"}},
        relations=[["a", "b", "war"]],
        units=units,
    )
    world.next_unit_id = 12
    return world


def harbour_case() -> Case:
    return pair(
        "stack: an attack on a port holding a submarine Red cannot see",
        lambda b: harbour(sub=not b),
        ["no submarine 11 in Blue's port"],
        [("me", "attack", "1", "5,1")],
    )


def crossfire_case() -> Case:
    return pair(
        "crossfire: Red's battleship next to a submarine that attacks someone else",
        lambda b: strike(red_at_war=True),
        [],
        [("other", "b", cmd.Attack(units=[2], target=(4, 2)))],
    )


def missile(*, sub: bool) -> World:
    """Red's ICBM (1) waits in its tech centre at 1,1; Blue's submarine (10) lies at 6,1, far
    out of Red's sight."""
    units = [{"id": 1, "owner": "a", "type": "icbm_1", "at": "T"}]
    if sub:
        units.append({"id": 10, "owner": "b", "type": "submarine", "at": "6,1"})
    world = scenario(
        ["~~~~~~~~~~", "~T~~~~~~~~", "~~~~~~~~~~", "A~~~B~~~C~"],
        cities={**HOMES, "T": {"owner": "a", "designation": "tech"}},
        units=units,
    )
    world.next_unit_id = 11
    return world


def missile_case() -> Case:
    return pair(
        "icbm: Red's missile strikes a square where a submarine lies unseen",
        lambda b: missile(sub=not b),
        ["no submarine 10 at 6,1"],
        [("me", "launch", 1, "6,1")],
    )


def scramble() -> World:
    """Green's infantry (1) walks from 4,1 to 8,1 under the eyes of Red's battleship (3) at
    6,2; Blue's fighter (2) at 11,1 and zeppelin (4) at 10,1, out of Red's sight, are at war
    with Green."""
    return scenario(
        ["~~~~~~~~~~~~~~", "~~~~.....~~~~~", "~~~~~~~~~~~~~~", "A~~~~B~~~~C~~~"],
        cities=HOMES,
        relations=[["b", "c", "war"]],
        units=[
            {"id": 1, "owner": "c", "type": "infantry", "at": "4,1", "mobility": 6},
            {"id": 2, "owner": "b", "type": "fighter", "at": "11,1"},
            {"id": 3, "owner": "a", "type": "battleship", "at": "6,2"},
            {"id": 4, "owner": "b", "type": "zeppelin", "at": "10,1"},
        ],
    )


def interception_case() -> Case:
    return pair(
        "scramble: a fighter Red cannot see intercepts a unit Red watches",
        lambda b: scramble(),
        [],
        [("other", "c", cmd.Move(units=[1], to=(8, 1)))],
    )


def payload(*, icbm: bool) -> World:
    """Blue's submarine (10) at 3,1, an ICBM (11) aboard, two squares from Red's battleship (1)
    at 5,1, which cannot see submarines."""
    units = [
        {"id": 1, "owner": "a", "type": "battleship", "at": "5,1"},
        {"id": 10, "owner": "b", "type": "submarine", "at": "3,1"},
    ]
    if icbm:
        units.append({"id": 11, "owner": "b", "type": "icbm_1", "at": "3,1", "carried_by": 10})
    world = scenario(
        ["~~~~~~~~~~", "~~~~~~~~~~", "~~~~~~~~~~", "A~~~B~~~C~"], cities=HOMES, units=units
    )
    world.next_unit_id = 12
    return world


def payload_case() -> Case:
    return pair(
        "payload: a move onto a submarine Red cannot see, an ICBM aboard it",
        lambda b: payload(icbm=not b),
        ["no ICBM aboard Blue's submarine 10"],
        [("me", "move", "1", "3,1")],
    )


def relay(*, cargo: bool) -> World:
    """Classic rules (friends pass their sightings on): Green (c) is allied with Blue and
    friendly with Red; Red's destroyer (1) sinks Blue's transport (10), cargo aboard in A."""
    units = [
        {"id": 1, "owner": "a", "type": "destroyer", "at": "4,3"},
        {"id": 10, "owner": "b", "type": "transport", "at": "4,2", "hp": 1},
    ]
    if cargo:
        units.append({"id": 11, "owner": "b", "type": "tank", "at": "4,2", "carried_by": 10})
    world = scenario(
        OCEAN,
        ruleset="classic",
        cities=HOMES,
        relations=[["a", "b", "war"], ["b", "c", "allied"], ["a", "c", "friendly"]],
        units=units,
    )
    world.next_unit_id = 12
    return world


def relay_case() -> Case:
    return pair(
        "relay: cargo sunk with its carrier, Red's friend allied with the owner",
        lambda b: relay(cargo=not b),
        ["no tank 11 aboard Blue's transport 10"],
        [("me", "attack", "1", "4,2")],
    )


def bystander() -> World:
    """Red's transport (2) and Green's battleship (6) on one square (6,5); Blue's submarine (5)
    next to them attacks the battleship; Blue is at war with both, Red cannot see subs."""
    return scenario(
        OCEAN,
        cities=HOMES,
        relations=[["b", "c", "war"], ["a", "b", "war"]],
        units=[
            {"id": 2, "owner": "a", "type": "transport", "at": "4,2"},
            {"id": 5, "owner": "b", "type": "submarine", "at": "5,2"},
            {"id": 6, "owner": "c", "type": "battleship", "at": "4,2"},
        ],
    )


def bystander_case() -> Case:
    return pair(
        "bystander: a submarine attacks a ship that shares Red's square",
        lambda b: bystander(),
        [],
        [("other", "b", cmd.Attack(units=[5], target=(4, 2)))],
    )


def bombing(*, frail: bool) -> World:
    """Red's heavy bomber (3) next to Blue's port at 5,1, where a destroyer (1) and a
    submarine (2) lie; the submarine has 1 hit point in world A (the bomb kills it)."""
    world = scenario(
        ["~~~~~~~~~~", "~....P~~~~", "~~~~~~~~~~", "A~~~B~~~C~"],
        cities={**HOMES, "P": {"owner": "b", "designation": "port"}},
        relations=[["a", "b", "war"]],
        units=[
            {"id": 1, "owner": "b", "type": "destroyer", "at": "5,1"},
            {"id": 2, "owner": "b", "type": "submarine", "at": "5,1", "hp": 1 if frail else 12},
            {"id": 3, "owner": "a", "type": "heavy_bomber", "at": "6,1"},
        ],
    )
    world.next_unit_id = 4
    return world


def bombing_case() -> Case:
    return pair(
        "bombing: Red's bomb kills a submarine it cannot see",
        lambda b: bombing(frail=not b),
        ["Blue's submarine 2 has 12 hp instead of 1"],
        [("me", "attack", "3", "5,1")],
    )


FOUND_BY_PROPERTY = [
    lambda: ghost_case("attack"),
    lambda: ghost_case("move"),
    harbour_case,
    crossfire_case,
    missile_case,
    interception_case,
    payload_case,
    relay_case,
    bystander_case,
    bombing_case,
]


def with_examples(cases_: list[Callable[[], Case]]):
    def decorate(test):
        for make in reversed(cases_):
            test = example(case=make())(test)
        return test

    return decorate


# --- the properties ---------------------------------------------------------------------------------


@pytest.mark.slow
@settings(
    max_examples=PURE_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=cases(asks=False))
@with_examples(KNOWN_LEAKS + FOUND_BY_PROPERTY)
def test_no_output_tells_what_the_view_hides(case: Case) -> None:
    pure_compare(case)


class DeskRig:
    """One GameService (SQLite in memory) and Desk for many cases; each case is two games in
    their own channels, played by Red's player."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.service = self.loop.run_until_complete(
            GameService.open(":memory:", synchronous="NORMAL")
        )
        self.desk = Desk(self.service)
        self.inbox: dict[int, list] = {}
        self.service.subscribe(self._told)
        self.cases = 0

    def _told(self, game_id: int, events: list) -> None:
        if game_id in self.inbox:
            self.inbox[game_id].extend(events)

    async def compare(self, case: Case, *, sweep: bool = True) -> int:
        self.cases += 1
        guild = f"guild-{self.cases}"
        ra = await DeskRunner(self.desk, self.inbox).open(case.world_a, guild, "a")
        rb = await DeskRunner(self.desk, self.inbox).open(case.world_b, guild, "b")
        try:
            with mock.patch.object(intel, "_picture", picture_input):
                return await compare(case, ra, rb, sweep=sweep)
        finally:
            await ra.close()
            await rb.close()

    def run(self, case: Case, *, sweep: bool = True) -> int:
        return self.loop.run_until_complete(self.compare(case, sweep=sweep))

    def close(self) -> None:
        self.loop.run_until_complete(self.service.close())
        self.loop.close()


@pytest.fixture(scope="module")
def rig():
    rig = DeskRig()
    yield rig
    rig.close()


@pytest.mark.slow
def test_the_desk_tells_nothing_the_view_hides(rig: DeskRig) -> None:
    @settings(
        max_examples=DESK_EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(case=cases(asks=True))
    @with_examples(KNOWN_LEAKS + FOUND_BY_PROPERTY)
    def check(case: Case) -> None:
        rig.run(case)

    check()


# --- one test per leak found from outside (issue 12, "Found" 2-5) ------------------------------------


def desk_outputs(rig: DeskRig, case: Case) -> list[str]:
    """Red's outputs in world A of a case, through the desk (for the messages' wording)."""
    texts: list[str] = []

    async def play() -> None:
        rig.cases += 1
        runner = await DeskRunner(rig.desk, rig.inbox).open(case.world_a, f"guild-{rig.cases}", "a")
        try:
            for step in case.steps:
                texts.extend((await runner.step(step)).texts)
        finally:
            await runner.close()

    rig.loop.run_until_complete(play())
    return texts


def test_a_move_into_a_city_never_seen_says_only_no_known_way(rig: DeskRig) -> None:
    case = unseen_city_case()
    told = " ".join(desk_outputs(rig, case))
    assert "city" not in told and "capture" not in told, told
    rig.run(case)


def test_a_move_onto_water_never_seen_says_only_no_known_way(rig: DeskRig) -> None:
    case = unseen_water_case()
    told = " ".join(desk_outputs(rig, case))
    assert "water" not in told, told
    rig.run(case)


def test_an_attack_on_a_city_never_seen_sees_nothing_to_attack(rig: DeskRig) -> None:
    case = unseen_city_attack_case()
    told = " ".join(desk_outputs(rig, case))
    assert "Blue" not in told and "war" not in told, told
    rig.run(case)


def test_an_attack_at_war_on_a_city_never_seen_sees_nothing_to_attack(rig: DeskRig) -> None:
    case = unseen_city_war_case()
    told = " ".join(desk_outputs(rig, case))
    assert "mobility" not in told and "reach" not in told, told
    rig.run(case)


def test_a_third_nation_is_not_told_of_a_submarine_it_cannot_see(rig: DeskRig) -> None:
    case = sub_strike_case()
    told = desk_outputs(rig, case)
    assert not any("submarine" in text for text in told), told
    rig.run(case)


def test_sinking_a_transport_does_not_list_its_hidden_cargo(rig: DeskRig) -> None:
    case = cargo_case()
    told = " ".join(desk_outputs(rig, case))
    assert "tank 11" not in told and "infantry 12" not in told, told
    rig.run(case)


def test_an_alliance_offer_does_not_tell_whom_the_other_is_allied_with(rig: DeskRig) -> None:
    case = alliance_case()
    told = desk_outputs(rig, case)
    assert not any("already has an ally" in text for text in told), told
    rig.run(case)


# --- leaks the properties found beyond issue 12's list ---------------------------------------------


@pytest.mark.parametrize("verb", ["attack", "move"])
def test_an_order_on_a_ghost_does_not_tell_whether_it_is_still_there(rig: DeskRig, verb) -> None:
    """Red remembers Blue's infantry where it saw it (a ghost, RULES.md: "a nation may still
    order an attack on it there"); whether the unit has gone since must not change the answer
    to an order aimed at that square (the engine counts a remembered unit as seen only while it
    really is still there)."""
    rig.run(ghost_case(verb))


def test_an_attack_on_a_port_does_not_strike_a_submarine_the_attacker_cannot_see(
    rig: DeskRig,
) -> None:
    """The defender is picked among every unit in the city, a submarine Red cannot see
    included: the reply then names it and its hit points."""
    rig.run(harbour_case())


def test_a_ship_does_not_fire_at_a_submarine_its_nation_cannot_see(rig: DeskRig) -> None:
    """In a naval battle every enemy ship next to the attacker fires on it once: Red's
    battleship fires at Blue's submarine it cannot see, and Red is told of it."""
    rig.run(crossfire_case())


def test_an_icbm_does_not_tell_what_it_destroyed_unseen(rig: DeskRig) -> None:
    """The launcher is told of every unit the blast destroys (and everyone of how many), those
    it could not see included."""
    rig.run(missile_case())


def test_a_third_nation_is_not_told_of_a_fighter_it_cannot_see(rig: DeskRig) -> None:
    """Interceptions (and interdictions) are told to every nation that sees the mover, so Red
    learns of Blue's fighter it cannot see (attacks go only to nations that see both units)."""
    rig.run(interception_case())


def test_cargo_aboard_a_hidden_submarine_does_not_give_it_away(rig: DeskRig) -> None:
    """A unit aboard a carrier counts as seen by whoever sees the square (the sight index does
    not look at `carried_by`), so an ICBM aboard a hidden submarine blocks Red's move: "no
    known way" instead of the move (which then bumps into the submarine)."""
    rig.run(payload_case())


def test_cargo_sunk_with_its_carrier_is_not_passed_on_by_a_friend(rig: DeskRig) -> None:
    """Nobody passes on what is inside a carrier: Green, allied with the transport's owner,
    knows its cargo, but does not tell its friend Red that the tank went down with it."""
    case = relay_case()
    told = " ".join(desk_outputs(rig, case))
    assert "tank 11" not in told, told
    rig.run(case)


def test_a_ship_sharing_the_square_is_not_told_of_the_submarine_that_struck_its_neighbour(
    rig: DeskRig,
) -> None:
    """An attack is told to the two sides and to those who see both units, not to every
    nation with a unit on the square (Red's transport shares it with Green's battleship)."""
    case = bystander_case()
    told = desk_outputs(rig, case)
    assert not any("submarine" in text for text in told), told
    rig.run(case)


def test_a_bomb_does_not_tell_the_bomber_it_killed_a_submarine_it_cannot_see(
    rig: DeskRig,
) -> None:
    case = bombing_case()
    told = " ".join(desk_outputs(rig, case))
    assert "destroyer 1" in told and "submarine" not in told, told
    rig.run(case)


def test_the_hand_made_worlds_look_the_same_to_red() -> None:
    """The explicit examples are fair: world B differs only where Red sees nothing (the
    comparison refuses a case whose worlds Red's view tells apart)."""
    for make in KNOWN_LEAKS + FOUND_BY_PROPERTY:
        case = make()
        pure_compare(Case(case.world_a, case.world_b, case.changes, (), case.map_differs))


# --- memory: what a nation remembers is only what it saw ------------------------------------------


def test_cargo_stepping_ashore_out_of_sight_leaves_no_ghost_on_its_transport() -> None:
    """Red's battleship (1) watches Blue's transport (10) at 4,1 but not the shore at 4,0;
    the tank (11) aboard steps off onto it. Red never saw the tank, so it must not remember
    it (a ghost at the transport's square would tell that the transport carried a tank)."""
    world = scenario(
        ["~~~~.~~~~~"] + ["~" * 10] * 5 + ["A~~~B~~~C~"] + ["~" * 10] * 3,
        cities=HOMES,
        units=[
            {"id": 1, "owner": "a", "type": "battleship", "at": "4,3"},
            {"id": 10, "owner": "b", "type": "transport", "at": "4,1"},
            {"id": 11, "owner": "b", "type": "tank", "at": "4,1", "carried_by": 10},
        ],
    )
    assert [u.id for u in view_for(world, "a").units if u.owner == "b"] == [10]
    assert not world.sight_index.covers("a", world.grid.index(4, 0))
    apply(world, "b", cmd.Move(units=[11], to=(4, 0)))
    assert world.units[11].sq == world.grid.index(4, 0)
    assert 11 not in world.sightings.get("a", {})
    assert [u.id for u in view_for(world, "a").units if u.owner == "b"] == [10]


def test_a_broken_alliance_leaves_no_one_the_map_of_an_ally_s_other_ally() -> None:
    """Classic rules allow several allies. Green is allied with Red and with Blue; Red and
    Blue are not. When Green and Blue part, Red must not come to know the squares only Blue's
    units saw (each ally keeps what it saw itself)."""
    world = scenario(
        ["~~~~~~~~~~~~~~~~~~~~", "~A~~~~~~~C~~~~~~~~B~", "~~~~~~~~~~~~~~~~~~~~"],
        ruleset="classic",
        cities=HOMES,
        relations=[["a", "c", "allied"], ["b", "c", "allied"]],
        units=[{"id": 1, "owner": "b", "type": "destroyer", "at": "15,1"}],
    )
    far = world.grid.index(15, 1)  # seen by Blue's destroyer only
    assert view_for(world, "a").terrain[far] == 0
    world.set_relation("c", "b", "neutral")
    world.set_relation("b", "c", "neutral")
    world.sight_index.settle()
    assert view_for(world, "a").terrain[far] == 0
    assert view_for(world, "c").terrain[far] != 0  # Green saw it through its ally, and keeps it
