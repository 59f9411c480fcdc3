"""A captain's character: 15 points with Cha, Int and Eng at least 2, what each stat does, and
the starting bonuses bought with the 500 starting credits."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from engine.caldera import captain as cap
from engine.caldera.captain import CaptainError, Stats
from engine.caldera.rules import load, load_deck

RULES = load("standard")
DECK = load_deck("starter", "standard")


class Game(BaseModel):
    seed: int = 3
    draws: int = 0


def stats(**given: int) -> Stats:
    base = {"cha": 3, "int": 3, "eng": 3, "arm": 2, "com": 2, "eco": 2}
    return Stats(**{**base, **given})


# ---- the character ----------------------------------------------------------------------------


def test_fifteen_points_with_cha_int_eng_at_least_two_make_a_captain() -> None:
    me = cap.new_character(stats(), RULES)
    assert me.credits == 500
    assert me.techs == {"interceptor": 0, "nuclear-engine": 0, "mining-bots": 0}
    cap.check_stats(stats(cha=2, int=2, eng=2, arm=9, com=0, eco=0), RULES)


def test_a_low_charisma_is_refused_by_name() -> None:
    with pytest.raises(CaptainError, match="Your stats need Charisma at least 2"):
        cap.new_character(stats(cha=1, arm=3), RULES)


def test_not_fifteen_points_are_refused() -> None:
    with pytest.raises(CaptainError, match=r"exactly 15 points .*add up to 16"):
        cap.check_stats(stats(eco=3), RULES)
    with pytest.raises(CaptainError, match="add up to 14"):
        cap.check_stats(stats(eco=1), RULES)


# ---- what each stat does ----------------------------------------------------------------------


def test_choices_are_one_for_each_two_points() -> None:
    s = stats(cha=5, int=2, eng=4, arm=2, com=1, eco=1)
    assert cap.mission_choices(s, RULES) == 2
    assert cap.reward_cards(s, RULES) == 2
    assert cap.research_choices(s, RULES) == 1
    assert cap.design_choices(s, RULES) == 2


def test_int_cuts_research_and_eng_building_five_percent_a_point() -> None:
    s = stats(int=4, eng=6, arm=0, com=1, eco=1)
    assert cap.research_cost(400, s, RULES) == 320
    assert cap.build_cost(200, s, RULES) == 140
    assert cap.research_cost(100, stats(int=20), RULES) == 25  # at most 75% off


def test_a_design_step_costs_a_fifth_of_the_research_cost() -> None:
    assert cap.design_cost(DECK.techs["frigate"].research_cost, RULES) == 80


def test_arm_adds_a_point_or_ten_percent_of_damage_and_a_quarter_of_defence() -> None:
    assert cap.damage(2, stats(arm=3, eco=1, com=1), RULES) == 5  # +1 a point
    assert cap.damage(25, stats(arm=2), RULES) == 29  # +2 (10%) a point
    assert cap.defence(4, stats(arm=2), RULES) == 6


def test_com_adds_a_quarter_of_space_and_of_land_units() -> None:
    s = stats(com=2)
    assert cap.space(30, s, RULES) == 45
    assert cap.land_army_size(60, s, RULES) == 18  # (60 + 30) / 5
    assert cap.land_unit_limit(s, RULES) == 7  # 5 x 1.5, rounded down


def test_eco_adds_ten_percent_to_income_and_reward_credits_rounded_down() -> None:
    s = stats(eco=3, arm=1)
    assert cap.income(85, s, RULES) == 110
    assert cap.reward_credits(50, s, RULES) == 65


def test_zone_counter_starts_at_ten_plus_the_average_charisma() -> None:
    assert cap.zone_counter_start([3, 4], RULES) == 13
    assert cap.zone_mission_choices([3, 4], RULES) == 1
    assert cap.zone_mission_choices([4, 5, 6], RULES) == 2


def test_research_choices_stay_within_one_level_of_the_best_known() -> None:
    known = {"interceptor": 0, "nuclear-engine": 0, "mining-bots": 0}
    assert cap.can_research("frigate", known, DECK, RULES)
    assert not cap.can_research("destroyer", known, DECK, RULES)
    assert not cap.can_research("interceptor", known, DECK, RULES)
    assert cap.can_design("interceptor", known, RULES)
    assert not cap.can_design("interceptor", {"interceptor": 5}, RULES)
    assert not cap.can_design("frigate", known, RULES)


# ---- starting bonuses -------------------------------------------------------------------------


def test_bonuses_are_bought_with_credits_as_many_times_as_wanted() -> None:
    me = cap.new_character(stats(), RULES)
    for _ in range(3):
        me = cap.buy(me, "earth-interceptor", RULES, DECK, Game())
    me = cap.buy(me, "nuclear-engine-layout", RULES, DECK, Game())
    me = cap.buy(me, "nuclear-engine-layout", RULES, DECK, Game())
    assert me.credits == 500 - 150 - 60
    assert me.ships == ["earth-interceptor"] * 3
    assert me.techs["nuclear-engine"] == 2


def test_a_bonus_beyond_the_credits_is_refused_and_changes_nothing() -> None:
    me = cap.new_character(stats(), RULES)
    me = cap.buy(me, "stat-point", RULES, DECK, Game(), stat="eco")
    assert me.stats.eco == 3 and me.credits == 150
    before = me.model_copy(deep=True)
    with pytest.raises(CaptainError, match="Earth frigate costs 200 credits; you have 150 left"):
        cap.buy(me, "earth-frigate", RULES, DECK, Game())
    assert me == before
    cap.check_stats(me.stats, RULES, extra_points=1)


def test_a_chosen_tech_is_of_its_level_and_not_known() -> None:
    me = cap.new_character(stats(), RULES)
    with pytest.raises(CaptainError, match="choose one of"):
        cap.buy(me, "level-2-tech", RULES, DECK, Game(), tech="laser-beam")
    me = cap.buy(me, "level-2-tech", RULES, DECK, Game(), tech="frigate")
    assert me.techs["frigate"] == 0 and me.credits == 250


def test_a_random_tech_is_drawn_from_the_level_the_captain_lacks_alike_for_a_seed() -> None:
    me = cap.new_character(stats(), RULES)
    one = cap.buy(me, "random-level-1-tech", RULES, DECK, Game(seed=1))
    two = cap.buy(me, "random-level-1-tech", RULES, DECK, Game(seed=1))
    assert one == two
    (new,) = set(one.techs) - set(me.techs)
    assert DECK.techs[new].level == 1
    for _ in range(2):
        one = cap.buy(one, "random-level-1-tech", RULES, DECK, Game())
    with pytest.raises(CaptainError, match="you know every level 1 tech already"):
        cap.buy(one, "random-level-1-tech", RULES, DECK, Game())


def test_an_unknown_bonus_is_refused_with_the_list() -> None:
    me = cap.new_character(stats(), RULES)
    with pytest.raises(CaptainError, match="no starting bonus 'free-ship'.*earth-frigate"):
        cap.buy(me, "free-ship", RULES, DECK, Game())
