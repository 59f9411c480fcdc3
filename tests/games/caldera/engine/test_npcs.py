"""Caldera's NPCs as the captains meet them (seed 003, "NPC Guide"): a friend's and an enemy's
ships designed from pinned cards, the planets' bonuses, each enemy A.I. type's ship points and
where it sends which group on a small hand-made map, the order of the NPCs' turn, the trust's
shares of a friend's fleet, damaged ships going home, and the upgrades when a zone opens.

The map round the enemy base at "0,-3" (layer 3, straight north of Earth):

    N  "0,-4"  unexplored        S  "0,-2"  half nebula
    NE "1,-4"  unexplored        SW "-1,-2" a planet (no base)
    SE "1,-3"  empty space       NW "-1,-3" unexplored
    two steps: "-2,-2" asteroids; Earth "0,0" three steps south.
"""

from __future__ import annotations

import pytest

from engine.caldera import clashes, npc_ai, npcs
from engine.caldera.starmap import Tile
from engine.caldera.state import EARTH, Npc, State
from engine.caldera.tiles import Kind
from engine.errors import CommandError
from tests.games.caldera.engine.game import command, new_game, past_setup, resolve

BASE = "0,-3"
# layouts that help nobody at the start (classes and engines the NPC lacks): its engine's
PLAIN_LAYOUTS = ["frigate-1", "frigate-3", "frigate-4", "destroyer-2", "destroyer-3"]
AI_CARD = {  # a card of each top number (the enemy A.I. type's number)
    1: "interceptor-1",
    2: "interceptor-2",
    3: "plating-3",
    4: "interceptor-4",
    5: "interceptor-5",
    6: "frigate-6",
}


def _fresh() -> State:
    """Three captains (X = 3) and Jack's Spacebay, no escorted ship (the starting event card
    may have brought one)."""
    state = new_game()
    if state.event is not None:
        npcs.event_ended(state, state.event.card)
        state.trust = 0
        for c in state.captains.values():
            c.credits = 500
    return state


def _pin(state: State, cards: list[str]) -> None:
    """These cards drawn next from the main deck, in this order."""
    pile = state.decks.main
    for card in cards:
        for where in (pile.cards, pile.discard):
            if card in where:
                where.remove(card)
    pile.cards.extend(reversed(cards))


def _tile(state: State, place: str, kind: Kind, **face: object) -> None:
    state.map.tiles[place] = Tile(kind=kind, zone=state.zone, **face)  # type: ignore[arg-type]


def _game(planet: str = "cold") -> State:
    """Three captains (X = 3), Jack's Spacebay made, the hand-made map round the base."""
    state = _fresh()
    _tile(state, BASE, Kind.PLANET, planet=planet)
    _tile(state, "1,-3", Kind.EMPTY)
    _tile(state, "0,-2", Kind.HALF_NEBULA)
    _tile(state, "-1,-2", Kind.PLANET, planet="earthlike")
    _tile(state, "-2,-2", Kind.ASTEROIDS, asteroids=["small"])
    _tile(state, "0,-1", Kind.EMPTY)
    return state


def _enemy(state: State, number: int, at: str = BASE, tech: list[str] | None = None) -> Npc:
    """An enemy of the A.I. type `number` at `at`, its designs from plain cards (it draws no
    weapon: it starts with its type's)."""
    _pin(state, [AI_CARD[number], *(tech or ["plating-2", "mining-bots-2"]), *PLAIN_LAYOUTS])
    return npcs.create_enemy(state, at)


def _sends(events: list[dict[str, object]], npc: str) -> list[dict[str, object]]:
    return [e for e in events if e["npc"] == npc and e["did"] == "send"]


# --- designing ships from cards -------------------------------------------------------------------


def test_jacks_spacebay_designs_its_interceptor_from_the_cards_drawn() -> None:
    state = _fresh()
    del state.npcs["js"]
    _pin(
        state,
        [
            # 2 tech cards: a "+tech" card counts double (one more drawn)
            "fusion-cannon-6",
            "plating-2",
            "tnt-mine-3",
            # 5 layout cards
            "fusion-cannon-3",  # "+layout": two layouts
            "plating-3",  # a layout of its plating
            "warp-drive-1",  # a tech it lacks: to its engine
            "laser-beam-5",  # "+tech": the laser beam as a tech instead
            "tnt-mine-4",  # its mines are not fitted (the beam is better): to its engine
        ],
    )
    js = npcs.create_friend(state)
    assert js is not None and js.name == "Jack's Spacebay"
    assert js.techs == {
        "interceptor": 0,
        "nuclear-engine": 2,
        "fusion-cannon": 2,
        "plating": 1,
        "tnt-mine": 0,
        "laser-beam": 0,
    }
    # space 30: the engine (5), one weapon for an interceptor (the beam's 8 beats the cannon's
    # 6: 15), then platings (5 each) while they fit
    assert js.designs["interceptor"] == ["nuclear-engine", "laser-beam", "plating", "plating"]
    # SShips 12 x 3 captains wait in its docks, none on the map until the trust sends them
    assert js.docked == {"interceptor": 36} and not state.ships_of("js")
    assert "tnt-mine-4" in state.decks.main.discard


