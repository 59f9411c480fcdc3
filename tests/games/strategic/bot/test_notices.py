"""What a player reads in a DM: bot/games/strategic/notices.py."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence

import pytest

from bot.dm.text import MAX_LINE
from bot.games.strategic import notices
from engine.strategic import events as ev
from tests.games.strategic.sample_events import attacked

NAMES = {"red": "Red", "blue": "Blue", "green": "Green"}


def _event_classes() -> list[type[ev.Event]]:
    return [
        cls
        for _, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, ev.Event) and cls is not ev.Event
    ]


def told(event: ev.Event, nation: str, names: dict[str, str]) -> str:
    """The line `nation` reads about `event` (the tests below expect one)."""
    line = notices.describe(event, nation, names)
    assert line is not None, f"{nation} is told nothing of {event!r}"
    return line


def _sample(cls: type[ev.Event]) -> ev.Event:
    """One real event of every kind, told to red and blue."""
    to = ["red", "blue"]
    samples: dict[type[ev.Event], ev.Event] = {
        ev.BuildSkipped: ev.BuildSkipped(
            tick=1, to=["red"], nation="red", city="3,4", unit="infantry", power=105, limit=100
        ),
        ev.UnitBuilt: ev.UnitBuilt(
            tick=1, to=["red"], nation="red", city="3,4", unit="heavy_bomber", unit_id=9
        ),
        ev.CityChanged: ev.CityChanged(
            tick=1, to=["red"], nation="red", city="3,4", designation="tech", build="engineer"
        ),
        ev.TechReached: ev.TechReached(tick=1, to=["red"], nation="red", level=2),
        ev.PointsSpent: ev.PointsSpent(tick=1, to=["red"], nation="red", spent=2, left=510),
        ev.UnitsMoved: ev.UnitsMoved(
            tick=1,
            to=["red"],
            nation="red",
            units=[1, 2],
            to_square="5,5",
            arrived=[1],
            ordered=[2],
        ),
        ev.OrderCompleted: ev.OrderCompleted(
            tick=1, to=["red"], nation="red", unit=2, square="5,5"
        ),
        ev.OrderCancelled: ev.OrderCancelled(
            tick=1, to=["red"], nation="red", unit=2, square="5,5", reason="no way there any more"
        ),
        ev.MoveBlocked: ev.MoveBlocked(
            tick=1, to=["red"], nation="red", unit=2, square="4,5", blocked_at="5,5"
        ),
        ev.CityFounded: ev.CityFounded(tick=1, to=["red"], nation="red", city="6,6"),
        ev.TerrainSwitched: ev.TerrainSwitched(
            tick=1, to=["red"], nation="red", square="6,7", terrain="land"
        ),
        ev.RelationChanged: ev.RelationChanged(
            tick=1, to=to, nation="red", other="blue", level="war", previous="neutral"
        ),
        ev.NationJoined: ev.NationJoined(tick=0, to=to, nation="blue", name="Blue", home="20,1"),
        ev.NationLeft: ev.NationLeft(tick=0, to=to, nation="blue", name="Blue", resigned=True),
        ev.GameStarted: ev.GameStarted(tick=0, to=to, nations=["red", "blue"], end_tick=960),
        ev.Attacked: attacked(),
        ev.Bombed: ev.Bombed(
            tick=1,
            to=to,
            attacker="red",
            square="20,1",
            bomber=7,
            bomber_type="heavy_bomber",
            hits=[{"unit": 4, "type": "infantry", "owner": "blue", "damage": 5, "hp": 5}],
            victims=["blue"],
        ),
        ev.Intercepted: _intercept("9,9", mover="red", to=to),
        ev.Interdicted: ev.Interdicted(
            tick=1,
            to=to,
            interdictor="blue",
            mover="red",
            square="9,9",
            from_square="9,8",
            unit=31,
            unit_type="destroyer",
            ship=3,
            ship_type="transport",
            damage=2,
            ship_hp=8,
        ),
        ev.SubSighted: ev.SubSighted(
            tick=1, to=["red"], nation="red", owner="blue", unit=50, square="8,8", until_tick=9
        ),
        ev.EnemiesSighted: _sighted("3,4"),
        ev.SatelliteLaunched: ev.SatelliteLaunched(tick=1, to=["blue"], nation="red"),
        ev.IcbmLaunched: ev.IcbmLaunched(
            tick=1,
            to=to,
            nation="red",
            unit_type="icbm_1",
            square="20,1",
            radius=1,
            counter=False,
            devastated=["20,1"],
            destroyed=3,
            war_with=["blue"],
        ),
        ev.PowerLimitDropped: ev.PowerLimitDropped(
            tick=1, to=["red"], nation="red", limit=10, was=15, power=12, cities=["3,4", "5,6"]
        ),
        ev.UnitDestroyed: ev.UnitDestroyed(
            tick=1, to=to, nation="blue", unit=4, unit_type="infantry", square="20,1", by="red"
        ),
        ev.CityCaptured: ev.CityCaptured(
            tick=1, to=to, nation="red", previous="blue", city="20,1", unit=1
        ),
        ev.NationEliminated: ev.NationEliminated(tick=1, to=to, nation="blue", name="Blue"),
        ev.UnitsDisbanded: ev.UnitsDisbanded(
            tick=1, to=["red"], nation="red", units=[{"unit": 3, "type": "tank", "square": "3,4"}]
        ),
        ev.UnitsCeded: ev.UnitsCeded(
            tick=1,
            to=to,
            nation="red",
            receiver="blue",
            units=[{"unit": 5, "type": "heavy_bomber", "square": "12,7"}],
        ),
        ev.CityCeded: ev.CityCeded(tick=1, to=to, nation="red", receiver="blue", city="12,7"),
        ev.WastelandReturned: ev.WastelandReturned(
            tick=1, to=to, nation="red", city="12,7", output=10
        ),
        ev.CityInvested: ev.CityInvested(
            tick=1, to=["red"], nation="red", city="12,7", spent=80, output=20, cap=100
        ),
        ev.PlayerChanged: ev.PlayerChanged(
            tick=1, to=["red"], nation="red", player="ai", previous="100"
        ),
        ev.GameEnded: ev.GameEnded(
            tick=960,
            to=to,
            standings=[{"nations": ["red"], "cities": 5}, {"nations": ["blue"], "cities": 0}],
            winners=["red"],
        ),
    }
    return samples[cls]


# --- categories ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", _event_classes(), ids=lambda c: c.__name__)
def test_every_event_kind_has_a_category_and_a_sample(cls):
    event = _sample(cls)  # a KeyError here: add a sample (and wording) for the new kind
    assert notices.category(event) in notices.CATEGORIES
    for nation in event.to:
        assert notices.category(event, nation) in notices.CATEGORIES
        assert notices.section(event, nation) in notices.SECTIONS


@pytest.mark.parametrize("cls", _event_classes(), ids=lambda c: c.__name__)
def test_every_event_kind_reads_well_or_is_deliberately_silent(cls):
    event = _sample(cls)
    lines = [notices.describe(event, n, NAMES) for n in event.to]
    if cls in (ev.UnitsMoved, ev.PointsSpent):
        assert lines == [None]
        return
    for line in lines:
        assert line
        assert len(line) <= MAX_LINE
        assert "_" not in line, line  # unit types and levels are spelt out
        assert not re.search(r"\b(red|blue)\b", line), line  # names, not ids
        assert line.count("**") % 2 == 0, line


@pytest.mark.parametrize("cls", _event_classes(), ids=lambda c: c.__name__)
def test_nobody_outside_to_is_told(cls):
    event = _sample(cls)
    assert notices.describe(event, "green", NAMES) is None
    assert not notices.is_big(event, "green")
    assert notices.digest([event], "green", NAMES) == []


def test_unknown_event_subclass_has_no_category():
    class Mystery(ev.Event):
        kind: str = "Mystery"

    with pytest.raises(KeyError):
        notices.category(Mystery(tick=1, to=["red"]))


# --- perspective and names ----------------------------------------------------------------------


def test_attack_from_both_sides_and_from_a_bystander():
    event = attacked(to=["blue", "green", "red"], attacker_type="heavy_bomber")
    red = told(event, "red", NAMES)
    blue = told(event, "blue", NAMES)
    green = told(event, "green", NAMES)
    assert red.startswith("Your heavy bomber 12 attacked Blue's tank 40 at 12,7")
    assert blue.startswith("Red's heavy bomber 12 attacked your tank 40 at 12,7 from 11,7")
    assert green.startswith("Red's heavy bomber 12 attacked Blue's tank 40 at 12,7")
    assert "hit for 3" in red and "7 hp left" in red and "counter 2" in red


def test_names_fall_back_to_ids():
    event = attacked()
    assert "blue's tank 40" in told(event, "red", {})


def test_kill_and_first_fire_are_bold():
    killed = told(attacked(defender_hp=0, counter=0), "red", NAMES)
    assert "**destroyed**" in killed
    shot = attacked(first_fire=10, damage=0, counter=0, attacker_hp=0, attacker_type="fighter")
    line = told(shot, "blue", NAMES)
    assert line.startswith("Red's fighter 12 was **shot down**")


def test_unit_destroyed_perspective():
    def destroyed(nation: str, by: str | None) -> ev.UnitDestroyed:
        return ev.UnitDestroyed(
            tick=1,
            to=["blue", "green", "red"],
            nation=nation,
            by=by,
            unit=4,
            unit_type="tank",
            square="3,3",
        )

    assert notices.describe(destroyed("blue", by="red"), "red", NAMES) == (
        "You **destroyed** Blue's tank 4 at 3,3"
    )
    assert notices.describe(destroyed("blue", by="red"), "blue", NAMES) == (
        "Your tank 4 was **destroyed** at 3,3 by Red"
    )
    lost = notices.describe(destroyed("red", by=None), "red", NAMES)
    assert lost == "Your tank 4 was **lost** at 3,3"


def test_city_capture_wording_and_bigness():
    event = ev.CityCaptured(
        tick=1, to=["blue", "green", "red"], nation="red", previous="blue", city="20,1", unit=1
    )
    assert told(event, "red", NAMES).startswith("**You captured 20,1** from Blue")
    assert notices.describe(event, "blue", NAMES) == "**Red captured your city 20,1**"
    assert notices.describe(event, "green", NAMES) == "Red captured Blue's city 20,1"
    assert notices.is_big(event, "red") and notices.is_big(event, "blue")
    assert not notices.is_big(event, "green")
    neutral = event.model_copy(update={"previous": None})
    assert "neutral" in told(neutral, "red", NAMES)


def test_relations():
    war = _sample(ev.RelationChanged)
    assert notices.describe(war, "blue", NAMES) == "**Red declared war on you!**"
    assert notices.describe(war, "red", NAMES) == "**You are now at war with Blue** (was neutral)"
    assert notices.is_big(war, "blue") and not notices.is_big(war, "red")
    notice = ev.RelationChanged(
        tick=10,
        to=["red", "blue"],
        nation="blue",
        other="red",
        level="non_aggression",
        previous="neutral",
        due_tick=106,
    )
    assert notices.describe(notice, "red", NAMES) == (
        "Blue's stance towards you becomes **non-aggression** in 24 h (was neutral)"
    )
    assert notices.describe(notice, "blue", NAMES) == (
        "Your stance towards Red becomes **non-aggression** in 24 h (was neutral)"
    )
    assert not notices.is_big(notice, "red")


def test_war_mirror_is_folded_in_digest():
    war = _sample(ev.RelationChanged)
    mirror = war.model_copy(update={"nation": "blue", "other": "red"})
    [message] = notices.digest([war, mirror], "blue", NAMES)
    assert message.splitlines()[1:] == ["**Red declared war on you!**"]


def test_bombing_sides():
    event = _sample(ev.Bombed)
    assert notices.describe(event, "red", NAMES) == (
        "Your heavy bomber 7 bombed 20,1: Blue's infantry 4 -5 (5 hp left)"
    )
    assert notices.describe(event, "blue", NAMES) == (
        "Red's heavy bomber 7 bombed your units at 20,1: your infantry 4 -5 (5 hp left)"
    )


def test_interception_and_interdiction_sides():
    i = _sample(ev.Intercepted)
    assert told(i, "red", NAMES).startswith(
        "Blue's fighter 30 intercepted your cargo plane 7 at 9,9: hit for 4"
    )
    assert told(i, "blue", NAMES).startswith("Your fighter 30 intercepted Red's")
    d = _sample(ev.Interdicted)
    assert "Blue's destroyer 31 fired on your transport 3" in told(d, "red", NAMES)


def test_icbm_is_big_for_everyone_told():
    event = _sample(ev.IcbmLaunched)
    assert notices.is_big(event, "red") and notices.is_big(event, "blue")
    assert told(event, "red", NAMES).startswith("**You launched an ICBM 1** at 20,1")
    assert "**your cities were hit**" in told(event, "blue", NAMES)


def test_game_events():
    start = _sample(ev.GameStarted)
    assert notices.is_big(start, "red")
    assert "ends in 10 days" in told(start, "red", NAMES)
    end = _sample(ev.GameEnded)
    assert notices.is_big(end, "blue")
    assert told(end, "red", NAMES).startswith("**The game is over: you won!**")
    assert told(end, "blue", NAMES).startswith("**The game is over.** Winner: Red")
    out = _sample(ev.NationEliminated)
    assert notices.is_big(out, "blue") and not notices.is_big(out, "red")
    assert told(out, "blue", NAMES).startswith("**You have been eliminated.**")
    assert notices.describe(out, "red", NAMES) == "**Blue has been eliminated**"


def test_routine_events_are_not_big():
    for cls in (ev.UnitBuilt, ev.BuildSkipped, ev.TechReached, ev.MoveBlocked, ev.Attacked):
        event = _sample(cls)
        assert not any(notices.is_big(event, n) for n in event.to)


def test_silent_and_quiet_kinds():
    moved = _sample(ev.UnitsMoved)
    assert notices.describe(moved, "red", NAMES) is None
    assert notices.digest([moved], "red", NAMES) == []
    assert notices.describe(_sample(ev.OrderCompleted), "red", NAMES) == "Your unit 2 reached 5,5"
    sat = _sample(ev.SatelliteLaunched)
    assert notices.describe(sat, "blue", NAMES) == "Red launched a **satellite**"


def test_player_changed():
    line = notices.describe(_sample(ev.PlayerChanged), "red", NAMES)
    assert line == "A moderator handed your nation to **the AI** (was <@100>)"


def test_city_and_build_wording():
    assert notices.describe(_sample(ev.CityChanged), "red", NAMES) == (
        "Your city 3,4 is now a tech centre and builds engineer"
    )
    assert notices.describe(_sample(ev.UnitBuilt), "red", NAMES) == (
        "Your city 3,4 built heavy bomber 9"
    )


# --- digests ------------------------------------------------------------------------------------


def _skipped(city: str, unit: str = "infantry") -> ev.BuildSkipped:
    return ev.BuildSkipped(
        tick=3, to=["red"], nation="red", city=city, unit=unit, power=105, limit=100
    )


def test_digest_collapses_repeats_and_orders_by_category():
    batch = [
        _skipped("3,4"),
        _sample(ev.TechReached),
        _skipped("5,6"),
        attacked(),
        _skipped("2,2"),
        _skipped("7,7"),
        _skipped("8,8", unit="tank"),
    ]
    [message] = notices.digest(batch, "red", NAMES, clock="day 3 14:15")
    lines = message.splitlines()
    assert lines[0] == "**day 3 14:15** - 7 reports"
    assert lines[1].startswith("Your infantry 12 attacked")  # combat first
    assert lines[2] == "Your nation reached **tech level 2**"
    assert lines[3] == (
        "4 builds skipped for lack of power: infantry at 3,4, 5,6, 2,2, 7,7 (limit 100)"
    )
    assert lines[4].startswith("Build skipped for lack of power: tank at 8,8")
    assert len(lines) == 5


def test_collapsed_line_says_how_many_more():
    batch: list[ev.Event] = [_skipped(f"{i},1") for i in range(12)]
    [message] = notices.digest(batch, "red", NAMES)
    assert message.splitlines() == [
        "**12 reports**",
        "12 builds skipped for lack of power: infantry at 0,1, 1,1, 2,1, 3,1 and 8 more (limit 100)",
    ]


def test_digest_drops_a_kill_the_combat_line_already_told():
    attack = attacked(defender_hp=0, counter=0)
    dead = ev.UnitDestroyed(
        tick=5,
        to=["blue", "red"],
        nation="blue",
        unit=40,
        unit_type="tank",
        square="12,7",
        by="red",
    )
    cargo = dead.model_copy(update={"unit": 41, "unit_type": "infantry"})
    [message] = notices.digest([attack, dead, cargo], "red", NAMES)
    lines = message.splitlines()
    assert lines[0] == "**2 reports**"
    assert "**destroyed**" in lines[1]
    assert lines[2] == "You **destroyed** Blue's infantry 41 at 12,7"


def test_digest_splits_at_the_limit_without_splitting_lines():
    # (lines no rule folds: repeated fights between the same two nations would fold)
    batch: list[ev.Event] = [
        ev.TechReached(tick=i, to=["blue"], nation="blue", level=i) for i in range(300)
    ]
    messages = notices.digest(batch, "blue", NAMES, clock="day 1 00:15")
    assert len(messages) > 1
    assert all(len(m) <= 2000 for m in messages)
    lines = [line for m in messages for line in m.splitlines()]
    assert lines[0] == "**day 1 00:15** - 300 reports"
    expected = [notices.describe(e, "blue", NAMES) for e in batch]
    assert lines[1:] == expected  # every line whole, in order


def test_digest_small_limit_clips_long_lines():
    messages = notices.digest([_sample(ev.IcbmLaunched)] * 2, "blue", NAMES, limit=60)
    assert all(len(m) <= 60 for m in messages)
    with pytest.raises(ValueError):
        notices.digest([attacked()], "red", NAMES, limit=5)


def test_identical_lines_are_counted():
    [message] = notices.digest([_sample(ev.TechReached)] * 2, "red", NAMES)
    assert message.splitlines()[1] == "Your nation reached **tech level 2** (×2)"


def test_summarise_counts():
    batch = [attacked(), _skipped("1,1"), _skipped("2,2"), _sample(ev.UnitsMoved)]
    counts = notices.summarise_counts(batch, "red")
    assert list(counts) == list(notices.CATEGORIES)
    assert counts["combat"] == 1 and counts["builds"] == 2 and counts["moves"] == 0
    assert notices.summarise_counts(batch, "blue")["combat"] == 1
    assert sum(notices.summarise_counts(batch, "green").values()) == 0


def test_long_lines_are_clipped():
    hits = [
        {"unit": i, "type": "heavy_bomber", "owner": "blue", "damage": 1, "hp": 1}
        for i in range(50)
    ]
    event = _sample(ev.Bombed).model_copy(update={"hits": hits})
    line = told(event, "blue", {"red": "R" * 200, "blue": "B" * 200})
    assert len(line) <= MAX_LINE
    assert line.count("**") % 2 == 0


# --- cessions -------------------------------------------------------------------------------------


def test_a_cession_is_told_from_each_side() -> None:
    items = [
        {"unit": 5, "type": "heavy_bomber", "square": "12,7"},
        {"unit": 6, "type": "infantry", "square": "12,7"},
    ]
    units = ev.UnitsCeded(tick=1, to=["red", "blue"], nation="red", receiver="blue", units=items)
    told = ev.UnitsCeded(tick=1, to=["green"], nation="red", receiver="blue", units=items[1:])
    city = ev.CityCeded(
        tick=1, to=["red", "blue", "green"], nation="red", receiver="blue", city="4,1"
    )
    names = {**NAMES, "green": "Green"}
    assert notices.describe(units, "red", names) == (
        "You ceded 2 units to Blue: heavy bomber 5 at 12,7 and infantry 6 at 12,7"
    )
    assert notices.describe(units, "blue", names) == (
        "**Red ceded you 2 units**: heavy bomber 5 at 12,7 and infantry 6 at 12,7"
    )
    assert notices.describe(told, "green", names) == "Red ceded 1 unit to Blue: infantry 6 at 12,7"
    assert notices.describe(city, "blue", names) == "**Red ceded you the city at 4,1**"
    assert notices.describe(city, "red", names) == "You ceded your city 4,1 to Blue"
    assert notices.describe(city, "green", names) == "Red ceded its city 4,1 to Blue"
    assert notices.is_big(city, "blue") and not notices.is_big(city, "red")
    gone = ev.UnitsDisbanded(tick=1, to=["red"], nation="red", units=items[:1])
    assert notices.describe(gone, "red", names) == "You disbanded 1 unit: heavy bomber 5 at 12,7"
    assert notices.describe(gone, "blue", names) is None


# --- a report in the order a player acts on it (issue 29, item 7) -------------------------------


def _intercept(
    square: str,
    *,
    hp: int = 6,
    interceptor: str = "blue",
    mover: str = "green",
    to: Sequence[str] = ("blue", "green", "red"),
) -> ev.Intercepted:
    """The interceptor's fighter 30 hits the mover's cargo plane 7 at `square`, leaving it `hp`."""
    return ev.Intercepted(
        tick=1,
        to=list(to),
        interceptor=interceptor,
        mover=mover,
        square=square,
        fighter=30,
        fighter_type="fighter",
        unit=7,
        unit_type="cargo_plane",
        damage=4,
        counter=0,
        unit_hp=hp,
        fighter_hp=10,
    )


def test_losses_and_threats_come_first_and_others_fights_fold_into_one_line():
    lost = ev.CityCaptured(
        tick=1, to=["blue", "red"], nation="blue", previous="red", city="4,4", unit=9
    )
    hit = attacked(attacker="blue", defender="red", attacker_unit=40, defender_unit=12)
    batch = [
        _skipped("3,4"),
        _sample(ev.TechReached),
        *[_intercept(sq) for sq in ("12,30", "12,31", "13,30", "11,29", "12,30", "14,32")],
        _intercept("12,31", hp=0),
        ev.UnitBuilt(tick=1, to=["red"], nation="red", city="3,4", unit="tank", unit_id=50),
        hit,
        lost,
    ]
    [message] = notices.digest(batch, "red", NAMES, clock="day 3 14:15")
    lines = message.splitlines()[1:]
    assert lines[0] == "**Blue captured your city 4,4**"  # a loss first
    assert lines[1].startswith("Blue's infantry 40 attacked your")  # then a threat
    # the routine after, and seven interceptions between two other nations in one line, last
    assert lines[-1] == (
        "7 interceptions near 12,30: Blue's aircraft hit Green's units; "
        "destroyed: Green's cargo plane 7"
    )
    assert len(lines) == 6, lines
    # the others' fights are their own topic, muted by default
    assert notices.category(batch[2], "red") == "others"
    assert notices.category(batch[2], "green") == "combat"
    assert notices.category(hit, "red") == "combat"


def _sighted(city: str, unit: int = 40) -> ev.EnemiesSighted:
    """Blue's tank (and infantry) seen near red's city, told to red."""
    return ev.EnemiesSighted(
        tick=1,
        to=["red"],
        nation="red",
        city=city,
        enemy="blue",
        units=[
            {"unit": unit, "type": "tank", "square": "5,4"},
            {"unit": unit + 1, "type": "infantry", "square": "6,6"},
        ],
    )


def test_enemies_near_a_city_come_first_after_losses_and_fold_per_enemy():
    lost = ev.CityCaptured(
        tick=1, to=["blue", "red"], nation="blue", previous="red", city="4,4", unit=9
    )
    batch = [_skipped("3,4"), _sample(ev.TechReached), _sighted("3,4"), lost]
    [message] = notices.digest(batch, "red", NAMES, clock="day 3 14:15")
    lines = message.splitlines()[1:]
    assert lines[:2] == [
        "**Blue captured your city 4,4**",
        "**Blue's units near your city 3,4**: tank 40 at 5,4 and infantry 41 at 6,6",
    ]
    assert notices.category(batch[2], "red") == "combat"  # not the muted `others`
    # seen, gone and seen again before the report went: told once, where it was last seen
    again = _sighted("3,4", unit=50)
    [message] = notices.digest([_sighted("3,4"), again], "red", NAMES)
    assert message.splitlines()[1:] == [
        "**Blue's units near your city 3,4**: tank 50 at 5,4 and infantry 51 at 6,6"
    ]
    # one enemy near many cities: one line
    many: list[ev.Event] = [
        _sighted(sq, unit=10 * i) for i, sq in enumerate(("3,4", "9,9", "20,1", "2,2"))
    ]
    [message] = notices.digest(many, "red", NAMES)
    assert message.splitlines()[1:] == [
        "**Blue's units near 4 of your cities**: 3,4, 9,9, 20,1, 2,2 (8 units)"
    ]


def test_a_player_is_not_told_of_other_nations_fights_until_they_unmute_them():
    from bot.dm.notifier import PlayerSettings
    from bot.dm.text import CATEGORIES, DEFAULT_MUTED

    assert PlayerSettings().muted == list(DEFAULT_MUTED) == ["others"]
    assert "others" in CATEGORIES


def test_many_cities_changing_their_builds_fold_into_one_line():
    changed: list[ev.Event] = [
        ev.CityChanged(
            tick=1, to=["red"], nation="red", city=f"{i},1", designation="fort", build="tank"
        )
        for i in range(5)
    ]
    [message] = notices.digest(changed, "red", NAMES)
    assert message.splitlines()[1:] == [
        "5 of your cities changed what they build: 0,1 (fort: tank), 1,1 (fort: tank), "
        "2,1 (fort: tank), 3,1 (fort: tank) and 1 more"
    ]


def test_a_battle_attack_tells_its_dice_to_both_sides() -> None:
    """Ruleset total-war: each attack of a battle in rounds says its roll, what it needed, and
    the counter-attack's; a hit destroys."""
    missed = attacked(
        turn=1,
        damage=0,
        counter=0,
        attack_roll=ev.BattleRoll(need=5, n=10, roll=9, bonus=True),
        counter_roll=ev.BattleRoll(need=2, n=11, roll=7),
    )
    line = told(missed, "red", NAMES)
    assert line.startswith("Your infantry 12 attacked Blue's tank 40 at 12,7 (battle turn 1)")
    assert "rolled 9 of 1-10 (5 or less hits, effective): missed" in line
    assert "counter rolled 7 of 1-11 (2 or less hits): missed" in line
    hit = attacked(
        turn=2, damage=9, counter=0, defender_hp=0, attack_roll=ev.BattleRoll(need=3, n=7, roll=2)
    )
    line = told(hit, "blue", NAMES)
    assert "Red's infantry 12 attacked your tank 40" in line
    assert "rolled 2 of 1-7 (3 or less hits): tank 40 **destroyed**" in line
    assert len(line) <= MAX_LINE
