"""Caldera's bot side without Discord: its creation options, what its DMs tell whom, its hands'
menus, its help pages (numbers from the rules) and its command line."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from bot.context import UserError
from bot.games.caldera import help as caldera_help
from bot.games.caldera.notices import TELLER, describe
from bot.games.caldera.side import SIDE
from engine.caldera import events as ev
from engine.caldera.rules import load, load_deck

NAMES = {"ann": "Ann", "bob": "Bob"}


def test_a_new_campaign_takes_its_own_options_and_refuses_others() -> None:
    made = SIDE.creation(
        {"nations": 2, "turn_hours": 0.0, "deck": None, "ruleset": None}, days=None
    )
    assert made.options == {
        "ruleset": "standard",
        "deck": "starter",
        "max_nations": 2,
        "turn_hours": 0.0,
        "length_days": 60,
    }
    refused: list[tuple[dict[str, Any], str]] = [
        ({"deck": "../../etc/passwd"}, "There is no Caldera deck '../../etc/passwd'"),
        ({"nations": 7}, "1 to 6 captains"),
        ({"turn_hours": 0.1}, "a quarter of an hour to 168"),
        ({"size": "40x40"}, "no size"),
        ({"map_name": "four"}, "Caldera games have no map_name option"),
        ({"ruleset": "classic"}, "Caldera has the rules standard, not 'classic'"),
    ]
    for options, says in refused:
        with pytest.raises(UserError, match=None) as err:
            SIDE.creation(options, days=None)
        assert says in str(err.value), (options, str(err.value))


def test_a_captains_hand_and_income_are_told_to_them_alone() -> None:
    hand = ev.HandDrawn(tick=1, to=["ann"], captain="ann", hand="design", cards=["plating-2"])
    income = ev.Income(tick=1, to=["ann"], captain="ann", mined={"0,0": 40}, credits=44, total=544)
    assert describe(hand, "bob", NAMES) == [] and describe(income, "bob", NAMES) == []
    assert TELLER.menus([hand, income], "bob", 7) == []
    assert describe(income, "ann", NAMES) == ["Income: 44 credits (mined 40 at 0,0); you have 544."]
    (menu,) = TELLER.menus([hand], "ann", 7)
    assert menu.custom_id == "cal:card:7:design"
    # a design may be left: the menu offers none
    assert [v for _, v, _ in menu.options] == ["plating-2", "none"]
    assert menu.options[0][0] == "Plating (level 1 defence; card 2)"


def test_a_hands_menu_reads_the_games_own_deck(tmp_path) -> None:
    """A server's own deck names its cards as it likes: the menu's labels are its techs, not
    the starter deck's (whose ids the card would otherwise show)."""
    from types import SimpleNamespace

    from engine.caldera.rules import DECKS_DIR

    starter = (DECKS_DIR / "starter.toml").read_text(encoding="utf-8")
    old = '{ number = 2, tech = "plating" }'
    assert old in starter
    path = tmp_path / "aegis.toml"
    path.write_text(
        starter.replace(old, '{ id = "aegis-hull", number = 2, tech = "plating" }'),
        encoding="utf-8",
    )
    hand = ev.HandDrawn(tick=1, to=["ann"], captain="ann", hand="design", cards=["aegis-hull"])
    game = SimpleNamespace(id=7, ruleset="standard", settings={"deck": str(path)})
    (menu,) = TELLER.menus([hand], "ann", 7, game=game)  # type: ignore[arg-type]
    assert menu.options[0][:2] == ("Plating (level 1 defence; card 2)", "aegis-hull")
    # the starter deck knows no such card: without the game, its id
    (bare,) = TELLER.menus([hand], "ann", 7)
    assert bare.options[0][:2] == ("aegis-hull", "aegis-hull")


def test_a_battle_is_told_round_by_round_in_lines_a_dm_keeps_whole() -> None:
    salvos = [
        {
            "side": side,
            "weapon": "laser-cannon",
            "type": "laser",
            "hits": 3,
            "damage": 4,
            "ships": [i],
        }
        for i, side in enumerate(["ann", "bob", "rogers-pirates-1"] * 6, 1)
    ]
    damage = [
        {"ship": i, "side": "rogers-pirates-1", "points": 5, "absorbed": 1, "structure": 3}
        for i in range(1, 30)
    ]
    report = ev.BattleReport(
        tick=3,
        to=["ann", "bob"],
        at="1,-1",
        rounds=[{"number": 1, "salvos": salvos, "damage": damage, "destroyed": [4], "left": []}],
        destroyed=[4],
        winner="captains",
    )
    lines = describe(report, "ann", NAMES)
    assert lines[0] == "**Battle at 1,-1**: the captains won."
    assert all(len(line) <= 300 for line in lines)
    told = "\n".join(lines)
    assert told.count("you 3x laser-cannon (4 each)") == 6
    assert told.count("rogers-pirates-1's ship") == 29
    assert "Round 1 destroyed: ship 4." in told


def test_help_pages_read_the_rules() -> None:
    rules, deck = load(), load_deck()
    captain = caldera_help.page(rules, deck, "captain")
    for bonus in rules.bonuses:
        assert f"**{bonus.name}** ({bonus.id}): {bonus.cost} credits" in captain
    missions = caldera_help.page(rules, deck, "missions")
    assert all(m.text in missions for m in rules.missions + rules.zone_missions)
    npcs = caldera_help.page(rules, deck, "npcs")
    assert all(a.name in npcs for a in rules.enemy_ai)
    assert "Caldera has no page on cp" in caldera_help.page(rules, deck, "cp")


def test_si_simulate_plays_the_same_campaign_from_the_same_seed(capsys) -> None:
    """`si simulate --kind caldera --captains 1 --turn-cap 2 --seed 4 --json`, twice."""
    from bot.games.caldera.cli import CLI

    runs = []
    for _ in range(2):
        args = argparse.Namespace(captains=1, turn_cap=2, seed=4, json=True)
        assert CLI.simulate(args) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1] and runs[0]["turns"] == 2 and runs[0]["captains"] == 1


def test_si_render_draws_a_stored_campaigns_timelapse(tmp_path, capsys) -> None:
    """`si render DB GAME --timelapse`: the campaign so far (no turn resolved yet: the map as
    it stands), the shared star map, so no captain's own (`--nation` refused)."""
    import asyncio
    import io

    from PIL import Image

    from bot.cli import main
    from engine.host.service import GameService

    async def stored(db: str) -> int:
        service = await GameService.open(db, synchronous="NORMAL")
        try:
            game = await service.create_game(
                name="Far Reach", kind="caldera", max_nations=2, seed=3, turn_hours=2.0
            )
            for name, colour in (("Ann", "#e6194b"), ("Bob", "#4363d8")):
                await service.join(game, name=name, colour=colour, player=None)
            return game
        finally:
            await service.close()

    db = tmp_path / "games.db"
    game = asyncio.run(stored(str(db)))
    gif = tmp_path / "far.gif"
    assert main(["render", str(db), str(game), "--timelapse", "-o", str(gif)]) == 0
    picture = Image.open(io.BytesIO(gif.read_bytes()))
    assert picture.format == "GIF" and picture.size[0] == 600
    assert getattr(picture, "n_frames", 1) == 1  # no turn resolved: the map as it stands
    capsys.readouterr()
    assert main(["render", str(db), str(game), "--timelapse", "--nation", "Ann"]) == 2
    assert "leave out --nation" in capsys.readouterr().err
