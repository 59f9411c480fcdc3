"""The legend: the players (colour, structures held, PopCap used and owned, supply lines and
what their units need, submitted or out) and what the shapes and signs mean."""

from __future__ import annotations

from engine.supplylines.rules import Rules
from engine.supplylines.view import View
from renderers import style
from renderers.supplylines.game import Supply, colour_of, seat_order
from renderers.supplylines.layout import SIGNS, Layout
from renderers.supplylines.pen import Pen
from renderers.supplylines.signs import draw_sign
from renderers.supplylines.style import HEADER_LINE, LEGEND_INK, SHAPE_NAMES


def draw_legend(pen: Pen, view: View, layout: Layout, sup: Supply, rules: Rules) -> None:
    s = layout.scale
    size = layout.size
    bg = style.BACKGROUND
    top = layout.legend_top + 6 * s
    pen.draw.line(((0, layout.legend_top), (size, layout.legend_top)), fill=pen.ink(HEADER_LINE))
    font = pen.font_px(15)
    sw = pen.px(16)
    row = layout.row
    # the players: colour, structures, PopCap, supply lines / lines needed, submitted or out
    col = (size - 16 * s) / layout.per_row_players
    for i, pid in enumerate(seat_order(view)):
        p = view.players[pid]
        x = round(10 * s + (i % layout.per_row_players) * col)
        y = round(top + (i // layout.per_row_players) * row)
        cy = y + 2 * s + sw / 2
        colour = colour_of(view, pid)
        pen.box((x, y + 2 * s, x + sw, y + 2 * s + sw), colour, style.OUTLINE)
        short = any(o == pid for o, _ in sup.short)
        bits = [f"{p.structures} held", f"PopCap {p.popcap_used}/{p.popcap}"]
        if p.out:
            bits.append("out")
        else:
            bits.append(f"supply lines {sup.lines.get(pid, 0)}/{sup.need.get(pid, 0)}")
            if p.submitted:
                bits.append("orders done")
        tail = "  " + "  ".join(bits)
        you = " (you)" if pid == view.nation else ""
        room = col - sw - 14 * s - (sw + 6 * s if short else 0)
        name = p.name
        while name and pen.width(name + you + tail, font) > room:
            name = name[:-1]
        if name != p.name and len(name) > 1:
            name = name[:-1] + "."
        text = name + you + tail
        pen.text(
            (x + sw + 7 * s, cy), text, font, style.TEXT_DIM if p.out else style.TEXT, bg, "lm"
        )
        if short:
            tx = round(x + sw + 7 * s + pen.width(text, font) + 6 * s)
            draw_sign(pen, "short", (tx, cy - sw / 2, tx + sw, cy + sw / 2), colour)
    # what the shapes and signs mean
    y0 = top + layout.legend_rows_players * row + 4 * s
    col = (size - 16 * s) / layout.per_row_signs
    names = {
        **SHAPE_NAMES,
        "order": "your orders" if view.nation is not None else "orders",
        "moved": "moved last turn",
        "stopped": "stopped on the road",
        "bumped": "bumped back",
        "conflict": "conflict",
        "captured": "captured",
        "lost": "units lost",
        "marks": "marks: no supply",
        "immobile": f"immobile ({rules.marks.immobile_at} marks)",
        "supply": "supply line",
        "short": "short of supply",
    }
    ink = colour_of(view, view.nation) if view.nation in view.players else LEGEND_INK
    for i, sign in enumerate([*SHAPE_NAMES, *SIGNS]):
        x = round(10 * s + (i % layout.per_row_signs) * col)
        y = round(y0 + (i // layout.per_row_signs) * row)
        draw_sign(pen, sign, (x, y + 2 * s, x + 2 * sw, y + 2 * s + sw), ink)
        pen.text((x + 2 * sw + 7 * s, y + 2 * s + sw / 2), names[sign], font, style.TEXT, bg, "lm")
