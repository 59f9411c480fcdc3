"""Caldera's land armies and land battles as scenarios with pinned numbers (seed 003, "Land
army", "Land battle"): how a stack's damage and targets kill, the strikes' order and
simultaneity, the A.I.'s choices, the cold planet's defence, the limits and an NPC's army."""

from __future__ import annotations

from engine.caldera.land import (
    LandReport,
    LandSide,
    Strike,
    army_problems,
    army_size,
    fight,
    kills,
    land_rules,
    npc_army,
)
from tests.games.caldera.engine.land_units import UNITS

RULES = land_rules()


def battle(attacker: dict[str, int], defender: dict[str, int], cold: bool = False) -> LandReport:
    return fight(
        LandSide(id="ann", army=attacker),
        LandSide(id="pirates-1", army=defender, defence_percent=50 if cold else 0),
        UNITS,
        RULES,
    )


def test_the_rules_file_has_the_land_section():
    assert RULES.max_cycles == 40


def test_each_attacker_hits_its_targets_number_of_units_for_its_damage():
    cadet, humvee, marine, tank, mech = (
        UNITS[u] for u in ("space-cadet", "humvee", "space-marine", "tank", "mech")
    )
    assert kills(humvee, 5, cadet, 10, 0) == 10  # 5 humvees x 3 targets: 15 cadets' worth
    assert kills(humvee, 5, cadet, 20, 0) == 15
    assert kills(humvee, 5, tank, 2, 0) == 2  # 4 hits a tank, 15 hits
    assert kills(humvee, 3, tank, 2, 0) == 0  # a tank needs 4 hits: 3 humvees hit it 3 times
    assert kills(marine, 4, tank, 5, 0) == 2  # 2 hits of 2 a tank
    assert kills(mech, 1, cadet, 9, 0) == 5
    assert kills(cadet, 19, mech, 1, 0) == 0  # damage never carries over: no injuries
    assert kills(cadet, 40, mech, 3, 0) == 2


def test_a_cold_planets_defenders_take_half_again_as_many_hits():
    cadet, humvee = UNITS["space-cadet"], UNITS["humvee"]
    assert kills(humvee, 5, cadet, 10, 50) == 7  # 1.5 hp: two hits a cadet, 15 hits
    report = battle({"humvee": 5}, {"space-cadet": 10}, cold=True)
    assert report.steps[0].strikes[0].killed == 7


def test_sides_strike_at_once_one_unused_stack_each_until_all_are_used():
    """Ann's 5 marines and 3 humvees land against 10 cadets and a tank. Step 1: the marines kill
    the tank while the cadets kill all 5 marines (both strikes land). Step 2: the pirates' only
    other stack, the tank, is dead, so only Ann's humvees strike: 9 cadets. Cycle 2: the
    humvees kill the last cadet, whose strike on a humvee (2 hp) does nothing."""
    report = battle({"space-marine": 5, "humvee": 3}, {"space-cadet": 10, "tank": 1})
    assert [(s.cycle, s.number, s.strikes) for s in report.steps] == [
        (
            1,
            1,
            (
                Strike(side="ann", unit="space-marine", count=5, target="tank", killed=1),
                Strike(
                    side="pirates-1", unit="space-cadet", count=10, target="space-marine", killed=5
                ),
            ),
        ),
        (1, 2, (Strike(side="ann", unit="humvee", count=3, target="space-cadet", killed=9),)),
        (
            2,
            1,
            (
                Strike(side="ann", unit="humvee", count=3, target="space-cadet", killed=1),
                Strike(side="pirates-1", unit="space-cadet", count=1, target="humvee", killed=0),
            ),
        ),
    ]
    assert report.armies == {"ann": {"humvee": 3}, "pirates-1": {}}
    assert (report.end, report.winner) == ("won", "ann")


def test_the_ai_strikes_where_it_kills_the_most_value():
    """A mech can kill 5 cadets (50 credits) or 2 bomber drones (6000): the drones."""
    report = battle({"space-cadet": 5, "bomber-drone": 2}, {"mech": 1})
    first = {s.side: s for s in report.steps[0].strikes}
    assert (first["pirates-1"].target, first["pirates-1"].killed) == ("bomber-drone", 2)


def test_both_sides_wiped_out_at_once():
    report = battle({"space-cadet": 3}, {"space-cadet": 3})
    assert len(report.steps) == 1
    assert report.armies == {"ann": {}, "pirates-1": {}}
    assert (report.end, report.winner) == ("none-left", None)


def test_a_cycle_in_which_nobody_can_die_ends_the_battle_and_the_defender_holds():
    report = battle({"mech": 1}, {"mech": 1})  # a mech needs 5 hits of 4: one mech hits once
    assert len(report.steps) == 1
    assert (report.end, report.winner) == ("stalemate", None)
    assert report.armies == {"ann": {"mech": 1}, "pirates-1": {"mech": 1}}


def test_an_army_over_its_limits_is_refused_with_each_reason():
    army = {"space-cadet": 6, "tank": 2}
    assert army_size(army, UNITS) == 12
    assert army_problems(army, UNITS, size_limit=12, unit_limit=6) == []
    assert army_problems(army, UNITS, size_limit=11, unit_limit=5) == [
        "Space cadet: 6 is more than the 5 allowed",
        "the army's size is 12, more than the 11 it can have",
    ]
    # the A.I.'s space cadets have no limit
    assert army_problems({"space-cadet": 60}, UNITS, 60, 5, unlimited={"space-cadet"}) == []
    assert army_problems({"ewok": 1}, UNITS, 10, 5) == ["there is no land unit 'ewok'"]


def test_an_npc_gets_the_best_units_it_can_until_their_limit_then_cadets():
    # Roger's Pirates (land army 6 a player) with two players, land tech 1: cadets only
    assert npc_army(12, 1, UNITS, 5, unlimited={"space-cadet"}) == {"space-cadet": 12}
    # land tech 3: marines (best, up to 5), then humvees (size 2: 3 of them), then a cadet
    assert npc_army(12, 3, UNITS, 5, unlimited={"space-cadet"}) == {
        "space-marine": 5,
        "humvee": 3,
        "space-cadet": 1,
    }
    # an earthlike home doubles the army: twice the size points
    assert army_size(npc_army(24, 3, UNITS, 5, unlimited={"space-cadet"}), UNITS) == 24
