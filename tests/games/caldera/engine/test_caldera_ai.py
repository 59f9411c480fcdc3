"""The AI captains' decisions a player would notice, on small hand-built games: each scenario
gives the AI seat ("cal") its own view and reads the commands it gives."""

from __future__ import annotations

from typing import Any

from engine.caldera import ai
from engine.caldera.commands import Build, BuyBonus, Choose, Fund, Move, Repair, Upgrade
from engine.caldera.state import EARTH, Hand, Npc, State
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


def test_with_enemies_near_and_an_unarmed_shipyard_its_warships_but_a_scout_stay_home() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 0  # nothing to arm the shipyard with this window
    ids = _warships_at_earth(state)
    pirates(state, ["laser-cannon"], {"laser-cannon": 0}, at="0,-2")
    moved = {s for x in decide(state) if isinstance(x, Move) for s in x.ships}
    assert moved == {ids[0]}  # the first scouts on, the second guards the shipyard


def test_with_enemies_near_and_an_armed_shipyard_its_warships_fly_on() -> None:
    state = quiet(past_setup())
    c = state.captains[AI_SEAT]
    c.credits = 0
    c.techs["tnt-mine"] = 0
    c.shipyard.parts = ["tnt-mine"] * 5
    ids = _warships_at_earth(state)
    pirates(state, ["laser-cannon"], {"laser-cannon": 0}, at="0,-2")
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
