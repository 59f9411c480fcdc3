"""The AI captains' decisions a player would notice, on small hand-built games: each scenario
gives the AI seat ("cal") its own view and reads the commands it gives."""

from __future__ import annotations

from typing import Any

from engine.caldera import ai, land
from engine.caldera.commands import (
    Build,
    BuyBonus,
    Choose,
    Fund,
    Move,
    Recruit,
    Repair,
    Upgrade,
)
from engine.caldera.starmap import Tile
from engine.caldera.state import EARTH, Hand, Npc, State
from engine.caldera.tiles import Kind, PlanetType, Size
from engine.caldera.view import view_for
from tests.games.caldera.engine.game import CAPTAINS, STATS, command, new_game, past_setup

AI_SEAT = CAPTAINS[2][0]  # "cal", the game's AI seat


def decide(state: State) -> list[Any]:
    return ai.decide(view_for(state, AI_SEAT), ai.Memory())


def pirates(state: State, parts: list[str], techs: dict[str, int], at: str = "0,-2") -> Npc:
    """An enemy with one interceptor design and a ship of it at `at`."""
    npc = Npc(
        id="pirates",
        name="Pirates",
        friend=False,
        row=1,
        zone=1,
        ai="conquerors",
        home="3,-3",
        techs={"interceptor": 0, "nuclear-engine": 0, **techs},
        designs={"interceptor": ["nuclear-engine", *parts]},
    )
    state.npcs[npc.id] = npc
    state.add_ship(npc.id, "interceptor", ["nuclear-engine", *parts], 10, at)
    return npc


def quiet(state: State) -> State:
    """No event card forbidding anything, the AI captain's hands empty."""
    state.event = None
    state.captains[AI_SEAT].hand = []
    return state


def test_an_ai_captain_without_weapons_buys_one_and_a_defence_for_its_shipyard_in_the_setup() -> (
    None
):
    state = new_game()
    command(state, AI_SEAT, kind="stats", stats=STATS)
    techs = state.captains[AI_SEAT].techs
    assert not any(state.cards.techs[t].category in ("weapon", "defence") for t in techs)
    bought = [c for c in decide(state) if isinstance(c, BuyBonus) and c.tech]
    kinds = {state.cards.techs[c.tech or ""].category for c in bought}
    assert kinds == {"weapon", "defence"}
    assert all(state.cards.techs[c.tech or ""].level == 1 for c in bought)
    # and it fits them in its shipyard in the same window
    upgrades = [c for c in decide(state) if isinstance(c, Upgrade)]
    assert upgrades and {state.cards.techs[p].category for p in upgrades[0].parts} == {
        "weapon",
        "defence",
    }


def test_an_ai_captain_arms_its_shipyard_with_the_weapon_that_gets_through_the_enemies_defences() -> (
    None
):
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.techs.update({"tnt-mine": 0, "nuclear-missile": 0})
    c.credits = 400
    # no enemy known: the mine deals the most for its space
    first = [x for x in decide(state) if isinstance(x, Upgrade)]
    assert first and "tnt-mine" in first[0].parts and "nuclear-missile" not in first[0].parts
    # an enemy whose plating takes 6 of every hit: only the missile gets through
    pirates(state, ["plating", "plating"], {"plating": 3})
    second = [x for x in decide(state) if isinstance(x, Upgrade)]
    assert second and "nuclear-missile" in second[0].parts and "tnt-mine" not in second[0].parts


def test_an_ai_captain_repairs_its_damaged_shipyard_first() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.shipyard.damage = 12
    c.credits = 100
    commands = decide(state)
    spending = [x for x in commands if isinstance(x, (Repair, Upgrade))]
    assert spending and isinstance(spending[0], Repair) and spending[0].ship is None
    assert spending[0].points == 10  # all the credits pay for, at 10 a point


def test_an_ai_captain_takes_the_mission_its_research_brings_over_a_fight() -> None:
    state = quiet(past_setup())
    fight = next(card.id for card in state.cards.cards if card.number == 1)
    level = next(card.id for card in state.cards.cards if card.number == 4)
    state.captains[AI_SEAT].hand = [Hand(kind="mission", cards=[fight, level])]
    chosen = [x for x in decide(state) if isinstance(x, Choose) and x.hand == "mission"]
    assert chosen and chosen[0].card == level


def _warships_at_earth(state: State) -> list[int]:
    """Two warships of the AI captain's at Earth, its only ships."""
    state.ships = {k: s for k, s in state.ships.items() if s.owner != AI_SEAT}
    parts = ["nuclear-engine", "laser-cannon"]
    return [state.add_ship(AI_SEAT, "interceptor", parts, 10, EARTH).id for _ in range(2)]