def test_an_enemy_that_draws_no_weapon_starts_with_its_type_s_weapon() -> None:
    state = _game()
    explorers = _enemy(state, 2)
    assert explorers.ai == "explorers" and explorers.name == "Roger's Pirates"
    assert "fighter-bay" in explorers.techs
    assert explorers.designs["interceptor"] == ["nuclear-engine", "fighter-bay"]
    assert all(s.parts == ["nuclear-engine", "fighter-bay"] for s in state.ships_of(explorers.id))


def test_the_zone_s_enemy_row_gives_its_classes_and_a_set_of_each() -> None:
    state = _game()
    state.zone = 3
    aliens = _enemy(state, 5)
    assert aliens.table == "alien-pirates"
    # "1-1 means ints and frigates": the starting fleet alternates them
    assert [s.klass for s in state.ships_of(aliens.id)] == ["interceptor", "frigate"] * 3


# --- the planets' bonuses -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("planet", "ships", "army", "defence", "laser"),
    [
        ("earthlike", 6, {"humvee": 5, "space-cadet": 26}, 0, 0),  # land tech +1, army x2
        ("arid", 9, {"space-cadet": 18}, 0, 0),  # half as many ships again
        ("cold", 6, {"space-cadet": 18}, 50, 0),  # defence +50% in battle
        ("vulcan", 6, {"space-cadet": 18}, 0, 1),  # a layout more on every weapon
    ],
)
def test_the_base_planet_s_bonus(
    planet: str, ships: int, army: dict[str, int], defence: int, laser: int
) -> None:
    state = _game(planet)
    hoarders = _enemy(state, 3)  # its laser cannon comes with its type
    # 2X ships at its base (X = 3); Roger's Pirates' Lsize 6 x 3 of army
    assert len(state.ships_of(hoarders.id)) == ships == hoarders.fleet_start
    assert hoarders.land == army
    assert hoarders.defence_percent == defence
    assert hoarders.techs["laser-cannon"] == laser


# --- the enemy A.I. types -------------------------------------------------------------------------


def _ready(state: State, npc: Npc, group: int) -> None:
    """Ships enough at its base to send one group beyond the half it keeps."""
    keep = (npc.fleet_start + 1) // 2
    for _ in range(max(0, keep + group - len(state.ships_of(npc.id)))):
        npcs.launch(state, npc, state.cards, "interceptor", BASE)


@pytest.mark.parametrize(
    ("number", "ai", "group", "to"),
    [
        (1, "scaredy-cats", 5, "0,-2"),  # closest systems; "1,-3" holds a ship already
        (3, "hoarders", 2, "-1,-2"),  # closest system with resources (a planet)
        (4, "surveyors", 4, "1,-3"),  # closest system, clockwise from north
        (5, "manufacturers", 3, "-2,-2"),  # closest asteroids
    ],
)
def test_each_type_sends_its_group_where_the_seed_says(
    number: int, ai: str, group: int, to: str
) -> None:
    state = _game()
    npc = _enemy(state, number)
    assert npc.ai == ai
    state.add_ship("ann", "interceptor", [], 10, "1,-3")
    _ready(state, npc, group)
    sends = _sends(npcs.npc_turn(state), npc.id)
    assert sends and len(sends[0]["ships"]) == group and sends[0]["to"] == to  # type: ignore[arg-type]


def test_explorers_send_ships_one_by_one_to_unexplored_space_clockwise_from_north() -> None:
    state = _game()
    explorers = _enemy(state, 2)
    ids = [s.id for s in state.ships_of(explorers.id)]
    events = npcs.npc_turn(state)
    # 6 ships, half kept: three sent alone, north, north-east, then north-west of the base
    assert [(e["ships"], e["to"]) for e in _sends(events, explorers.id)] == [
        ([ids[3]], "0,-4"),
        ([ids[4]], "1,-4"),
        ([ids[5]], "-1,-3"),
    ]
    # they entered unexplored space: it is scouted at this resolution
    assert {"0,-4", "1,-4", "-1,-3"} <= set(state.scouting)


