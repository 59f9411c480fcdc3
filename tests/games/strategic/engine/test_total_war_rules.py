"""Ruleset total-war (seed 002): the effectiveness table fits the units' attack rules, is
checked at load, and only total-war has battles."""

from __future__ import annotations

import tomllib

import pytest

from engine.strategic.rules import RulesetError, load, load_file
from engine.strategic.rules.loader import RULESET_DIR
from engine.strategic.rules.models import Effect


@pytest.fixture(scope="module")
def rules():
    return load("total-war")


def fights(rules, name: str) -> bool:
    return bool(rules.unit[name].attack)


def test_every_multiplier_of_the_combat_rules_is_effective(rules) -> None:
    for a in rules.units:
        for d in rules.units:
            if a.attack and rules.multiplier(a, d) > 1:
                assert rules.effect(a.name, d.name) == Effect.EFFECTIVE, (a.name, d.name)


def test_the_other_side_of_a_one_way_effective_pair_is_weak(rules) -> None:
    for a in rules.units:
        for d in rules.units:
            one_way = (
                rules.effect(a.name, d.name) == Effect.EFFECTIVE
                and rules.effect(d.name, a.name) != Effect.EFFECTIVE
            )
            if a.attack and d.attack and one_way and d.structure is None:
                assert rules.effect(d.name, a.name) == Effect.WEAK, (d.name, a.name)


def test_a_submarine_is_weak_against_every_aircraft(rules) -> None:
    # the minimal-attack case "sub_vs_air": it only scratches aircraft
    for d in rules.units:
        if d.unit_class == "air":
            assert rules.effect("submarine", d.name) == Effect.WEAK, d.name


def test_the_seed_example_and_the_generations(rules) -> None:
    assert rules.effect("tank", "infantry") == Effect.EFFECTIVE  # light armour vs infantry
    assert rules.effect("infantry", "engineer") == Effect.EFFECTIVE  # infantry vs artillery
    assert rules.effect("mech_infantry", "engineer") == Effect.EFFECTIVE  # inherited
    assert rules.effect("helicopter", "battle_tank") == Effect.EFFECTIVE  # inherited target row
    assert rules.effect("battle_tank", "tank") == Effect.EFFECTIVE
    assert rules.effect("tank", "battle_tank") == Effect.WEAK
    assert rules.effect("infantry", "infantry") == Effect.NORMAL
    assert rules.newest("tank", 11.9) == "tank" and rules.newest("tank", 12) == "battle_tank"


@pytest.mark.parametrize("name", ["standard", "classic"])
def test_standard_and_classic_have_no_battles(name: str) -> None:
    other = load(name)
    assert other.battle is None
    assert all(u.generation_of is None for u in other.units)
    assert other.effect("tank", "infantry") == Effect.NORMAL


def _with(tmp_path, change) -> None:
    raw = (RULESET_DIR / "total-war.toml").read_text(encoding="utf-8")
    path = tmp_path / "total-war.toml"
    path.write_text(change(raw), encoding="utf-8")
    load_file(path)


def test_a_name_in_the_table_that_is_no_unit_is_refused(tmp_path) -> None:
    with pytest.raises(RulesetError, match="'panzer' is not a unit type"):
        _with(tmp_path, lambda s: s.replace('tank = ["infantry", "engineer"]', 'tank = ["panzer"]'))
    with pytest.raises(RulesetError, match="'dragon' is not a unit type"):
        _with(
            tmp_path, lambda s: s.replace("[battle.weak]\n", '[battle.weak]\ndragon = ["tank"]\n')
        )


def test_a_pair_both_effective_and_weak_is_refused(tmp_path) -> None:
    with pytest.raises(RulesetError, match="both effective and weak"):
        _with(
            tmp_path,
            lambda s: s.replace('destroyer = ["naval_bomber"]', 'destroyer = ["submarine"]'),
        )


def test_a_generation_needs_more_tech_than_the_one_it_follows(tmp_path) -> None:
    with pytest.raises(RulesetError, match="needs more tech"):
        _with(
            tmp_path, lambda s: s.replace("tech = 12\ncost_hours = 14", "tech = 5\ncost_hours = 14")
        )


def test_the_file_keeps_the_seed_numbers() -> None:
    raw = tomllib.loads((RULESET_DIR / "total-war.toml").read_text(encoding="utf-8"))
    assert raw["battle"]["effective_bonus_percent"] == 50
    assert raw["battle"]["weak_bonus_percent"] == 50
    assert raw["battle"]["misses_per_troops"] == 3