def test_with_enemies_near_and_an_unarmed_shipyard_its_warships_stay_home() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 0  # nothing to arm the shipyard with this window
    _warships_at_earth(state)
    pirates(state, ["laser-cannon"], {"laser-cannon": 0}, at="0,-2")
    # none scouts (that would find more enemies) and none goes for the pirates' homeworld:
    # it is not on the map
    assert not [x for x in decide(state) if isinstance(x, Move)]


def test_with_the_enemies_homeworld_conquered_its_warships_fly_on_past_their_ships() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 0
    c.techs["tnt-mine"] = 0
    c.shipyard.parts = ["tnt-mine"] * 5
    ids = _warships_at_earth(state)
    npc = pirates(state, ["laser-cannon"], {"laser-cannon": 0}, at="0,-2")
    npc.conquered = True  # every enemy found conquered: scouting finds the next
    moved = {s for x in decide(state) if isinstance(x, Move) for s in x.ships}
    assert moved == set(ids)


def test_a_captain_with_a_loyalty_mission_leaves_the_scouting_to_the_others() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 0
    ids = _warships_at_earth(state)
    scouting = {x.to for x in decide(state) if isinstance(x, Move)} - set(state.map.tiles)
    assert len(scouting) == 2  # no mission: both warships scout unexplored places
    c.mission = 1  # destroy an enemy ship: a mission found now would be lost
    assert not [x for x in decide(state) if isinstance(x, Move) and set(x.ships) & set(ids)]


def test_with_the_mission_of_a_new_tech_level_its_credits_go_into_that_research() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.research, c.research_paid, c.credits = "frigate", 0, 200
    c.mission = 4  # research a new tech level: the frigate (level 2) brings it
    commands = decide(state)
    assert [x.amount for x in commands if isinstance(x, Fund)] == [200]
    assert not [x for x in commands if isinstance(x, Build)]


# --- taking an enemy homeworld --------------------------------------------------------------

HOME = "0,-1"  # next to Earth: an interceptor's nuclear engine reaches it in one turn


def _homeworld(state: State, ships: int, army: dict[str, int], planet: str = "arid") -> Npc:
    """Pirates with their homeworld (a planet placed next to Earth) holding `ships` bare
    interceptors with a laser cannon and `army`; the AI captain's other ships gone."""
    state.ships = {k: s for k, s in state.ships.items() if s.owner != AI_SEAT}
    state.map.tiles[HOME] = Tile(
        kind=Kind.PLANET, planet=PlanetType(planet), zone=1, base="pirates"
    )
    npc = Npc(
        id="pirates",
        name="Pirates",
        friend=False,
        row=1,
        zone=1,
        ai="surveyors",
        home=HOME,
        techs={"interceptor": 0, "nuclear-engine": 0, "laser-cannon": 0},
        designs={"interceptor": ["nuclear-engine", "laser-cannon"]},
        land=dict(army),
    )
    state.npcs[npc.id] = npc
    for _ in range(ships):
        state.add_ship(npc.id, "interceptor", ["nuclear-engine", "laser-cannon"], 10, HOME)
    return npc


def _fleet(state: State, count: int) -> list[int]:
    """`count` of the AI captain's warships at Earth: interceptors with a TNT mine and two
    platings (the pirates' laser cannon gets nothing through them)."""
    c = state.captains[AI_SEAT]
    c.techs.update({"tnt-mine": 0, "plating": 0})
    parts = ["nuclear-engine", "tnt-mine", "plating", "plating"]
    return [state.add_ship(AI_SEAT, "interceptor", parts, 10, EARTH).id for _ in range(count)]


def test_a_fleet_that_beats_the_ships_at_an_enemy_homeworld_goes_to_take_it() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 0
    _homeworld(state, ships=2, army={"space-cadet": 4})
    ids = _fleet(state, 4)
    moves = [x for x in decide(state) if isinstance(x, Move)]
    assert {s for x in moves for s in x.ships} == set(ids)
    assert {x.to for x in moves} == {HOME}


def _missile_interceptors(state: State, npc: Npc, count: int) -> None:
    """The enemy's interceptors armed with a nuclear missile (through plating), `count` more
    of them at its homeworld."""
    npc.techs["nuclear-missile"] = 5
    npc.designs["interceptor"] = ["nuclear-engine", "nuclear-missile"]
    for _ in range(count):
        state.add_ship(npc.id, "interceptor", ["nuclear-engine", "nuclear-missile"], 10, HOME)


def test_a_fleet_the_ships_at_an_enemy_homeworld_would_beat_stays_at_earth() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 0
    npc = _homeworld(state, ships=2, army={"space-cadet": 4})
    # the pirates' cannon now a fusion missile that gets through plating, and many of them
    _missile_interceptors(state, npc, 10)
    _fleet(state, 2)
    assert not [x for x in decide(state) if isinstance(x, Move)]


