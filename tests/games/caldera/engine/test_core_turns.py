"""Caldera's core as the captains meet it: the setup window, a turn's resolution in the seed's
order (moves, battles, scouting, the zone counter, income), missions, the zone changing, the
fleet limit, refusals that change nothing, the state's stored form and replays."""

from __future__ import annotations

import pytest

from engine.caldera import ai, npcs, window
from engine.caldera.events import TurnResolved
from engine.caldera.kind import KIND
from engine.caldera.simulate import play
from engine.caldera.starmap import Tile
from engine.caldera.state import EARTH, State
from engine.caldera.tiles import Kind, PlanetType
from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.events import Event
from tests.games.caldera.engine.game import (
    STATS,
    command,
    new_game,
    of_kind,
    past_setup,
    resolve,
)


def _turn(events: list[Event]) -> TurnResolved:
    """The turn's resolution as everyone sees it (the first event of a resolution)."""
    report = events[0]
    assert isinstance(report, TurnResolved)
    return report


def _frigate(state: State, nation: str) -> int:
    """An Earth frigate bought in the setup (the starting bonus), its id."""
    events = command(state, nation, kind="bonus", bonus="earth-frigate")
    return int(of_kind(events, "Spent")[0].detail["ship"])


def _on_top(state: State, number: int) -> None:
    """A main deck card of this top number put on top of the draw pile (the next drawn)."""
    card = next(c.id for c in state.cards.cards if c.number == number)
    state.decks.main.cards.append(card)


def _enemy_ship(state: State, at: str, parts: list[str]) -> int:
    npc = npcs.create_enemy(state, "9,-9")
    for gone in state.ships_of(npc.id):  # (its starting fleet stays out of the scenario)
        del state.ships[gone.id]
    tech = state.cards.techs["interceptor"]
    return state.add_ship(npc.id, "interceptor", parts, tech.structure, at).id


# --- the setup window --------------------------------------------------------------------------


def test_stats_deal_the_first_hands_and_everyone_s_stats_start_the_zone_counter() -> None:
    state = new_game()
    events = command(state, "ann", kind="stats", stats=STATS)
    hands = {e.hand: e.cards for e in of_kind(events, "HandDrawn")}
    assert len(hands["research"]) == STATS["int"] // 2
    assert len(hands["design"]) == STATS["eng"] // 2
    assert all(e.to == ["ann"] for e in of_kind(events, "HandDrawn"))  # private
    assert state.zone_counter == 0 and not state.zone_hand
    command(state, "bob", kind="stats", stats=STATS)
    events = command(state, "cal", kind="stats", stats=STATS)
    # 10 + the average Cha; cards for the zone mission: average Cha / 2
    assert state.zone_counter == 10 + 3
    assert len(of_kind(events, "ZoneHand")[0].cards) == 1


def test_a_bonus_bought_in_the_setup_window_only() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    ship = _frigate(state, "ann")
    assert state.captains["ann"].credits == 500 - 200
    assert state.ships[ship].klass == "frigate" and not state.ships[ship].refittable
    resolve(state)
    with pytest.raises(CommandError, match="first turn"):
        command(state, "ann", kind="bonus", bonus="earth-interceptor")


def test_the_setup_s_deadline_gives_the_defaults() -> None:
    state = new_game()
    resolve(state)  # nobody did anything
    for c in state.captains.values():
        # every stat its least (Cha, Int, Eng 2), the 9 points left one at a time in order
        assert c.stats is not None and c.stats.model_dump() == {
            "cha": 4,
            "int": 4,
            "eng": 4,
            "arm": 1,
            "com": 1,
            "eco": 1,
        }
        assert c.research is not None  # the first research card
    assert state.zone_mission is not None and state.phase == "orders" and state.turn == 1


def test_a_captain_resigning_in_the_setup_leaves_the_others_a_zone_mission() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    command(state, "bob", kind="stats", stats=STATS)
    KIND.apply(state, en.Resign(nation="cal"))
    assert [s.id for s in state.ships.values() if s.owner == "cal"] == []
    resolve(state)
    # 10 + the average Cha, less the turn just resolved
    assert state.zone_mission is not None and state.zone_counter == 10 + 3 - 1
    assert state.active() == ["ann", "bob"]


