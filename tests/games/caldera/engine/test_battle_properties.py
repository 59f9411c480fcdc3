"""Properties of Caldera's space and land battles over generated fleets and armies: a battle
always ends, every structure point lost is in the report, a ship gone is gone for good, the
A.I. never retreats, the winner is the one team left, and the same battle fought twice is the
same battle."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caldera import land
from engine.caldera.battle import ArmEffects, Ship, Side, Weapon, battle_rules, fight
from tests.games.caldera.engine.land_units import UNITS
from tests.scaled import examples

RULES = battle_rules()
ARM = ArmEffects(damage_points=1, damage_percent=10, defence_percent=25)
TYPES = RULES.weapon_order


def generated(seed: int) -> list[Side]:
    rng = random.Random(seed)
    sides = []
    ship_id = 0
    for n, team in enumerate(("players", "pirates-1", "players", "aliens")[: rng.randint(2, 4)]):
        ships = []
        for _ in range(rng.randint(1, 4)):
            ship_id += 1
            whole = rng.randint(1, 30)
            ships.append(
                Ship(
                    id=ship_id,
                    cls=rng.randint(1, 3),
                    structure=rng.randint(1, whole),
                    max_structure=whole,
                    weapons=tuple(
                        Weapon(tech=f"w-{t}", type=t, damage=rng.randint(1, 8))
                        for t in rng.choices(TYPES, k=rng.randint(0, 4))
                    ),
                    defences={t: rng.randint(0, 3) for t in TYPES if rng.random() < 0.4},
                    shipyard=rng.random() < 0.15,
                    protected=rng.random() < 0.1,
                    retreat_at=rng.choice([None, None, rng.randint(1, 30)]),
                )
            )
        sides.append(
            Side(
                id=f"{team}-{n}",
                team=team,
                ai=team != "players",
                arm=rng.randint(0, 2),
                moved_from_cost=rng.choice([None, rng.randint(1, 6)]),
                order=n,
                ships=tuple(ships),
            )
        )
    return sides


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_space_battles_end_and_account_for_every_point(seed: int):
    sides = generated(seed)
    report = fight(sides, RULES, ARM)
    assert report == fight(sides, RULES, ARM)
    assert 1 <= len(report.rounds) <= RULES.max_rounds
    start = {sh.id: sh.structure for s in sides for sh in s.ships}
    ai = {sh.id for s in sides if s.ai for sh in s.ships}
    team = {sh.id: s.team for s in sides for sh in s.ships}
    side_team = {s.id: s.team for s in sides}
    lost = dict.fromkeys(start, 0)
    gone: set[int] = set()
    for played in report.rounds:
        active = {i for salvo in played.salvos for i in salvo.ships} | {
            d.ship for d in played.damage
        }
        assert not active & gone
        for d in played.damage:
            assert d.points > 0
            lost[d.ship] += d.points
            assert d.structure == start[d.ship] - lost[d.ship]
        assert not set(played.left) & ai
        gone |= set(played.destroyed) | set(played.left)
    for o in report.ships:
        assert o.structure == start[o.id] - lost[o.id]
        assert o.destroyed == (o.structure <= 0)
        assert not (o.destroyed and o.retreated)
        assert (o.destroyed_by is not None) == o.destroyed
        assert o.destroyed_by is None or team[o.id] != side_team[o.destroyed_by]
    here = {team[o.id] for o in report.ships if not o.destroyed and not o.retreated}
    if report.end == "won":
        assert here == {report.winner}
    elif report.end == "none-left":
        assert here == set()
    else:
        assert len(here) >= 2


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_land_battles_end_and_only_ever_remove_units(seed: int):
    rng = random.Random(seed)

    def army() -> dict[str, int]:
        return {u: rng.randint(1, 12) for u in rng.sample(sorted(UNITS), rng.randint(1, 4))}

    attacker = land.LandSide(id="ann", army=army())
    defender = land.LandSide(id="npc", army=army(), defence_percent=rng.choice([0, 50]))
    rules = land.land_rules()
    report = land.fight(attacker, defender, UNITS, rules)
    assert report == land.fight(attacker, defender, UNITS, rules)
    count = {"ann": dict(attacker.army), "npc": dict(defender.army)}
    for step in report.steps:
        assert len({s.side for s in step.strikes}) == len(step.strikes)
        for strike in step.strikes:
            enemy = "npc" if strike.side == "ann" else "ann"
            assert strike.count == count[strike.side][strike.unit] > 0
            assert 0 <= strike.killed <= count[enemy][strike.target]
        for strike in step.strikes:
            enemy = "npc" if strike.side == "ann" else "ann"
            count[enemy][strike.target] -= strike.killed
    assert report.armies == {
        side: {u: n for u, n in units.items() if n > 0} for side, units in count.items()
    }
    if report.end == "won":
        assert [s for s, units in report.armies.items() if units] == [report.winner]
