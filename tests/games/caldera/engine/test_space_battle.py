"""Caldera's space battle as scenarios with pinned numbers (seed 003, "Space Battle"): who
starts, the rounds (interceptors first, each larger class a round later, the shipyard last, the
last round repeated), simultaneous damage, the weapons against the defences, the A.I.'s
damage distribution, Arm, retreat and the end."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.caldera.battle import (
    ArmEffects,
    BattleReport,
    BattleRules,
    SectionError,
    Ship,
    Side,
    Weapon,
    battle_rules,
    defence,
    defences_by_type,
    fight,
    hit_damage,
    read_section,
    starter,
)

RULES = battle_rules()
# the seed's Arm: "increases ship damage by one point or 10%", "defensive abilities by 25%"
# (the rules' [stats.effects]; the core builds it from there)
ARM = ArmEffects(damage_points=1, damage_percent=10, defence_percent=25)


def battle(sides: list[Side], rounds: int | None = None) -> BattleReport:
    rules = RULES if rounds is None else RULES.model_copy(update={"max_rounds": rounds})
    return fight(sides, rules, ARM)


def laser(damage: int) -> Weapon:
    return Weapon(tech="laser-cannon", type="laser", damage=damage)


def weapon(kind: str, damage: int) -> Weapon:
    tech = {
        "beam": "laser-beam",
        "fighters": "fighter-bay",
        "laser": "laser-cannon",
        "missile": "nuclear-missile",
        "mine": "tnt-mine",
    }[kind]
    return Weapon(tech=tech, type=kind, damage=damage)


def players(*ships: Ship, arm: int = 0, side: str = "ann") -> Side:
    return Side(id=side, team="players", arm=arm, ships=ships)


def pirates(*ships: Ship, arm: int = 0) -> Side:
    return Side(id="pirates-1", team="pirates-1", ai=True, arm=arm, ships=ships)


def outcome(report: BattleReport, ship: int):
    return next(o for o in report.ships if o.id == ship)


def fired(report: BattleReport, number: int) -> dict[tuple[str, str], int]:
    """(side, weapon tech) -> hits fired in round `number`."""
    hits: dict[tuple[str, str], int] = {}
    for salvo in report.rounds[number - 1].salvos:
        hits[salvo.side, salvo.weapon] = hits.get((salvo.side, salvo.weapon), 0) + salvo.hits
    return hits


def test_the_rules_file_has_the_seeds_battle_numbers():
    assert RULES.weapon_order == ("beam", "fighters", "laser", "missile", "mine")
    assert RULES.max_rounds == 60


def test_arms_effects_are_read_from_the_captains_stats_effects():
    @dataclass(frozen=True)
    class Effects:  # the fields of the rules' [stats.effects] the battle reads
        damage_points_per_arm: int = 1
        damage_percent_per_arm: int = 10
        defence_percent_per_arm: int = 25

    assert ArmEffects.of(Effects()) == ARM


def test_a_malformed_battle_section_is_refused_naming_the_field(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[battle]\nweapon_order = ["beam"]\nmax_rounds = 0\n')
    with pytest.raises(SectionError) as error:
        read_section(bad, "battle", BattleRules)
    assert "battle.max_rounds" in str(error.value)
    with pytest.raises(SectionError, match="no \\[land\\] section"):
        read_section(bad, "land", BattleRules)


def test_interceptors_fight_alone_frigates_join_in_round_two_the_shipyard_last_then_repeat():
    ann = players(
        Ship(id=1, cls=1, structure=100, weapons=(laser(5), laser(5))),
        Ship(id=2, cls=1, structure=100, weapons=(laser(5),)),
        Ship(id=3, cls=2, structure=100, weapons=(laser(6),) * 4),
        Ship(id=4, cls=1, structure=300, shipyard=True, weapons=(laser(1),) * 3),
    )
    enemy = pirates(
        Ship(id=11, cls=1, structure=100, weapons=(laser(5),)),
        Ship(id=12, cls=2, structure=100, weapons=(laser(6), laser(6))),
    )
    report = battle([ann, enemy], rounds=4)

    assert [r.joined for r in report.rounds] == [(1, 2, 11), (3, 12), (4,), ()]
    # round 1: one weapon per interceptor, although ship 1 carries two
    assert fired(report, 1) == {("ann", "laser-cannon"): 2, ("pirates-1", "laser-cannon"): 1}
    assert {d.ship: d.points for d in report.rounds[0].damage} == {11: 10, 1: 5}
    # round 2: the frigates join and fire two weapons each; all the same weapons together
    assert {(s.side, s.damage): s.hits for s in report.rounds[1].salvos} == {
        ("ann", 5): 2,
        ("ann", 6): 2,
        ("pirates-1", 5): 1,
        ("pirates-1", 6): 2,
    }
    # the players' 22 cannot destroy a ship: all of it to the largest, the frigate
    assert {d.ship: d.points for d in report.rounds[1].damage} == {12: 22, 3: 17}
    # round 3: the shipyard joins and fires every weapon it has; round 4 repeats round 3
    assert fired(report, 3)[("ann", "laser-cannon")] == 2 + 2 + 3
    assert report.rounds[3].salvos == report.rounds[2].salvos
    assert report.end == "round-cap"
    assert report.winner is None


def test_damage_is_simultaneous_both_ships_die_in_the_same_round():
    report = battle(
        [
            players(Ship(id=1, cls=1, structure=5, weapons=(laser(5),))),
            pirates(Ship(id=2, cls=1, structure=5, weapons=(laser(5),))),
        ]
    )
    assert len(report.rounds) == 1
    assert report.rounds[0].destroyed == (1, 2)
    assert report.end == "none-left"
    assert report.winner is None
    assert outcome(report, 1).destroyed and outcome(report, 2).destroyed


def test_a_round_nobody_could_fight_in_is_skipped():
    """Frigates against interceptors only: the interceptors' round has no enemy, so both
    classes fight from round 1."""
    report = battle(
        [
            players(Ship(id=1, cls=1, structure=5, weapons=(laser(5),))),
            pirates(Ship(id=2, cls=2, structure=20, weapons=(laser(3), laser(3)))),
        ]
    )
    assert report.rounds[0].joined == (1, 2)
    assert report.rounds[0].destroyed == (1,)
    assert report.winner == "pirates-1"
    assert outcome(report, 2).structure == 15


def test_the_ai_picks_the_weapon_that_gets_through_the_defences():
    """An interceptor with a laser of 6 and a missile of 5 against a force field of 4: the
    laser would deal 2, the missile 5."""
    enemy = Ship(id=1, cls=1, structure=50, defences={"beam": 4, "laser": 4})
    shooter = Ship(id=2, cls=1, structure=50, weapons=(laser(6), weapon("missile", 5)))
    report = battle([players(enemy), pirates(shooter)], 1)
    assert fired(report, 1) == {("pirates-1", "nuclear-missile"): 1}
    assert report.rounds[0].damage[0].points == 5
    assert report.rounds[0].damage[0].absorbed == 0


def test_plating_stops_every_type_anti_aircraft_fighters_and_missiles_force_fields_lasers():
    plating = (("beam", "fighters", "laser", "missile", "mine"), 1)
    anti_aircraft = (("fighters", "missile"), 2)
    ship = Ship(id=1, cls=1, structure=9, defences=defences_by_type([plating, anti_aircraft]))
    side = players(ship)
    assert {t: defence(ship, side, t, ARM) for t in RULES.weapon_order} == {
        "beam": 1,
        "fighters": 3,
        "laser": 1,
        "missile": 3,
        "mine": 1,
    }


def test_equal_damage_is_broken_beam_fighters_laser_missile_mine():
    """A destroyer fires three weapons; five of 5 each against a bare ship: the first three
    types of the order fire."""
    mounts = tuple(weapon(k, 5) for k in ("mine", "missile", "laser", "fighters", "beam"))
    shooter = Ship(id=2, cls=3, structure=50, weapons=mounts)
    report = battle([players(Ship(id=1, cls=3, structure=100)), pirates(shooter)], 1)
    assert fired(report, 1) == {
        ("pirates-1", "laser-beam"): 1,
        ("pirates-1", "fighter-bay"): 1,
        ("pirates-1", "laser-cannon"): 1,
    }


def test_a_hit_weaker_than_the_defence_does_nothing_and_the_battle_stalls():
    report = battle(
        [
            players(
                Ship(
                    id=1,
                    cls=1,
                    structure=9,
                    weapons=(laser(2),),
                    defences={t: 3 for t in RULES.weapon_order},
                )
            ),
            pirates(
                Ship(
                    id=2,
                    cls=1,
                    structure=9,
                    weapons=(laser(3),),
                    defences={t: 3 for t in RULES.weapon_order},
                )
            ),
        ]
    )
    assert len(report.rounds) == 1
    assert report.rounds[0].damage == ()
    assert report.rounds[0].wasted == {"players": 2, "pirates-1": 3}
    assert report.end == "stalemate"
    assert report.winner is None


def test_the_ai_kills_the_largest_ships_it_can_first():
    """Three hits of 8 on a destroyer of 10, frigates of 7 and 20 and an interceptor of 3: the
    destroyer (two hits) and the weaker frigate (one hit) die; nothing is left for the rest."""
    ann = players(
        Ship(id=1, cls=3, structure=10),
        Ship(id=2, cls=2, structure=20),
        Ship(id=3, cls=2, structure=7),
        Ship(id=4, cls=1, structure=3),
    )
    enemy = pirates(Ship(id=9, cls=3, structure=99, weapons=(laser(8),) * 3))
    report = battle([ann, enemy], 1)
    first = report.rounds[0]
    assert first.joined == (1, 2, 3, 4, 9)  # nothing to fight before the destroyers' round
    assert first.destroyed == (1, 3)
    assert {d.ship: d.points for d in first.damage} == {1: 16, 3: 8}


def test_what_cannot_kill_goes_to_the_largest_ship_left():
    ann = players(Ship(id=1, cls=3, structure=30), Ship(id=2, cls=2, structure=5))
    enemy = pirates(Ship(id=9, cls=3, structure=99, weapons=(laser(8),) * 3))
    report = battle([ann, enemy], 1)
    assert report.rounds[0].destroyed == (2,)
    assert outcome(report, 1).structure == 30 - 16


def test_the_shipyard_joins_last_and_is_targeted_as_the_smallest():
    """Round 1: the frigate alone takes 16 (20 -> 4). Round 2: the shipyard (9) joins; the two
    hits of 8 go first to the frigate (one is enough), then the shipyard, which survives."""
    ann = players(
        Ship(id=1, cls=2, structure=20),
        Ship(id=2, cls=1, structure=9, shipyard=True),
    )
    enemy = pirates(Ship(id=9, cls=3, structure=99, weapons=(laser(8), laser(8))))
    report = battle([ann, enemy], 2)
    assert [r.joined for r in report.rounds] == [(1, 9), (2,)]
    assert report.rounds[1].destroyed == (1,)
    assert outcome(report, 2).structure == 1


def test_escorted_ai_ships_are_hit_after_the_players_ships():
    def escorted(protected: bool) -> BattleReport:
        friend = Side(
            id="js",
            team="players",
            ai=True,
            ships=(Ship(id=1, cls=2, structure=5, protected=protected),),
        )
        ann = players(Ship(id=2, cls=2, structure=5))
        enemy = pirates(Ship(id=9, cls=2, structure=50, weapons=(laser(5),)))
        return battle([friend, ann, enemy], 1)

    assert escorted(protected=False).rounds[0].destroyed == (1,)
    assert escorted(protected=True).rounds[0].destroyed == (2,)


def test_arm_adds_a_point_or_ten_percent_per_point_whichever_is_more():
    assert hit_damage(laser(5), 2, ARM) == 7  # 2 points beat 10% of 5 (0)
    assert hit_damage(laser(30), 2, ARM) == 36  # 20% of 30 (6) beats 2 points
    assert hit_damage(laser(10), 1, ARM) == 11  # equal
    assert hit_damage(laser(15), 2, ARM) == 17  # per point: 10% of 15 is 1, rounded down


def test_arm_turns_a_surviving_enemy_into_a_destroyed_one():
    def armed(arm: int) -> BattleReport:
        return battle(
            [
                players(Ship(id=1, cls=1, structure=50, weapons=(laser(5),)), arm=arm),
                pirates(Ship(id=2, cls=1, structure=7, weapons=(laser(1),))),
            ],
            1,
        )

    assert armed(arm=1).rounds[0].destroyed == ()
    assert armed(arm=2).rounds[0].destroyed == (2,)


def test_arm_raises_defences_by_a_quarter_per_point():
    """Plating 4: Arm 1 makes it 5, Arm 2 makes it 6, which stops a hit of 6 entirely."""
    ship = Ship(id=1, cls=1, structure=9, defences={t: 4 for t in RULES.weapon_order})
    assert [defence(ship, players(ship, arm=a), "mine", ARM) for a in (0, 1, 2)] == [4, 5, 6]
    report = battle(
        [players(ship, arm=2), pirates(Ship(id=2, cls=1, structure=9, weapons=(laser(6),)))]
    )
    assert report.end == "stalemate"
    assert outcome(report, 1).structure == 9


def test_a_cold_planets_owner_defends_half_again():
    ship = Ship(id=1, cls=1, structure=9, defences={t: 4 for t in RULES.weapon_order})
    side = Side(id="pirates-1", team="pirates-1", ai=True, defence_percent=50, ships=(ship,))
    assert defence(ship, side, "laser", ARM) == 6


def test_a_retreating_ship_fights_one_more_round_then_leaves():
    """Structure 10, leaving at 5 or less, hit 3 a round: 7, then 4 (marked down), then it
    fights round 3 (1 left) and goes back."""
    ann = players(Ship(id=1, cls=1, structure=10, weapons=(laser(1),), retreat_at=5))
    enemy = pirates(Ship(id=2, cls=1, structure=100, weapons=(laser(3),), retreat_at=100))
    report = battle([ann, enemy])
    assert [r.marked for r in report.rounds] == [(), (1,), ()]
    assert [r.left for r in report.rounds] == [(), (), (1,)]
    assert ("ann", "laser-cannon") in fired(report, 3)
    mine = outcome(report, 1)
    assert (mine.structure, mine.retreated, mine.destroyed) == (1, True, False)
    assert report.end == "won"
    assert report.winner == "pirates-1"
    # the A.I. never retreats; damaged, it goes home for repairs after the battle
    theirs = outcome(report, 2)
    assert (theirs.structure, theirs.retreated, theirs.goes_home) == (97, False, True)


def test_a_ship_ordered_out_at_once_fights_its_first_round_and_leaves():
    ann = players(
        Ship(id=1, cls=1, structure=10, weapons=(laser(1),), retreat_at=10),
        Ship(id=2, cls=2, structure=10, weapons=(laser(1),)),
    )
    enemy = pirates(Ship(id=3, cls=1, structure=100), Ship(id=4, cls=2, structure=100))
    report = battle([ann, enemy], 3)
    assert [r.left for r in report.rounds] == [(1,), (), ()]
    assert [s.ships for s in report.rounds[1].salvos if s.side == "ann"] == [(2,)]


def test_a_ship_destroyed_in_its_last_round_is_destroyed_not_retreated():
    ann = players(Ship(id=1, cls=1, structure=3, retreat_at=3))
    enemy = pirates(Ship(id=2, cls=1, structure=10, weapons=(laser(3),)))
    report = battle([ann, enemy])
    mine = outcome(report, 1)
    assert (mine.destroyed, mine.retreated) == (True, False)
    assert outcome(report, 2).goes_home is False  # undamaged


def test_who_starts_faster_engine_then_nearest_origin_then_earlier_race():
    def side(name: str, engine: int, came: int | None, order: int) -> Side:
        return Side(
            id=name,
            team=name,
            moved_from_cost=came,
            order=order,
            ships=(Ship(id=order, cls=1, structure=1, engine=engine),),
        )

    assert starter([side("a", 3, 2, 1), side("b", 5, 9, 2)]).id == "b"
    assert starter([side("a", 5, 3, 1), side("b", 5, 2, 2)]).id == "b"
    assert starter([side("a", 5, 2, 1), side("b", 5, 2, 2)]).id == "a"
    # a side that was already there does not start against one that arrives
    assert starter([side("a", 9, None, 1), side("b", 1, 4, 2)]).id == "b"
    report = battle([side("a", 9, None, 1), side("b", 1, 4, 2)])
    assert report.starter == "b"


def test_a_battle_needs_two_teams():
    with pytest.raises(ValueError, match="two teams"):
        battle([players(Ship(id=1, cls=1, structure=1))])


def test_a_kill_counts_for_the_captain_who_dealt_it_the_most():
    def kill(ann_hit: int, bob_hit: int) -> BattleReport:
        return battle(
            [
                players(Ship(id=1, cls=1, structure=50, weapons=(laser(ann_hit),))),
                Side(
                    id="bob",
                    team="players",
                    order=1,
                    ships=(Ship(id=2, cls=1, structure=50, weapons=(laser(bob_hit),)),),
                ),
                pirates(Ship(id=9, cls=1, structure=10)),
            ]
        )

    report = kill(6, 5)
    assert report.rounds[0].damage[0].by == {"ann": 6, "bob": 5}
    assert outcome(report, 9).destroyed_by == "ann"
    assert outcome(kill(4, 6), 9).destroyed_by == "bob"
    assert outcome(kill(5, 5), 9).destroyed_by == "ann"  # even: the earlier side
    assert outcome(kill(5, 5), 1).destroyed_by is None