# --- the turn ------------------------------------------------------------------------------------


def test_income_from_the_shipyard_mining_earth() -> None:
    state = past_setup()
    before = state.captains["ann"].credits
    events = resolve(state)
    income = next(e for e in of_kind(events, "Income") if e.captain == "ann")
    # mining bots (40) at Earth, +10% a point of Eco (2)
    assert income.mined == {EARTH: 40} and income.credits == 48
    assert state.captains["ann"].credits == before + 48
    assert income.to == ["ann"]


def test_a_ship_entering_unexplored_space_scouts_it_by_the_event_table() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    ship = _frigate(state, "ann")
    resolve(state)
    command(state, "ann", kind="move", ships=[ship], to="0,-1")
    _on_top(state, 6)  # "Empty system, nothing to see here": a C tile
    events = resolve(state)
    scouted = _turn(events).scouted
    assert [(s["at"], s["result"], s["by"]) for s in scouted] == [("0,-1", "empty", "ann")]
    assert state.map.tiles["0,-1"].kind.value in ("empty", "half-nebula", "full-nebula")
    assert state.map.tiles["0,-1"].scouted_by == "ann"


def test_scouting_an_enemy_base_makes_an_enemy_there() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    ship = _frigate(state, "ann")
    resolve(state)
    command(state, "ann", kind="move", ships=[ship], to="0,-1")
    _on_top(state, 1)  # "Enemy base/homeworld": a B tile, a new enemy
    events = resolve(state)
    found = _turn(events).scouted[0]
    assert found["result"] == "enemy-base"
    enemy = state.npcs[str(found["npc"])]
    assert not enemy.friend and enemy.home == "0,-1"
    assert state.map.tiles["0,-1"].kind.value == "planet"
    assert _turn(events).npcs == [enemy.id]


def test_a_battle_through_the_turn_and_mission_1_done() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    frigate = _frigate(state, "ann")
    resolve(state)
    state.map.tiles["0,-1"] = Tile(kind=Kind.EMPTY, zone=1)
    enemy = _enemy_ship(state, "0,-1", ["nuclear-engine", "laser-cannon"])
    state.captains["ann"].mission = 1  # destroy an enemy ship outside the solar system
    command(state, "ann", kind="move", ships=[frigate], to="0,-1")
    events = resolve(state)
    report = of_kind(events, "BattleReport")[0]
    assert report.at == "0,-1" and report.to == ["ann"] and report.winner == "captains"
    assert enemy in report.destroyed and enemy not in state.ships
    assert state.ships[frigate].at == "0,-1"
    done = of_kind(events, "MissionDone")[0]
    assert done.captain == "ann" and done.mission == 1
    assert state.trust == 1 and state.captains["ann"].missions_done == 1
    assert not state.captains["ann"].mission
    assert _turn(events).battles == [{"at": "0,-1"}]
    assert KIND.view_for(state, "bob").battles == ["0,-1"]  # the map shows it to everyone


def test_an_enemy_homeworld_taken_by_a_land_battle_wins_mission_6_and_the_campaign() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    frigate = _frigate(state, "ann")
    resolve(state)
    home = "0,-1"
    state.map.tiles[home] = Tile(kind=Kind.PLANET, planet=PlanetType.ARID, zone=1)
    enemy = npcs.create_enemy(state, home)
    for gone in state.ships_of(enemy.id):  # its fleet is gone: only its army defends
        del state.ships[gone.id]
    enemy.land = {"space-cadet": 2}
    # three space marines (100 credits each) against two space cadets
    command(state, "ann", kind="recruit", units={"space-marine": 3})
    assert state.captains["ann"].land == {"space-marine": 3}
    state.captains["ann"].mission = 6  # conquer an enemy homeworld
    command(state, "ann", kind="move", ships=[frigate], to=home)
    events = resolve(state)
    fought = of_kind(events, "LandReport")[0]
    assert fought.won and fought.to == ["ann"] and fought.npc == enemy.id
    enemy = state.npcs[enemy.id]  # (a resolution gives the game a new state)
    assert enemy.conquered and enemy.land == {}
    # the two cadets strike back at once: two hits of 1 kill one marine (2 hp)
    assert state.captains["ann"].land == {"space-marine": 2}
    assert of_kind(events, "MissionDone")[0].mission == 6
    # the only enemy found so far has its homeworld taken: the captains win
    assert state.ended and state.result == "won"
    assert of_kind(events, "GameOver")[0].result == "won"


