"""The AI's style profiles: complete, frozen, commented, and each style differs from `normal`
only where the docs (engine/strategic/ai/__init__.py, docs/ARCHITECTURE.md) say it does; the policy
reads profiles, never a style's name."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine.strategic.ai import EVERY_HOURS, PROFILES, STYLES, Profile
from engine.strategic.ai.brain import LEVELS, Decision, Memory, decide, failed, resting

AI = Path(__file__).resolve().parents[4] / "engine" / "strategic" / "ai"

# what each style changes from `normal`, as documented
DOCUMENTED = {
    "normal": {},
    "easy": {
        "every_hours": 3,
        "founds_cities": False,
        "makes_alliances": False,
        "warships_for_war": False,
        "builds_bombers": False,
    },
    "caretaker": {
        "every_hours": 1,
        "founds_cities": False,
        "expands": False,
        "goes_abroad": False,
        "scouts": False,
        "makes_alliances": False,
        "starts_wars": False,
        "waits_to_assault": False,
        "warships_for_war": False,
        "builds_bombers": False,
        "sends_builds_to_front": False,
        "launches_icbms": False,
    },
    "expand": {
        "every_hours": 1,
        "founds_cities": False,
        "makes_alliances": False,
        "starts_wars": False,
        "builds_tanks": False,
        "builds_warships": False,
        "warships_for_war": False,
        "builds_bombers": False,
        "builds_airport": False,
        "builds_engineers": False,
        "launches_icbms": False,
        "more_ports": False,
        "naive_loading": True,
        "sends_builds_to_front": False,
    },
    "passive": {"every_hours": 1, "gives_orders": False},
}


def test_one_profile_per_style() -> None:
    assert set(PROFILES) == set(STYLES) == set(DOCUMENTED)
    assert STYLES == ("normal", "easy", "caretaker", "expand", "passive")
    assert set(LEVELS) <= set(STYLES)
    assert all(isinstance(p, Profile) for p in PROFILES.values())


@pytest.mark.parametrize("style", STYLES)
def test_each_style_differs_from_normal_only_where_documented(style: str) -> None:
    normal, profile = PROFILES["normal"], PROFILES[style]
    differs = {
        f.name: getattr(profile, f.name)
        for f in dataclasses.fields(Profile)
        if getattr(profile, f.name) != getattr(normal, f.name)
    }
    assert differs == DOCUMENTED[style]


def test_profiles_are_complete_and_well_typed() -> None:
    """Every field is a yes/no or a positive number, in every profile."""
    for style, profile in PROFILES.items():
        for f in dataclasses.fields(Profile):
            value = getattr(profile, f.name)
            if f.type == "bool":
                assert isinstance(value, bool), (style, f.name, value)
            else:
                assert f.type in ("int", "float"), f.name
                assert isinstance(value, int | float) and not isinstance(value, bool)
                assert value > 0, (style, f.name, value)


def test_profiles_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PROFILES["normal"].every_hours = 5  # type: ignore[misc]


def test_every_field_has_a_one_line_comment() -> None:
    source = (AI / "profile.py").read_text()
    for f in dataclasses.fields(Profile):
        line = re.search(rf"^    {f.name}: \w+ = [^\n]*$", source, re.M)
        assert line is not None, f.name
        assert re.search(r"  # \S", line.group(0)), f"{f.name} has no comment"


def test_cadence_derived_from_the_profiles() -> None:
    assert EVERY_HOURS == {"normal": 2, "easy": 3, "caretaker": 1, "expand": 1, "passive": 1}
    assert {s: p.every_hours for s, p in PROFILES.items()} == EVERY_HOURS
    memory = Memory(decided=10)
    assert resting(memory, "easy", 11 * 4, 4)
    assert resting(memory, "easy", 12 * 4, 4)
    assert not resting(memory, "easy", 13 * 4, 4)
    assert not resting(memory, "caretaker", 11 * 4, 4)


def test_public_names_stay_importable() -> None:
    import engine.strategic.ai as ai

    for name in ("decide", "Memory", "Decision", "STYLES", "EVERY_HOURS", "resting", "failed"):
        assert getattr(ai, name) is not None
    assert ai.decide is decide and ai.Memory is Memory and ai.Decision is Decision
    assert ai.failed is failed and ai.resting is resting


def test_no_module_branches_on_a_style_name() -> None:
    names = "|".join(STYLES)
    policy = ("brain", "state", "known", "memory", "war", "fight", "builds", "sealift", "land")
    for name in policy:
        code = (AI / f"{name}.py").read_text()
        assert not re.search(r"style\s*(==|!=)|style in \(", code), name
        if name != "brain":  # its LEVELS and default style name styles
            assert not re.search(rf"[\"']({names})[\"']", code), name


def test_modules_stay_small() -> None:
    for path in sorted(AI.glob("*.py")):
        assert len(path.read_text().splitlines()) <= 400, path.name


def test_an_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="an AI style is one of normal, easy"):
        decide(None, Memory(), "aggressive")  # type: ignore[arg-type]