def test_while_an_enemy_homeworld_stands_its_warships_scout_no_more() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 0
    ids = _warships_at_earth(state)
    scouting = {x.to for x in decide(state) if isinstance(x, Move)} - set(state.map.tiles)
    assert len(scouting) == 2  # no enemy known: both warships scout unexplored places
    # pirates found far from Earth (no threat to it), more ships at home than they can beat
    npc = pirates(state, ["nuclear-missile"], {"nuclear-missile": 5}, at="3,-3")
    npc.home = "3,-3"
    assert not [x for x in decide(state) if isinstance(x, Move) and set(x.ships) & set(ids)]


def test_its_army_for_a_homeworld_wins_the_land_battle_there() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 400
    enemy = {"space-cadet": 6}
    _homeworld(state, ships=0, army=enemy, planet="cold")
    _fleet(state, 2)
    recruits = [x for x in decide(state) if isinstance(x, Recruit)]
    assert recruits
    army = recruits[0].units
    rules = state.rules
    c = state.captains[AI_SEAT]
    assert sum(rules.land_units[u].cost * n for u, n in army.items()) <= c.credits
    report = land.fight(
        land.LandSide(id="cal", army=army),
        land.LandSide(id="pirates", army=enemy, defence_percent=50),
        rules.land_units,
        land.land_rules(state.ruleset),
    )
    assert report.winner == "cal"


def test_its_warships_at_an_enemy_homeworld_emptied_of_ships_stay_there() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 100
    _homeworld(state, ships=0, army={"space-cadet": 30})
    ids = _fleet(state, 2)
    for ship in ids:
        state.ships[ship].at = HOME
    commands = decide(state)
    assert not [x for x in commands if isinstance(x, Move)]  # they hold it
    assert [x for x in commands if isinstance(x, Recruit)]  # and an army lands next


def test_it_chooses_the_zone_mission_its_war_keeps_over_the_one_an_attack_breaks() -> None:
    state = quiet(past_setup())
    pacifists = next(card.id for card in state.cards.cards if card.number == 5)
    scaredy = next(card.id for card in state.cards.cards if card.number == 4)
    state.zone_hand = [pacifists, scaredy]
    chosen = [x for x in decide(state) if isinstance(x, Choose) and x.hand == "zone"]
    assert [x.card for x in chosen] == [scaredy]


def test_while_an_enemy_stands_it_takes_the_mission_of_conquering_a_homeworld_first() -> None:
    state = quiet(past_setup())
    conquer = next(card.id for card in state.cards.cards if card.number == 6)
    level = next(card.id for card in state.cards.cards if card.number == 4)
    state.captains[AI_SEAT].hand = [Hand(kind="mission", cards=[level, conquer])]
    _homeworld(state, ships=3, army={"space-cadet": 10})
    chosen = [x for x in decide(state) if isinstance(x, Choose) and x.hand == "mission"]
    assert chosen and chosen[0].card == conquer


# --- mining, the setup's bonuses, research and scouting at war -------------------------------

MINER = ["nuclear-engine", "mining-bots"]


def _miners(state: State, at: list[str]) -> list[int]:
    """The AI captain's miners (one set of mining bots each) at the places `at`, in order."""
    return [state.add_ship(AI_SEAT, "interceptor", MINER, 10, p).id for p in at]


def _systems(state: State) -> tuple[str, str]:
    """Two asteroid systems next to Earth: a small one (30 minerals a turn for 3 captains,
    less than one set of mining bots takes) and a huge one (120)."""
    small, huge = "0,-1", "1,-1"
    state.map.tiles[small] = Tile(kind=Kind.ASTEROIDS, asteroids=[Size.SMALL], zone=1)
    state.map.tiles[huge] = Tile(kind=Kind.ASTEROIDS, asteroids=[Size.HUGE], zone=1)
    return small, huge


def test_a_miner_goes_where_minerals_are_left_not_to_a_system_mined_out() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 0
    state.ships = {k: s for k, s in state.ships.items() if s.owner != AI_SEAT}
    small, huge = _systems(state)
    # the small system mined out by one miner; Earth's minerals (240, the shipyards take 120)
    # by three: the fourth miner at Earth mines nothing there
    _miners(state, [small])
    *home, newest = _miners(state, [EARTH] * 4)
    moves = [x for x in decide(state) if isinstance(x, Move)]
    assert [(x.ships, x.to) for x in moves] == [([newest], huge)]
    assert not set(home) & {s for x in moves for s in x.ships}  # they mine where they are