def test_an_army_larger_than_the_largest_ship_carries_is_refused() -> None:
    state = past_setup()
    state.add_ship("ann", "interceptor", ["nuclear-engine"], 10, EARTH)
    before = KIND.hash(state)
    # an interceptor: (30 space + 25% a point of Com: 2) / 5 = an army of 9 (humvees: 2 each)
    with pytest.raises(CommandError, match="more than the 9"):
        command(state, "ann", kind="recruit", units={"humvee": 5})
    assert KIND.hash(state) == before


def test_mission_5_scouting_farther_than_any_known_tile() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    ship = _frigate(state, "ann")
    resolve(state)
    state.captains["ann"].mission = 5
    state.captains["ann"].mission_mark = {"farthest": state.farthest}
    command(state, "ann", kind="move", ships=[ship], to="1,-1")
    _on_top(state, 6)
    events = resolve(state)
    done = of_kind(events, "MissionDone")[0]
    assert (done.captain, done.mission, done.trust) == ("ann", 5, 1)
    assert len(done.rewards) == STATS["cha"] // 2  # a reward card for every 2 points of Cha
    assert _turn(events).missions == [{"captain": "ann", "mission": 5}]


def test_mission_4_researching_a_new_tech_level() -> None:
    state = past_setup()
    ann = state.captains["ann"]
    ann.mission, ann.mission_mark = 4, {"level": 1}
    ann.research, ann.research_paid = "frigate", 0  # a level 2 class
    ann.credits = 10_000
    events = command(state, "ann", kind="fund", amount=10_000)
    assert of_kind(events, "ResearchDone")[0].tech == "frigate"
    assert of_kind(events, "MissionDone")[0].mission == 4 and state.trust == 1
    assert of_kind(events, "MissionDone")[0].to == ["ann", "bob", "cal"]  # trust is shared


def test_the_pacifists_broken_by_an_attack_are_not_done() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    frigate = _frigate(state, "ann")
    resolve(state)
    state.zone_mission, state.zone_mission_done = 5, False  # Pacifists
    state.zone_mark["broken"] = 0
    state.map.tiles["0,-1"] = Tile(kind=Kind.EMPTY, zone=1)
    _enemy_ship(state, "0,-1", ["nuclear-engine", "laser-cannon"])
    command(state, "ann", kind="move", ships=[frigate], to="0,-1")
    resolve(state)
    assert state.zone_mark["broken"] == 1
    state.zone_counter = 2
    resolve(state)  # the counter reaches 1: the mission was broken
    assert not state.zone_mission_done and state.zone_counter == 1


def test_the_pacifists_kept_until_the_counter_is_1_are_done() -> None:
    state = past_setup()
    state.zone_mission, state.zone_mission_done = 5, False
    state.zone_mark["broken"] = 0
    state.zone_counter = 2
    events = resolve(state)
    assert state.zone_mission_done and state.zone_counter == 1 + 5
    assert of_kind(events, "MissionDone")[0].captain is None


def test_the_zone_counter_reaching_zero_opens_a_new_zone() -> None:
    state = past_setup()
    start = state.zone_mark["start"]
    state.zone_counter, state.zone_mission_done = 1, True
    friends = len(state.friends())
    events = resolve(state)
    changed = of_kind(events, "ZoneChanged")[0]
    assert state.zone == 2 and changed.zone == 2
    assert state.zone_counter == start  # it starts again
    assert len(state.friends()) == friends + 1  # a new NPC friend
    # X x zone tiles revealed nearest Earth: 3 captains, zone 2
    assert len(changed.revealed) == 6
    assert all(state.map.tiles.get(p) is not None or p for p in changed.revealed)
    assert changed.mission is not None and not state.zone_mission_done