def test_conquerors_open_with_half_their_fleet_at_the_closest_homeworld() -> None:
    state = _game()
    conquerors = _enemy(state, 6)
    events = npcs.npc_turn(state)
    assert [(len(e["ships"]), e["to"]) for e in _sends(events, conquerors.id)] == [(3, EARTH)]  # type: ignore[arg-type]
    # the other half stays; next turn nothing more goes (a group of 6 is not there)
    assert not _sends(npcs.npc_turn(state), conquerors.id)


def test_with_nowhere_uncontrolled_to_go_an_enemy_attacks_the_closest_homeplanet() -> None:
    state = _fresh()
    _tile(state, "0,-1", Kind.PLANET, planet="cold")
    manufacturers = _enemy(state, 5, at="0,-1")  # no asteroids on the map
    events = _sends(npcs.npc_turn(state), manufacturers.id)
    assert [e["to"] for e in events] == [EARTH]
    assert all(state.ships[s].at == EARTH for s in events[0]["ships"])  # type: ignore[attr-defined]


def test_ship_points_of_each_type() -> None:
    state = _game()
    ids = {n: _enemy(state, n).id for n in (1, 3, 4, 5)}
    rules = state.rules
    for n, npc_id in ids.items():
        npc = state.npcs[npc_id]
        for ship in state.ships_of(npc_id):
            state.ships[ship.id].at = "9,9"  # out of the way
        # hold the empty "1,-3" and the planet "-1,-2" with one ship each
        for ship, at in zip(state.ships_of(npc_id)[:2], ("1,-3", "-1,-2"), strict=True):
            ship.at = at
        gained = npc_ai.points_gained(state, npc, rules.ai_type(n))
        assert (n, gained) == {
            1: (1, 2),  # (2 systems + the base counting 2) / 2
            3: (3, 2),  # the planet mined + the base
            4: (4, 3),  # 2 tiles + the base
            5: (5, 1),  # one a turn
        }[n]
        for ship in state.ships_of(npc_id):
            ship.at = BASE


def test_explorers_gain_a_point_for_each_place_they_scouted() -> None:
    state = _game()
    explorers = _enemy(state, 2)
    npcs.npc_turn(state)
    for place in ("0,-4", "1,-4"):  # scouted at the resolution; "-1,-3" not (yet)
        _tile(state, place, Kind.EMPTY)
    assert npc_ai.points_gained(state, explorers, state.rules.ai_type(2)) == 2


def test_conquerors_gain_a_ship_for_each_ship_they_destroyed() -> None:
    state = _game()
    conquerors = _enemy(state, 6)
    npcs.npc_turn(state)
    before = len(state.ships_of(conquerors.id))
    conquerors.destroyed += 2  # the battles count them
    npcs.npc_turn(state)
    assert len(state.ships_of(conquerors.id)) == before + 2


def test_a_set_of_ships_is_built_when_the_points_reach_the_types_it_builds() -> None:
    state = _game()
    state.zone = 3  # Alien Pirates: interceptors and frigates, 2 types
    manufacturers = _enemy(state, 5)
    count = len(state.ships_of(manufacturers.id))
    npcs.npc_turn(state)  # one point: nothing yet
    assert len(state.ships_of(manufacturers.id)) == count
    events = npcs.npc_turn(state)  # two points: one of each
    built = [e["class"] for e in events if e["did"] == "built"]
    assert built == ["interceptor", "frigate"]


def test_damaged_enemy_ships_go_home_and_are_repaired_there() -> None:
    state = _game()
    surveyors = _enemy(state, 4)
    away, home = state.ships_of(surveyors.id)[:2]
    away.at, away.damage = "0,-2", 3
    home.damage = 4
    events = npcs.npc_turn(state)
    assert (
        home.damage == 0
        and {"npc": surveyors.id, "ship": home.id, "did": "repaired", "at": BASE} in events
    )
    assert home.at == BASE  # repaired this turn: it does not leave
    assert away.at == BASE  # one step home (in range)


# --- the order of the NPCs' turn --------------------------------------------------------------------


def test_the_friend_plays_first_then_the_enemies_nearest_earth_north_first_clockwise() -> None:
    state = _fresh()
    for place in ("0,-2", "1,0", "0,-1"):
        _tile(state, place, Kind.PLANET, planet="cold")
    far = _enemy(state, 5, at="0,-2")  # layer 2
    south_east = _enemy(state, 5, at="1,0")  # layer 1, south-east
    north = _enemy(state, 5, at="0,-1")  # layer 1, north
    assert npc_ai.turn_order(state) == ["js", north.id, south_east.id, far.id]
    events = npcs.npc_turn(state)
    played = list(dict.fromkeys(e["npc"] for e in events if e["npc"] != "js"))
    assert played == [north.id, south_east.id, far.id]