def test_with_every_known_system_mined_out_it_builds_a_warship_not_a_miner() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 400
    c.techs["tnt-mine"] = 0
    c.shipyard.parts = ["tnt-mine"] * 5  # an armed shipyard: no part to fit in it first
    state.ships = {k: s for k, s in state.ships.items() if s.owner != AI_SEAT}
    small = "0,-1"
    state.map.tiles[small] = Tile(kind=Kind.ASTEROIDS, asteroids=[Size.SMALL], zone=1)
    _miners(state, [small, EARTH, EARTH, EARTH])  # fewer than half of its 9 ships
    for _ in range(5):
        state.add_ship(AI_SEAT, "interceptor", ["nuclear-engine", "tnt-mine"], 10, EARTH)
    builds = [x for x in decide(state) if isinstance(x, Build)]
    assert builds and "mining-bots" not in builds[0].parts
    # a system with minerals left: the miner it would have built
    state.map.tiles["1,-1"] = Tile(kind=Kind.ASTEROIDS, asteroids=[Size.HUGE], zone=1)
    builds = [x for x in decide(state) if isinstance(x, Build)]
    assert builds and "mining-bots" in builds[0].parts


def test_in_the_setup_it_buys_no_bonus_tech_that_would_leave_its_research_cards_all_known() -> None:
    state = new_game()
    command(state, AI_SEAT, kind="stats", stats=STATS)
    c = state.captains[AI_SEAT]
    # the research cards: the very weapon and defence it buys as bonuses otherwise
    bought = {x.tech for x in decide(state) if isinstance(x, BuyBonus) and x.tech}
    assert len(bought) == 2
    cards = [next(k.id for k in state.cards.cards if k.tech == t) for t in sorted(bought)]
    c.hand = [h for h in c.hand if h.kind != "research"] + [Hand(kind="research", cards=cards)]
    commands = decide(state)
    techs = {x.tech for x in commands if isinstance(x, BuyBonus) and x.tech}
    research = [x.card for x in commands if isinstance(x, Choose) and x.hand == "research"]
    assert len(techs) == 1 and len(research) == 1  # one bought, the other researched
    assert state.cards.card(research[0] or "").tech not in techs


def test_at_war_it_researches_a_larger_ship_class_before_a_cheaper_tech() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.techs["laser-cannon"] = 0  # armed: no weapon first
    c.research = None
    weapon = next(k.id for k in state.cards.cards if k.tech == "tnt-mine")
    frigate = next(k.id for k in state.cards.cards if k.tech == "frigate")
    c.hand = [Hand(kind="research", cards=[weapon, frigate])]

    def research() -> list[str | None]:
        return [x.card for x in decide(state) if isinstance(x, Choose) and x.hand == "research"]

    assert research() == [weapon]  # no enemy found: the cheapest (100 against 400)
    _homeworld(state, ships=3, army={"space-cadet": 10})
    assert research() == [frigate]  # a larger army aboard, a stronger fleet


def test_a_war_stalled_for_windows_sends_its_first_warship_scouting_again() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 0
    npc = _homeworld(state, ships=0, army={"space-cadet": 10})
    # the pirates' ships at home more than its fleet can beat
    _missile_interceptors(state, npc, 12)
    first, *others = _fleet(state, 3)
    view = view_for(state, AI_SEAT)
    assert not [x for x in ai.decide(view, ai.Memory()) if isinstance(x, Move)]
    memory = ai.Memory(idle=ai.STALL)  # windows in a row without a homeworld to take
    moves = [x for x in ai.decide(view, memory) if isinstance(x, Move)]
    assert [x.ships for x in moves] == [[first]]
    assert moves[0].to not in state.map.tiles  # an unexplored place: it scouts


def test_a_fleet_goes_through_unexplored_space_to_a_homeworld_no_placed_tile_leads_to() -> None:
    state = quiet(past_setup())
    state.captains[AI_SEAT].credits = 0
    npc = _homeworld(state, ships=0, army={"space-cadet": 10})
    far = "0,-2"  # two layers out: the way from Earth is unexplored
    state.map.tiles[far] = state.map.tiles.pop(HOME)
    npc.home = far
    ids = _fleet(state, 2)
    moves = [x for x in decide(state) if isinstance(x, Move)]
    assert {s for x in moves for s in x.ships} == set(ids)
    assert {x.to for x in moves} == {"0,-1"}  # unexplored, next to the homeworld


def test_at_war_it_rebuilds_its_shipyard_for_a_larger_class_as_soon_as_it_can_pay() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.techs.update({"frigate": 0, "tnt-mine": 0})
    c.credits = 400  # a frigate shipyard costs 255 (300, Eng's 15% off): not twice that

    def rebuilt() -> list[str | None]:
        return [x.klass for x in decide(state) if isinstance(x, Upgrade) and x.klass]

    assert rebuilt() == []  # no enemy found: when half the credits pay for it
    _homeworld(state, ships=3, army={"space-cadet": 10})
    assert rebuilt() == ["frigate"]
