"""The header: the title, the turn, the phase, whose view it is (a player's, a moderator's, or
everyone's), the winner once the game is over, and a supply choice the viewer has to make."""

from __future__ import annotations

from engine.supplylines.view import View
from renderers import style
from renderers.supplylines.layout import Layout
from renderers.supplylines.pen import Pen
from renderers.supplylines.style import HEADER_LINE, QUESTION


def draw_header(pen: Pen, view: View, layout: Layout, title: str, asked: bool) -> None:
    s = layout.scale
    big, mid = pen.font_px(27), pen.font_px(17)
    x0 = 14 * s
    bg = style.BACKGROUND
    turn = f"Turn {view.turn}"
    pen.text((layout.size - x0, 12 * s), turn, big, style.TEXT, bg, "ra")
    room = layout.size - 3 * x0 - pen.width(turn, big)
    shown = title
    while shown and pen.width(shown, big) > room:
        shown = shown[:-1]
    if shown != title:
        shown = shown[:-1] + "..."
    pen.text((x0, 12 * s), shown, big, style.TEXT, bg)
    if view.ended:
        winner = view.players.get(view.winner) if view.winner else None
        phase = f"game over: {winner.name} wins" if winner else "game over: nobody wins"
    elif not view.started:
        phase = "waiting for players"
    elif view.phase == "supply":
        phase = "supply phase: waiting for supply choices"
    else:
        phase = "orders phase"
    me = view.players.get(view.nation) if view.nation is not None else None
    if me is not None:
        whose = f"{me.name}'s view"
    elif view.orders:
        whose = "moderator's view: every player's orders"
    else:
        whose = "the board as everyone sees it"
    pen.text((x0, 50 * s), f"{phase}  |  {whose}", mid, style.TEXT_DIM, bg)
    if asked:
        pen.text((layout.size - x0, 50 * s), "? you have a supply choice", mid, QUESTION, bg, "ra")
    pen.draw.line(
        ((0, layout.header - 1), (layout.size, layout.header - 1)), fill=pen.ink(HEADER_LINE)
    )