def test_a_zone_mission_done_adds_to_the_counter() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    ship = _frigate(state, "ann")
    resolve(state)
    state.zone_mission, state.zone_mission_done = 1, False  # Explorers: zone x 4 from Earth
    state.ships[ship].at = "0,-4"
    counter = state.zone_counter
    events = resolve(state)
    assert of_kind(events, "MissionDone")[0].captain is None
    assert state.zone_mission_done
    assert state.zone_counter == counter + 5 - 1


def test_more_than_a_fleet_at_one_place_sends_the_newest_back() -> None:
    state = past_setup()
    tech = state.cards.techs["interceptor"]
    state.map.tiles["0,-1"] = Tile(kind=Kind.EMPTY, zone=1)
    there = [
        state.add_ship("ann", "interceptor", ["nuclear-engine"], tech.structure, "0,-1").id
        for _ in range(5)
    ]
    newcomer = state.add_ship("ann", "interceptor", ["nuclear-engine"], tech.structure, EARTH).id
    command(state, "ann", kind="move", ships=[newcomer], to="0,-1")
    events = resolve(state)
    assert state.ships[newcomer].at == EARTH
    assert _turn(events).returned == [
        {"ship": newcomer, "owner": "ann", "src": "0,-1", "dst": EARTH}
    ]
    assert all(state.ships[i].at == "0,-1" for i in there)


def test_a_friend_s_ship_under_a_captain_s_control_follows_their_orders() -> None:
    state = past_setup()
    js = state.npcs["js"]
    ship = npcs.launch(state, js, state.cards, "interceptor", EARTH)
    js.control[str(ship.id)] = "ann"  # the trust's share under ann's control
    with pytest.raises(CommandError, match=f"no ship {ship.id}"):
        command(state, "bob", kind="move", ships=[ship.id], to="0,-1")
    command(state, "ann", kind="move", ships=[ship.id], to="0,-1")
    assert state.ships[ship.id].move == "0,-1"


def test_an_npc_s_kills_are_counted_for_it() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    resolve(state)
    state.map.tiles["0,-1"] = Tile(kind=Kind.EMPTY, zone=1)
    tech = state.cards.techs["interceptor"]
    weak = state.add_ship("ann", "interceptor", ["nuclear-engine"], tech.structure, "0,-1").id
    enemy_ship = _enemy_ship(state, "0,-1", ["nuclear-engine"] + ["laser-cannon"] * 2)
    killer = state.ships[enemy_ship].owner
    events = resolve(state)
    assert weak in of_kind(events, "BattleReport")[0].destroyed
    assert state.npcs[killer].destroyed == 1


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nation", "data", "says"),
    [
        ("ann", {"kind": "stats", "stats": STATS}, "first turn"),
        ("ann", {"kind": "build", "klass": "dreadnought", "parts": []}, "no ship class"),
        ("ann", {"kind": "build", "klass": "interceptor", "parts": ["mining-bots"] * 9}, "space"),
        ("ann", {"kind": "choose", "hand": "research", "card": "warp-drive-1"}, "research"),
        ("ann", {"kind": "move", "ships": [999], "to": "0,-1"}, "no ship 999"),
        ("ann", {"kind": "move", "ships": [1], "to": "0,-1"}, "no ship 1"),
        ("ann", {"kind": "upgrade", "klass": "frigate"}, "no ship class"),
        ("ann", {"kind": "repair"}, "no damage"),
        ("nobody", {"kind": "submit"}, "do not play"),
        ("ann", {"kind": "deadline", "now": True}, "moderator"),
    ],
)
def test_a_refused_command_changes_nothing(nation: str, data: dict, says: str) -> None:
    state = past_setup()
    state.add_ship("bob", "interceptor", ["nuclear-engine"], 10, EARTH)  # ship 1: bob's
    before = KIND.hash(state)
    with pytest.raises(CommandError, match=says):
        command(state, nation, **data)
    assert KIND.hash(state) == before


def test_a_move_beyond_the_engine_s_range_is_refused() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    ship = _frigate(state, "ann")
    resolve(state)
    before = KIND.hash(state)
    with pytest.raises(CommandError, match="beyond"):
        command(state, "ann", kind="move", ships=[ship], to="0,-5")
    assert KIND.hash(state) == before


