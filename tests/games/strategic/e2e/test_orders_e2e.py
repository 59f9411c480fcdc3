"""Orders as players think of them (issue 29), through the real bot and the fake Discord: a
fleet on one order, an attack queued until in range (and its DM when given up), a city's
waypoint in /waypoint and /cities."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from engine.strategic import commands as cmd
from renderers.strategic import mapimage, style
from renderers.strategic.mapimage import render_focus, square_box
from tests.e2e.test_bot_e2e import running_bot, seat_game

MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~A..........B~~~~~~~~~~~~~~~~~~~~~~~~~~~
~............~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
"""


@pytest.fixture
async def env(tmp_path):
    async with running_bot(tmp_path, ["alice", "bob"]) as env:
        env.game = await seat_game(
            env,
            "Orders",
            {
                "ruleset": "standard",
                "map": MAP,
                "explored": "all",
                "nations": {
                    "red": {"player": str(env.alice.id)},
                    "blue": {"player": str(env.bob.id)},
                },
                "relations": [["red", "blue", "war"]],
                "cities": {
                    "A": {"owner": "red", "designation": "fort"},
                    "B": {"owner": "blue", "designation": "fort"},
                },
                "units": [
                    {"id": 1, "owner": "red", "type": "infantry", "at": "A", "mobility": 2},
                    {"id": 2, "owner": "blue", "type": "infantry", "at": "6,1"},
                    {"id": 3, "owner": "red", "type": "zeppelin", "at": "5,2"},
                    {"id": 4, "owner": "red", "type": "destroyer", "at": "15,3"},
                    {"id": 5, "owner": "red", "type": "transport", "at": "15,4"},
                ],
            },
        )
        yield env


async def test_ships_on_one_order_sail_together(env) -> None:
    reply = await env.fake.invoke(env.alice, env.channel, "move", {"units": "4 5", "to": "25,3"})
    assert reply.ephemeral and "one at a time" not in reply.text
    # the destroyer keeps to the transport's pace: both on their way, to squares side by side
    assert "Unit 4 moved 3 squares" in reply.text and "Unit 5 moved 3 squares" in reply.text
    assert "goes on to 25,3" in reply.text and "goes on to 24," in reply.text


async def test_a_queued_attack_goes_on_and_is_given_up_with_a_dm(env) -> None:
    fake = env.fake
    refused = await fake.invoke(env.alice, env.channel, "attack", {"units": "1", "target": "6,1"})
    assert refused.ephemeral and "queue:true" in refused.text
    reply = await fake.invoke(
        env.alice, env.channel, "attack", {"units": "1", "target": "6,1", "queue": True}
    )
    assert "Unit 1, now at 3,1, attacks 6,1 once in range" in reply.text
    listed = await fake.invoke(env.alice, env.channel, "units", {})
    assert "attacks 6,1" in listed.text
    # Blue's infantry is disbanded where Red sees it: the queued attack is given up, by DM
    await env.bot.service.submit(env.game, "blue", cmd.Disband(units=[2]))
    await env.bot.service.advance(env.game, 16)  # the infantry's update, 4 game hours on
    await env.bot.notifier.deliver_now(env.game)
    told = await fake.wait_for_dm(env.alice, lambda m: "gave up" in m.content, timeout=10)
    assert "unit 1 gave up going to 6,1: **nothing you know of to attack there any more**" in (
        told.content
    )


async def test_a_city_waypoint_is_set_shown_and_cleared(env) -> None:
    fake = env.fake
    reply = await fake.invoke(env.alice, env.channel, "waypoint", {"city": "1,1", "to": "4,2"})
    assert reply.ephemeral
    assert reply.text.startswith("The city at 1,1 sends each unit it builds to 4,2")
    cities = await fake.invoke(env.alice, env.channel, "cities", {})
    assert "new units go to 4,2" in cities.text
    bad = await fake.invoke(env.alice, env.channel, "waypoint", {"city": "12,1", "to": "4,2"})
    assert bad.ephemeral and "you have no city at 12,1" in bad.text.lower()
    cleared = await fake.invoke(env.alice, env.channel, "waypoint", {"city": "1,1"})
    assert cleared.text.startswith("The city at 1,1 keeps what it builds now.")


async def test_waypoints_and_queued_attacks_are_drawn_on_the_map(env, monkeypatch) -> None:
    """/map draws a city's waypoint (a dashed line to a diamond on the square) and a queued
    attack (a red line to a cross on the square it will attack), each named in the legend."""
    fake = env.fake

    async def drawn_at(sq_label: str, colour: tuple[int, int, int]) -> int:
        """Pixels of `colour` in the square's box on Alice's /map, and anywhere."""
        shown = await fake.invoke(env.alice, env.channel, "map", {})
        image = np.asarray(Image.open(io.BytesIO(shown.files[0].data)).convert("RGB"))
        view = await env.bot.service.view(env.game, "red")
        layout = render_focus(view, title=f"Orders (game {env.game})")
        assert layout.size == (image.shape[1], image.shape[0])
        x, y = (int(v) for v in sq_label.split(","))
        box = square_box(layout, view, y * view.width + x)
        assert box is not None
        left, top, right, bottom = box
        return int((image[top:bottom, left:right] == colour).all(axis=2).sum())

    assert await drawn_at("4,2", style.ORDER_LINE) == 0
    assert await drawn_at("6,1", style.STRIKE_LINE) == 0
    await fake.invoke(env.alice, env.channel, "waypoint", {"city": "1,1", "to": "4,2"})
    assert await drawn_at("4,2", style.ORDER_LINE) > 10  # the diamond
    await fake.invoke(
        env.alice, env.channel, "attack", {"units": "1", "target": "6,1", "queue": True}
    )
    assert await drawn_at("6,1", style.STRIKE_LINE) > 10  # the cross
    # the legend names them: the picture drawn again, what its legend is given read
    view = await env.bot.service.view(env.game, "red")
    named: list[str] = []
    layout_of = mapimage.legend_layout

    def legend(*args, **kwargs):
        found = layout_of(*args, **kwargs)
        named.extend(label for label, _ in found.items)
        return found

    monkeypatch.setattr(mapimage, "legend_layout", legend)
    render_focus(view, title="Orders")
    assert {"queued attack", "city's waypoint"} <= set(named)