# --- trust --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trust", "shares"),
    [
        (14, (0, 0)),
        (15, (9, 0)),  # 5X: a quarter protects the shipyards
        (30, (18, 0)),  # 10X: half
        (45, (18, 9)),  # 15X: a quarter in the captains' control
        (60, (27, 9)),  # 20X: three quarters protect
        (75, (18, 18)),  # 25X: half in control (the other half protects)
        (90, (18, 18)),  # 30X: all protect, those not in control
        (105, (9, 27)),  # 35X: three quarters in control
        (120, (0, 36)),  # 40X: all in control
    ],
)
def test_trust_thresholds_share_the_friend_s_fleet(trust: int, shares: tuple[int, int]) -> None:
    state = _fresh()  # X = 3
    state.trust = trust
    assert npcs.fleet_shares(state, state.rules, 36) == shares


def test_the_friend_s_ships_come_out_by_trust_and_follow_their_captains() -> None:
    state = _fresh()
    js = state.npcs["js"]
    npcs.npc_turn(state)
    assert not state.ships_of("js")  # no trust: all docked
    state.trust = 45
    npcs.npc_turn(state)
    out = state.ships_of("js")
    assert len(out) == 27 and all(s.at == EARTH for s in out)
    controlled = {s.id: c for s in out if (c := npcs.controller(state, s)) is not None}
    assert sorted(controlled.values()) == ["ann"] * 3 + ["bob"] * 3 + ["cal"] * 3
    assert sum(js.docked.values()) == 9
    # a damaged ship withdraws to the docks for repairs; a whole one takes its place
    hurt = next(iter(controlled))
    state.ships[hurt].damage = 2
    npcs.npc_turn(state)
    assert hurt not in state.ships and js.repairing == {"interceptor": 1}
    assert len(state.ships_of("js")) == 27
    assert npcs.controller(state, hurt) is None


# --- a new zone -----------------------------------------------------------------------------------


def test_old_enemies_draw_techs_and_layouts_on_a_new_zone_and_refit_at_once() -> None:
    state = _game()
    old = _enemy(state, 3)  # a laser cannon, its engine's layouts
    assert old.designs["interceptor"] == [
        "nuclear-engine",
        "laser-cannon",
        "plating",
        "plating",
        "plating",
    ]
    state.zone = 2
    _tile(state, "2,-2", Kind.PLANET, planet="cold")
    new = _enemy(state, 3, at="2,-2")
    new_techs = dict(new.techs)
    _pin(state, ["laser-beam-1", "force-field-2", *["laser-beam-3"] * 5])
    npcs.upgrade_enemies(state)
    assert old.techs["laser-beam"] == 5 and "force-field" in old.techs
    assert old.designs["interceptor"][:2] == ["nuclear-engine", "laser-beam"]
    assert all(s.parts == old.designs["interceptor"] for s in state.ships_of(old.id))
    assert new.techs == new_techs  # made in this zone: no upgrade


def test_enemy_presence_puts_the_enemy_s_ships_in_the_system() -> None:
    state = _game()
    pirates = _enemy(state, 1)
    npcs.enemy_presence(state, pirates, "-2,-2", 4 * state.players())
    there = [s for s in state.ships_at("-2,-2") if s.owner == pirates.id]
    assert len(there) == 12 and all(s.parts == pirates.designs["interceptor"] for s in there)


# --- through the turn ---------------------------------------------------------------------------------


def test_a_captain_gives_move_orders_to_the_friend_s_ships_under_their_control() -> None:
    state = past_setup()
    _tile(state, "0,-1", Kind.EMPTY)
    state.trust = 45  # 15X: a quarter of Jack's Spacebay's fleet in the captains' control
    npcs.npc_turn(state)
    ann_s = next(s.id for s in state.ships_of("js") if npcs.controller(state, s) == "ann")
    with pytest.raises(CommandError, match=f"no ship {ann_s}"):
        command(state, "bob", kind="move", ships=[ann_s], to="0,-1")
    command(state, "ann", kind="move", ships=[ann_s], to="0,-1")
    resolve(state)
    assert state.ships[ann_s].at == "0,-1" and npcs.controller(state, ann_s) == "ann"