def test_spending_more_than_the_credits_is_refused() -> None:
    state = past_setup()
    state.captains["ann"].credits = 20
    before = KIND.hash(state)
    with pytest.raises(CommandError, match="costs .* you have 20"):
        command(state, "ann", kind="fund", amount=50)
    assert KIND.hash(state) == before


def test_one_ship_a_turn() -> None:
    state = past_setup()
    parts = ["nuclear-engine", "mining-bots"]
    command(state, "ann", kind="build", klass="interceptor", parts=parts)
    with pytest.raises(CommandError, match="one a turn"):
        command(state, "ann", kind="build", klass="interceptor", parts=parts)


# --- the stored form and replays ---------------------------------------------------------------


def test_dump_and_load_give_the_same_game() -> None:
    state = past_setup()
    resolve(state)
    text = KIND.dump(state)
    again = KIND.load(text)
    assert KIND.dump(again) == text and KIND.hash(again) == KIND.hash(state)
    resolve(state)
    resolve(again)
    assert KIND.hash(again) == KIND.hash(state)


def test_the_same_seed_plays_the_same_game() -> None:
    first = play(captains=2, seed=11, max_turns=4)
    again = play(captains=2, seed=11, max_turns=4)
    other = play(captains=2, seed=12, max_turns=4)
    assert first.hash == again.hash and first.turns == 4
    assert other.hash != first.hash
    assert first.refused == {"c1": 0, "c2": 0}  # the AI gives valid commands


def _two_captains_and_an_ai(seed: int) -> str:
    """Four turns: ann and bob play by hand (a frigate, a miner, scouting), cal is the AI
    deciding from its own view; the game's hash at the end."""
    state = new_game(seed)
    memory = ai.Memory()

    def ai_turn() -> None:
        for _look in range(2):
            for order in ai.decide(KIND.view_for(state, "cal"), memory):
                KIND.apply(
                    state, en.CommandEntry(nation="cal", command=order.model_dump(mode="json"))
                )

    for nation in ("ann", "bob"):
        command(state, nation, kind="stats", stats=STATS)
    frigate = _frigate(state, "ann")
    command(
        state, "bob", kind="build", klass="interceptor", parts=["nuclear-engine", "mining-bots"]
    )
    ai_turn()
    resolve(state)
    for place in ("0,-1", "1,-1", "1,-2"):
        if state.ended:
            break
        reach = window.reach(state, state.ships[frigate]) if frigate in state.ships else {}
        if place in reach:
            command(state, "ann", kind="move", ships=[frigate], to=place)
        ai_turn()
        resolve(state)
    assert state.turn == 4 or state.ended
    return KIND.hash(state)


def test_two_captains_and_an_ai_seat_play_the_same_game_from_the_same_seed() -> None:
    assert _two_captains_and_an_ai(21) == _two_captains_and_an_ai(21)
    assert _two_captains_and_an_ai(22) != _two_captains_and_an_ai(21)


def test_two_captains_and_an_ai_seat_replay_from_the_log() -> None:
    """The same entries on the same first state give the same state (how a game is
    recovered)."""
    log: list[en.Entry] = [
        *(
            en.Join(nation=n, name=n, colour="#123456", player=u)
            for n, u in (("ann", "1"), ("bob", "2"), ("cal", en.AI_PLAYER))
        ),
        en.Start(),
        *(
            en.CommandEntry(nation=n, command={"kind": "stats", "stats": STATS})
            for n in ("ann", "bob", "cal")
        ),
        en.CommandEntry(nation="ann", command={"kind": "submit"}),
        en.Advance(ticks=96),
        en.Advance(ticks=96),
    ]
    hashes = []
    for _ in range(2):
        state = KIND.setup({"max_nations": 3, "seed": 5})
        for entry in log:
            KIND.apply(state, entry)
        hashes.append(KIND.hash(state))
        assert state.turn == 2
    assert hashes[0] == hashes[1]


def test_joining_a_full_game_is_refused() -> None:
    state = KIND.setup({"max_nations": 1, "seed": 1})
    KIND.apply(state, en.Join(nation="a", name="A", colour="#123456", player="1"))
    with pytest.raises(GameError, match="full"):
        KIND.apply(state, en.Join(nation="b", name="B", colour="#123456", player="2"))
