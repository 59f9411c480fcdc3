"""Property tests of the pure core on small worlds with random command sequences."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import CommandError
from engine.strategic import commands as cmd
from engine.strategic.clock import advance
from engine.strategic.orders import apply
from engine.strategic.rules.models import UnitClass
from engine.strategic.world import World
from tests.games.strategic.worlds import STRIP, strip_world
from tests.scaled import examples

W, H = 24, 6

coords = st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))
unit_ids = st.lists(st.integers(1, 6), min_size=1, max_size=3)
unit_types = st.sampled_from(
    ["infantry", "tank", "engineer", "transport", "destroyer", "fighter", "zeppelin", "dragon"]
)
city_squares = st.sampled_from([(1, 1), (3, 3), (20, 1), (19, 3), (5, 5)])

# mostly sensible orders (own units, squares near the islands), some nonsense
movers = st.sampled_from(
    [("red", [1]), ("red", [1, 2]), ("red", [3]), ("blue", [4]), ("blue", [5]), ("blue", [4, 5])]
)
near = st.tuples(st.integers(0, W - 1), st.integers(0, 4))
moves = st.one_of(
    movers.flatmap(lambda m: st.tuples(st.just("move"), st.just(m[0]), st.just(m[1]), near)),
    st.tuples(st.just("move"), st.sampled_from(["red", "blue"]), unit_ids, coords),
)

attacks = st.one_of(
    st.tuples(
        st.just("attack"), st.just("red"), st.sampled_from([[1], [2], [1, 2]]), st.just((3, 2))
    ),
    st.tuples(st.just("attack"), st.just("blue"), st.sampled_from([[6], [4], [5]]), near),
)

actions = st.one_of(
    moves,
    moves,
    attacks,
    st.tuples(st.just("build"), st.sampled_from(["red", "blue"]), city_squares, unit_types),
    st.tuples(st.just("next"), st.sampled_from(["red", "blue"]), city_squares, unit_types),
    st.tuples(
        st.just("designate"),
        st.sampled_from(["red", "blue"]),
        city_squares,
        st.sampled_from(["fort", "port", "airport", "tech", "base", "castle"]),
    ),
    st.tuples(
        st.just("engineer"), st.just("blue"), st.sampled_from([5, 5, 5, 4, 1]), st.booleans()
    ),
    st.tuples(st.just("advance"), st.integers(1, 40)),
)


def to_command(action) -> tuple[str, cmd.Command] | None:
    kind = action[0]
    if kind == "move":
        return action[1], cmd.Move(units=action[2], to=action[3])
    if kind == "attack":
        return action[1], cmd.Attack(units=action[2], target=action[3])
    if kind == "build":
        return action[1], cmd.SetBuild(city=action[2], unit=action[3])
    if kind == "next":
        return action[1], cmd.SetNextBuild(city=action[2], unit=action[3])
    if kind == "designate":
        return action[1], cmd.Designate(city=action[2], designation=action[3])
    if kind == "engineer":
        return action[1], (
            cmd.BuildCity(unit=action[2]) if action[3] else cmd.SwitchTerrain(unit=action[2])
        )
    return None


def play(world: World, script) -> list[str]:
    outcomes = []
    for action in script:
        command = to_command(action)
        if command is None:
            advance(world, action[1])
            outcomes.append("tick")
            continue
        before = world.hash()
        try:
            apply(world, *command)
            outcomes.append("ok")
        except CommandError as exc:
            assert world.hash() == before, f"rejected {command} changed the world: {exc}"
            outcomes.append("rejected")
        check_invariants(world)
    return outcomes


def check_invariants(world: World) -> None:
    rules = world.rules
    seen_ships: set[int] = set()
    indexed = {uid for ids in world.at.values() for uid in ids}
    assert indexed == set(world.units), "the square index and the units disagree"
    for sq, ids in world.at.items():
        assert len(ids) == len(set(ids)), "a unit is listed twice on a square"
        for uid in ids:
            assert world.units[uid].sq == sq, "a unit is in two places"
    for unit in world.units.values():
        ut = rules.unit[unit.type]
        assert 0 < unit.hp <= ut.hp
        assert 0 <= unit.mobility <= ut.mobility * rules.mobility.cap_multiple
        assert unit.fuel >= 0 and unit.ammo >= 0
        if unit.carried_by is not None:
            assert world.units[unit.carried_by].sq == unit.sq, "cargo left its carrier"
        if (
            ut.unit_class == UnitClass.SEA
            and world.is_water(unit.sq)
            and unit.sq not in world.cities
        ):
            assert unit.sq not in seen_ships, "two ships on one sea square"
            seen_ships.add(unit.sq)
        if ut.moves_on == "land":
            assert world.is_land(unit.sq) or unit.carried_by is not None, "a land unit on water"
    for nation in world.nations.values():
        assert 0 <= nation.cp <= rules.command_points.max
        assert 0 <= nation.tech <= rules.tech.max


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, min_size=1, max_size=25), st.sampled_from(["standard", "classic"]))
def test_random_commands_keep_invariants_and_are_deterministic(script, ruleset):
    war = [["red", "blue", "war"]]
    extra = [{"id": 6, "owner": "blue", "type": "infantry", "at": "3,2"}]  # in reach of red
    a = strip_world(ruleset=ruleset, relations=war, units=STRIP["units"] + extra)
    b = strip_world(ruleset=ruleset, relations=war, units=STRIP["units"] + extra)
    outcomes_a = play(a, script)
    outcomes_b = play(b, script)
    assert outcomes_a == outcomes_b
    assert a.hash() == b.hash()
    # a serialised copy is the same world and goes on the same way
    c = World.from_dict(a.to_dict())
    assert c.hash() == a.hash()
    advance(a, 17)
    advance(c, 17)
    assert c.hash() == a.hash()


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(1, 200))
def test_advancing_at_once_equals_tick_by_tick(ticks):
    a = strip_world()
    b = strip_world()
    advance(a, ticks)
    for _ in range(ticks):
        advance(b, 1)
    assert a.hash() == b.hash()


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(actions, min_size=1, max_size=20),
    st.sampled_from(["standard", "classic"]),
    st.lists(st.booleans(), min_size=20, max_size=20),
)
def test_a_restart_anywhere_goes_on_as_if_nothing_happened(script, ruleset, restarts):
    """A world saved and loaded between any two log entries (a snapshot, then a restart)
    continues exactly as the world that never stopped: what nations see and remember too."""
    war = [["red", "blue", "war"]]
    a = strip_world(ruleset=ruleset, relations=war)
    b = strip_world(ruleset=ruleset, relations=war)
    for action, restart in zip(script, restarts, strict=False):
        play(a, [action])
        play(b, [action])
        if restart:
            b = World.from_dict(b.to_dict())
    advance(a, 96)
    advance(b, 96)
    assert b.hash() == a.hash()


def test_a_restart_at_any_tick_goes_on_the_same_way():
    """Saved and loaded at any tick of a whole game (tech grows, so radar sight widens, cities
    are built, units move on standing orders), the world's next tick is the same as if it had
    never stopped: what nations see and remember included."""
    world = strip_world()
    apply(world, "red", cmd.Move(units=[1], to=(9, 2)))
    apply(world, "blue", cmd.Move(units=[4], to=(14, 1)))
    for _ in range(world.end_tick):
        if world.ended:
            break
        saved = world.to_dict()
        advance(world, 1)
        restarted = World.from_dict(saved)
        advance(restarted, 1)
        assert restarted.hash() == world.hash(), f"tick {restarted.tick}"