def test_the_battles_count_the_conquerors_kills_and_they_gain_ships() -> None:
    state = _game()
    conquerors = _enemy(state, 6, tech=["laser-beam-1", "plating-2"])
    raiders = state.ships_of(conquerors.id)[:2]
    for ship in raiders:
        ship.at = "1,-3"
    victim = state.add_ship("ann", "interceptor", ["nuclear-engine"], 10, "1,-3")
    clashes.fight_at(state, "1,-3")
    assert victim.id not in state.ships and conquerors.destroyed == 1
    before = len(state.ships_of(conquerors.id))
    npcs.npc_turn(state)
    assert len(state.ships_of(conquerors.id)) == before + 1


def test_explorers_scout_deep_space_without_breaking_the_captains_zone_mission() -> None:
    state = past_setup()
    state.zone_mission, state.zone_mission_done = 4, False  # Scaredy-cats: stay near Earth
    _tile(state, "0,-4", Kind.PLANET, planet="cold")
    explorers = _enemy(state, 2, at="0,-4")
    resolve(state)
    # three sent alone into unexplored space round their base (layer 5 and 4), scouted there
    assert {"0,-5", "1,-5"} <= set(state.map.tiles)
    assert not state.zone_mark.get("broken")
    explorers = state.npcs[explorers.id]  # the resolution works on a copy of the state
    assert npc_ai.points_gained(state, explorers, state.rules.ai_type(2)) == 3


# --- the escort events --------------------------------------------------------------------------------


@pytest.mark.parametrize("alive", [True, False])
def test_a_wingman_kept_alive_to_the_card_s_end_earns_trust_and_credits(alive: bool) -> None:
    state = _fresh()
    credits = {c: state.captains[c].credits for c in state.active()}
    npcs.event_started(state, "wingman")
    (wingman,) = state.ships_of("js")
    assert wingman.protected and wingman.at == EARTH
    assert npcs.controller(state, wingman) is None  # it waits at Earth, under protection
    npcs.npc_turn(state)  # the friend's turn leaves it be (no trust: nothing else comes out)
    assert state.ships_of("js") == [wingman]
    if not alive:
        del state.ships[wingman.id]  # shot down
    npcs.event_ended(state, "wingman")
    assert not state.ships_of("js")
    card = state.cards.event_card("wingman")
    assert state.trust == (card.trust if alive else 0)
    gain = card.amount * state.zone if alive else 0
    assert {c: state.captains[c].credits - credits[c] for c in credits} == dict.fromkeys(
        credits, gain
    )


def test_other_events_bring_no_ship() -> None:
    state = _fresh()
    npcs.event_started(state, "solar-storm")
    assert not state.ships_of("js")


def test_each_zone_has_one_friend_from_the_npc_table() -> None:
    state = _fresh()
    assert npcs.create_friend(state) is None  # zone 1 has Jack's Spacebay already
    state.zone = 2
    plain = ["destroyer-5", "destroyer-6", "cruiser-1", "cruiser-2", "cruiser-4"]
    _pin(state, ["plating-2", "plating-3", "tnt-mine-1", "laser-cannon-2", *PLAIN_LAYOUTS, *plain])
    nf = npcs.create_friend(state)
    assert nf is not None and nf.name == "New Frontier"
    # "1 Class 2 engine": interceptors with a cold fusion drive, the best engine it has
    assert nf.designs["interceptor"][0] == "cold-fusion-drive"
    assert npcs.create_friend(state) is None
    state.zone = 11  # past the table's last friend (Galactic Union, zone 10)
    assert npcs.create_friend(state) is None


def test_a_design_keeps_room_for_a_weapon_before_a_bigger_engine() -> None:
    state = _fresh()
    del state.npcs["js"]
    # a warp drive (size 30) would fill an interceptor (space 30): the nuclear engine it is
    _pin(state, ["warp-drive-1", "laser-cannon-2", *PLAIN_LAYOUTS])
    js = npcs.create_friend(state)
    assert js is not None and "warp-drive" in js.techs
    assert js.designs["interceptor"][:2] == ["nuclear-engine", "laser-cannon"]
    # the layouts that help nothing went to the engine it flies with
    assert js.techs["nuclear-engine"] == 5 and js.techs["warp-drive"] == 0


def test_a_place_held_counts_for_ship_points_once() -> None:
    state = _game()
    surveyors = _enemy(state, 4)
    surveyors.fleet_start = 100  # it keeps every ship at home: nothing is sent
    first, second = state.ships_of(surveyors.id)[:2]
    first.at, second.at = "1,-3", "-1,-2"

    def built() -> int:
        return sum(1 for e in npcs.npc_turn(state) if e["did"] == "built")

    assert built() == 3  # two tiles and its base
    assert built() == 0  # the same places: nothing more
    first.at = "0,-2"  # a new tile held ("1,-3" was counted already)
    assert built() == 1
