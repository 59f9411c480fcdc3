"""The starter deck (the project's own design) loads and holds together; a server's deck that does
not is refused with a message naming the bad entry."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.caldera.rules import DECKS_DIR, DeckError, load, load_deck

STARTER = (DECKS_DIR / "starter.toml").read_text(encoding="utf-8")
RULES = load("standard")
DECK = load_deck("starter", "standard")


def deck_with(tmp_path: Path, old: str, new: str) -> Path:
    """The starter deck with `old` (which must be in it) written as `new`, as a server's file."""
    assert old in STARTER, old
    path = tmp_path / "server-deck.toml"
    path.write_text(STARTER.replace(old, new, 1), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(DeckError) as caught:
        load_deck(path, RULES)
    return str(caught.value)


def test_the_starter_deck_is_the_rules_deck_and_is_cached() -> None:
    assert RULES.deck == "starter"
    assert load_deck("starter", "standard") is DECK
    assert len(DECK.cards) == 126 and len(DECK.techs) == 21 and len(DECK.event_cards) == 12


def test_every_number_is_a_sixth_of_the_main_deck() -> None:
    """The event table, missions and rewards read a card's number: each as likely."""
    assert Counter(c.number for c in DECK.cards) == dict.fromkeys(range(1, 7), 21)
    assert Counter(c.bonus for c in DECK.cards) == {"": 84, "+tech": 21, "+layout": 21}


def test_the_techs_the_seed_names_are_in_the_deck() -> None:
    assert DECK.of_category("class") == [
        "interceptor",
        "frigate",
        "destroyer",
        "cruiser",
        "battleship",
        "dreadnought",
    ]
    assert DECK.of_category("engine") == [
        "nuclear-engine",
        "cold-fusion-drive",
        "ion-drive",
        "antimatter-drive",
        "warp-drive",
    ]
    weapons = {t: DECK.techs[t].weapon for t in DECK.of_category("weapon")}
    assert weapons == {
        "laser-cannon": "laser",
        "tnt-mine": "mine",
        "fusion-cannon": "laser",
        "nuclear-missile": "missile",
        "laser-beam": "beam",
        "fighter-bay": "fighters",
    }
    covers = {t: DECK.techs[t].covers for t in DECK.of_category("defence")}
    assert covers == {
        "plating": ["beam", "fighters", "laser", "missile", "mine"],
        "anti-aircraft": ["fighters", "missile"],
        "force-field": ["beam", "laser"],
    }
    assert DECK.of_category("utility") == ["mining-bots"]


def test_starting_ships_cost_what_their_bonus_costs() -> None:
    """An Earth interceptor (nuclear engine, 2 laser cannons) costs the 50 of its bonus and an
    Earth frigate (cold fusion, 4 fusion cannons) the 200 of its bonus; both fit their hull."""
    for bonus_id in ("earth-interceptor", "earth-frigate"):
        bonus = RULES.bonus(bonus_id)
        assert bonus is not None
        ship = RULES.starting_ships[bonus.ship]
        parts = [ship.class_, ship.engine, *ship.parts]
        assert sum(DECK.techs[p].build_cost for p in parts) == bonus.cost
        used = sum(DECK.techs[p].size for p in parts[1:])
        assert used <= DECK.techs[ship.class_].size


def test_a_design_step_of_the_nuclear_engine_costs_its_bonus() -> None:
    """Designing costs research cost / 5: the nuclear engine's layout is the 30 of its bonus."""
    assert DECK.techs["nuclear-engine"].research_cost // RULES.design.cost_divisor == 30


def test_an_npc_engine_past_the_deck_is_its_best_engine() -> None:
    assert DECK.best("engine", 6) == "warp-drive"
    assert DECK.best("engine", 2) == "cold-fusion-drive"
    assert DECK.best("class", 0) is None


def test_event_cards_last_their_turns_times_the_zone_when_z() -> None:
    storm = DECK.event_card("solar-storm")
    freeze = DECK.event_card("budget-freeze")
    assert (storm.duration(3), freeze.duration(3)) == (1, 3)
    assert {e.effect for e in DECK.event_cards} >= {"wingman", "rare-cargo"}


def test_a_card_of_an_unknown_tech_is_refused(tmp_path: Path) -> None:
    path = deck_with(
        tmp_path,
        '{ number = 2, tech = "frigate", bonus = "+layout" }',
        '{ number = 2, tech = "frigatte" }',
    )
    assert "cards[7] (frigatte-2): no tech 'frigatte' in the deck's techs" in refusal(path)


def test_a_number_out_of_1_to_6_is_refused(tmp_path: Path) -> None:
    path = deck_with(
        tmp_path, '{ number = 4, tech = "frigate" }', '{ number = 7, tech = "frigate" }'
    )
    assert "cards[9] (frigate-7): number 7 is not 1-6" in refusal(path)


def test_layouts_must_be_five_values(tmp_path: Path) -> None:
    path = deck_with(tmp_path, "layouts = [3, 3, 4, 4, 5]", "layouts = [3, 3, 4, 4]")
    assert "techs.laser-cannon: layouts must be exactly 5 values, not 4" in refusal(path)


def test_falling_layouts_are_refused(tmp_path: Path) -> None:
    path = deck_with(tmp_path, "layouts = [4, 5, 6, 7, 8]", "layouts = [4, 5, 2, 7, 8]")
    assert "techs.nuclear-engine: layout values must not fall" in refusal(path)


def test_two_cards_with_one_id_are_refused(tmp_path: Path) -> None:
    path = deck_with(
        tmp_path, '{ number = 4, tech = "frigate" }', '{ number = 3, tech = "frigate" }'
    )
    assert "two cards have the id 'frigate-3'" in refusal(path)


def test_a_deck_missing_a_number_is_refused(tmp_path: Path) -> None:
    lines = [ln for ln in STARTER.splitlines() if "number = 6" not in ln]
    path = tmp_path / "no-sixes.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert "cards: no card has the number 6" in refusal(path)


def test_a_deck_without_the_starting_ships_parts_is_refused(tmp_path: Path) -> None:
    path = deck_with(tmp_path, "[techs.fusion-cannon]", "[techs.fusion-gun]")
    message = refusal(path)
    assert (
        "starting_ships.earth-frigate (the rules): the deck has no tech 'fusion-cannon'" in message
    )
    assert "cards[" in message and "no tech 'fusion-cannon'" in message


def test_a_starting_tech_with_other_figures_than_the_seed_is_refused(tmp_path: Path) -> None:
    path = deck_with(
        tmp_path, "size = 5\nbuild_cost = 10\nbase = 3", "size = 5\nbuild_cost = 12\nbase = 3"
    )
    assert (
        "techs.nuclear-engine: cost 12 and size 5 must be the rules' starting figures 10 and 5"
        in refusal(path)
    )


def test_a_wrong_field_names_its_card(tmp_path: Path) -> None:
    path = deck_with(
        tmp_path,
        '{ number = 5, tech = "frigate", bonus = "+tech" }',
        '{ number = 5, tech = "frigate", bonus = "+hull" }',
    )
    message = refusal(path)
    assert message.startswith("server-deck.toml: cards[10] (frigate 5).bonus:")


def test_an_unknown_key_is_refused(tmp_path: Path) -> None:
    path = deck_with(tmp_path, 'name = "Plating"', 'name = "Plating"\ncolour = "grey"')
    assert "techs.plating.colour: Extra inputs are not permitted" in refusal(path)


def test_a_ship_class_needs_structure(tmp_path: Path) -> None:
    path = deck_with(tmp_path, "structure = 25\n", "")
    assert "techs.frigate: a ship class needs structure points" in refusal(path)


def test_an_unknown_deck_name_is_refused() -> None:
    with pytest.raises(DeckError, match="unknown deck 'big'; available: starter"):
        load_deck("big")


def test_a_missing_file_and_bad_toml_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="no such file"):
        load_deck(tmp_path / "gone.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("cards = [", encoding="utf-8")
    with pytest.raises(DeckError, match="not valid TOML"):
        load_deck(bad)
