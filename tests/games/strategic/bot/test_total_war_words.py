"""How total-war's events read (two-part ICBMs, wastelands, the collapse): in each nation's DMs
and in the channel's news."""

from __future__ import annotations

from bot.games.strategic import notices
from bot.games.strategic.feed import feed_lines
from engine.strategic import events as ev

NAMES = {"red": "Red", "blue": "Blue", "green": "Green"}
EVERYONE = ["blue", "green", "red"]


def launch(**changes) -> ev.IcbmLaunched:
    base = {
        "tick": 8,
        "to": EVERYONE,
        "nation": "red",
        "unit_type": "explosive_warhead",
        "square": "12,1",
        "radius": 0,
        "counter": False,
        "hit": False,
        "chance": 90,
        "ecology": 0,
        "collapse_at": 60,
    }
    return ev.IcbmLaunched(**{**base, **changes})


def test_a_miss_says_so_with_its_chance_and_the_meter() -> None:
    text = notices.describe(launch(), "blue", NAMES)
    assert text == (
        "**Red launched an explosive warhead** at 12,1 (radius 0, 90% to hit): **it missed** and "
        "exploded harmlessly; the ecological meter stands at **0/60**"
    )
    (line,) = feed_lines([launch()], NAMES)
    assert line == (
        "☢️ **Red** launched an ICBM at 12,1 (blast radius 0): it missed; the ecological meter "
        "stands at 0/60."
    )


def test_a_standard_launch_reads_as_it_always_did() -> None:
    old = ev.IcbmLaunched(
        tick=8, to=EVERYONE, nation="red", unit_type="icbm_1", square="12,1", radius=0,
        counter=False, devastated=["12,1"],
    )  # fmt: skip
    assert notices.describe(old, "green", NAMES) == (
        "**Red launched an ICBM 1** at 12,1 (radius 0): 1 city devastated (12,1)"
    )
    assert feed_lines([old], NAMES) == ["☢️ **Red** launched an ICBM at 12,1 (blast radius 0)."]


def test_parts_in_a_captured_city_and_a_unit_lost_in_a_wasteland() -> None:
    taken = ev.CityCaptured(
        tick=8, to=["blue", "red"], nation="red", previous="blue", city="1,1", unit=4,
        parts_destroyed=[1, 3], parts_taken=[2],
    )  # fmt: skip
    assert "ICBM parts 1 and 3 destroyed, ICBM part 2 yours now" in str(
        notices.describe(taken, "red", NAMES)
    )
    assert "ICBM part 2 Red's now" in str(notices.describe(taken, "blue", NAMES))
    died = ev.UnitDestroyed(
        tick=9, to=["blue"], nation="blue", unit=3, unit_type="infantry", square="7,1",
        wasteland=True,
    )  # fmt: skip
    assert notices.describe(died, "blue", NAMES) == (
        "Your infantry 3 **died** in the wasteland at 7,1"
    )


def test_the_collapse_is_told_to_everyone_and_in_the_channel() -> None:
    end = ev.GameEnded(
        tick=20, to=EVERYONE, standings=[{"nations": ["red"], "cities": 2}], winners=[],
        collapse=True,
    )  # fmt: skip
    for nation in EVERYONE:
        text = notices.describe(end, nation, NAMES)
        assert text is not None and text.startswith("**Society has collapsed.**")
        assert "every nation lost" in text
    assert feed_lines([end], NAMES) == [
        "🌋 Society has collapsed under the wastelands' ecological damage: the game is over "
        "and every nation lost."
    ]
