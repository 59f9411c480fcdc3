"""The end-of-game DM's picture is the whole final board (its overview, made for 550 pixels),
not a strip round the last skirmish; other DMs' pictures stay round their events."""

from __future__ import annotations

from engine.strategic import events as ev
from engine.strategic.view import view_for
from renderers.encoding import png_bytes
from renderers.strategic import drawing
from renderers.strategic.mapimage import render_focus, render_overview
from renderers.strategic.markers import markers_from
from tests.games.strategic.renderers.test_overview import two_nations
from tests.games.strategic.sample_events import attacked


async def test_the_end_of_game_dm_shows_the_whole_final_board(monkeypatch) -> None:
    async def here(fn, *args, pool=None):  # draw in this process: the same picture
        return fn(*args)

    monkeypatch.setattr(drawing, "run", here)
    from bot.games.strategic.teller import TELLER

    world = two_nations("war")
    view = view_for(world, "red")
    skirmish = attacked(
        tick=world.tick,
        to=["red", "blue"],
        square="20,1",
        from_square="21,1",
        attacker_unit=6,
        defender_unit=4,
        defender_type="infantry",
        damage=0,
        counter=0,
        attacker_hp=10,
        defender_hp=5,
    )
    ended = ev.GameEnded(
        tick=world.tick, to=["red", "blue"], standings=[], winners=["red"], by_moderator=False
    )
    title = "Strip (game 1)"
    last = await TELLER.picture(view, title, [skirmish, ended])
    assert last == png_bytes(render_overview(view, title=title))
    # a DM of the skirmish alone: the squares round it
    markers = markers_from([skirmish], "red", view.width, view.height)
    during = await TELLER.picture(view, title, [skirmish])
    assert during == png_bytes(render_focus(view, title=title, markers=markers))
    assert during != last
