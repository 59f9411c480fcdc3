"""A Supply Lines supply question of more units than one select menu holds (Discord: 25 options
a menu, 5 rows a message): every unit in a menu of its part, the defaults preselected in each,
a choice in one menu answered with what the player chose in the others, and any units beyond
5 menus named, with how to answer for them (`/orders supply`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.dm.delivery import DmChannels, discord_sender
from bot.games.supplylines import notices as words
from bot.games.supplylines.orders import supply_part_chosen
from bot.pacer import Pacer
from engine.supplylines import events as ev
from tests.fakediscord import FakeDiscord


def asked(count: int, *, default: int, lines: int = 20) -> ev.SupplyAsked:
    units = [
        {"id": i, "type": "infantry", "at": f"C{i % 7}", "marks": i % 3, "need": 1}
        for i in range(1, count + 1)
    ]
    return ev.SupplyAsked(
        tick=4,
        to=["a"],
        player="a",
        turn=3,
        structures=["H1", "C1"],
        lines=lines,
        units=units,
        default=list(range(1, default + 1)),
        deadline=8,
    )


def test_forty_units_fill_two_menus_with_every_default_preselected() -> None:
    menus = words.TELLER.menus([asked(40, default=20)], "a", 7)
    assert [len(m.options) for m in menus] == [25, 15]
    assert [m.custom_id for m in menus] == ["sl:supply:7:3:0", "sl:supply:7:3:1"]
    assert [m.max_values for m in menus] == [25, 15]
    shown = [int(value) for m in menus for _, value, _ in m.options]
    assert shown == list(range(1, 41))  # every unit, once
    chosen = [int(value) for m in menus for _, value, on in m.options if on]
    assert chosen == list(range(1, 21))  # all 20 defaults (not 5 of them)
    text = "\n".join(words.TELLER.digest([asked(40, default=20)], "a", {}, clock="Game"))
    assert "2 menus" in text and "/orders supply" in text


def test_a_question_of_few_units_keeps_its_one_menu() -> None:
    [menu] = words.TELLER.menus([asked(3, default=1, lines=1)], "a", 7)
    assert menu.custom_id == "sl:supply:7:3" and len(menu.options) == 3
    text = "\n".join(words.TELLER.digest([asked(3, default=1, lines=1)], "a", {}, clock="G"))
    assert "menus" not in text


def test_units_beyond_five_menus_are_named_with_how_to_answer_for_them() -> None:
    menus = words.TELLER.menus([asked(130, default=60, lines=60)], "a", 7)
    assert len(menus) == 5 and sum(len(m.options) for m in menus) == 125
    text = "\n".join(words.TELLER.digest([asked(130, default=60, lines=60)], "a", {}, clock="G"))
    assert "5 units (numbers above 125) do not fit in the menus" in text
    assert "/orders supply" in text


def test_a_choice_in_one_menu_keeps_the_choices_made_in_the_others() -> None:
    units = tuple(range(1, 41))
    view: Any = SimpleNamespace(questions=[(units, 20, tuple(range(1, 21)))])
    # menu 1 (units 1-25): the player picks 3, 4 and 5
    assert supply_part_chosen(90, 3, "a", view, 0, [3, 4, 5]) == [3, 4, 5]
    # then menu 2 (units 26-40): 30 and 31, and menu 1's choice stays
    assert supply_part_chosen(90, 3, "a", view, 1, [30, 31]) == [3, 4, 5, 30, 31]
    # choosing again in menu 1 replaces only menu 1's part
    assert supply_part_chosen(90, 3, "a", view, 0, [7]) == [7, 30, 31]
    # a unit of another menu sent with a part's answer is not taken from it
    assert supply_part_chosen(90, 3, "a", view, 1, [2, 33]) == [7, 33]
    # another game's (or turn's) choices are its own
    assert supply_part_chosen(91, 3, "a", view, 1, [40]) == [40]


async def test_two_supply_menus_go_out_in_one_dm_within_discords_limits(tmp_path) -> None:
    """Through the fake Discord, which checks every component limit: two action rows of one
    select each, 25 and 15 options, the 20 defaults marked."""
    menus = words.TELLER.menus([asked(40, default=20)], "a", 7)
    async with FakeDiscord() as fake:
        user = fake.add_user("ann")
        client = discord.Client(intents=discord.Intents.none())
        await fake.start_client(client)
        send = discord_sender(client, channels=DmChannels(), pace=Pacer(1000))
        await send(str(user.id), "Supply for turn 3", [], nonce="k1", menus=menus)
        [dm] = fake.dms(user)
        rows = dm.components
        assert len(rows) == 2
        selects = [row["components"][0] for row in rows]
        assert [len(s["options"]) for s in selects] == [25, 15]
        assert sum(1 for s in selects for o in s["options"] if o.get("default")) == 20
        assert not fake.errors  # no limit broken
        await fake.stop_client(client)
