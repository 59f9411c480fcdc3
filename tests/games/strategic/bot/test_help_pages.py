"""`/help` teaches what a player types (issue 29, item 12): the commands page names every
command the bot registers for this game and the shell, how to choose units, and `/units`'
filters; and the combat page says who attacks what as the ruleset's flags have it."""

from __future__ import annotations

import re

import pytest

from bot.games.strategic import selectors
from bot.games.strategic.help import page
from bot.sandbox import command_specs
from engine.strategic.rules import available, load
from engine.strategic.view import view_for
from tests.games.strategic.worlds import strip_world

# what another game adds to the bot (its own /help tells it)
OTHER_GAMES = (
    "orders",
    "game create supply-lines",
    "mod deadline",
    "captain",
    "game create caldera",
    "mod turn",
)


@pytest.mark.parametrize("ruleset", available())
async def test_the_commands_page_names_every_command(ruleset: str) -> None:
    text = page(load(ruleset), "commands")
    assert len(text) <= 2000
    for path in await command_specs():
        if path.startswith(OTHER_GAMES):
            continue
        shown = path.removesuffix(" strategic-initiative")
        assert f"`/{shown}" in text, f"/{shown} is not on the commands page"


def test_the_commands_page_teaches_selectors_that_work_and_the_units_filters() -> None:
    world = strip_world()
    view = view_for(world, "red")
    text = page(world.rules, "commands")
    for example in ("all at 12,7", "idle tanks", "tanks at 12,7"):
        assert f"`{example}`" in text
    # every group it shows is one the selectors read (the strip's red has infantry at 1,1)
    for example in ("all at 1,1", "idle inf", "ready land", "infantry at 1,1", "damaged land"):
        try:
            selectors.resolve(example, view, world.rules)
        except Exception as exc:  # noqa: BLE001 - only "none of yours" is a fair refusal
            assert "You have no" in str(exc), (example, exc)
    for option in ("type:", "at:", "ready:", "orders:", "group:"):
        assert f"`{option}" in text


@pytest.mark.parametrize("ruleset", available())
def test_who_attacks_what_follows_the_ruleset(ruleset: str) -> None:
    rules = load(ruleset)
    text = page(rules, "combat")
    line = next(li for li in text.splitlines() if li.startswith("**Who attacks what**"))
    for u in rules.units:
        if u.unit_class.value == "sea" and u.can_attack_land:
            assert f"{u.title.lower()}s also hit land units" in line
        if u.bomb_percent is not None:
            assert re.search(rf"\b{u.title.lower()}s\b[^.]*bomb it", line), u.name
        if not u.attack and u.bomb_percent is None and u.moves_on.value != "none":
            assert f"{u.title.lower()}s" in line.split("hit aircraft.")[1].lower(), u.name


@pytest.mark.parametrize("ruleset", available())
def test_every_page_fits_one_message(ruleset: str) -> None:
    from bot.games.strategic.help import TOPICS

    for topic in TOPICS:
        assert len(page(load(ruleset), topic)) <= 2000, topic


def test_the_battles_page_tells_total_war_with_its_own_numbers() -> None:
    rules = load("total-war")
    battle = rules.battle
    assert battle is not None
    text = page(rules, "battles")
    assert f"+{battle.effective_bonus_percent}% attack" in text
    assert f"counter +{battle.weak_bonus_percent}%" in text
    assert f"ceil(its units ÷ {battle.misses_per_troops}) misses" in text
    assert f"{battle.turns} turns a side" in text
    rows = {
        line.split(" > ")[0].strip(): line.split(" > ")[1]
        for line in text.splitlines()
        if " > " in line
    }
    for attacker, defenders in battle.effective.items():
        row = rows[rules.unit[attacker].title.lower()[:14]]
        for d in defenders:
            title = rules.unit[d].title.lower()
            assert title in row or rules.unit[d].unit_class.value == "sea" and "ships" in row, (
                attacker,
                d,
            )
    assert "battle tank (tech 12, after tank)" in text
    assert "`/help topic:battles`" in page(rules, "combat")


def test_the_battles_page_of_a_ruleset_without_battles_points_to_total_war() -> None:
    text = page(load("standard"), "battles")
    assert "one exchange" in text and "total-war" in text
