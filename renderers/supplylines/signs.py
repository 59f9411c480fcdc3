"""The signs of the legend (shapes, moves, conflicts, captures, losses, marks, supply), drawn
in a box; "short of supply" is drawn next to structures too."""

from __future__ import annotations

from renderers import style
from renderers.palette import RGB
from renderers.supplylines.layout import Box
from renderers.supplylines.pen import Pen, bar, draw_shape
from renderers.supplylines.style import (
    BADGE_DARK,
    CAPTURE,
    CONFLICT,
    IMMOBILE,
    LOST,
    SHAPE_NAMES,
    SHORT,
)


def draw_sign(pen: Pen, sign: str, box: Box, ink: RGB) -> None:
    """A sign of the legend in `box` (the player's colour `ink` where it has one)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h = y1 - y0
    tip = x1 - h * 0.6
    dash, gap = 5 * pen.s, 3 * pen.s
    if sign in SHAPE_NAMES:
        draw_shape(pen, sign, cx, cy, h * 0.5, style.NEUTRAL)
    elif sign == "order":
        pen.line((x0, cy), (tip, cy), ink, pen.px(4), outline=pen.px(1))
        pen.arrowhead((x0, cy), (x1, cy), h * 0.7, ink)
    elif sign == "moved":
        pen.dashed((x0, cy), (tip, cy), ink, pen.px(3), dash, gap)
        pen.arrowhead((x0, cy), (x1, cy), h * 0.7, ink)
    elif sign == "stopped":
        pen.dashed((x0, cy), (x1 - 3 * pen.s, cy), ink, pen.px(3), dash, gap)
        bar(pen, (x0, cy), (x1 - 3 * pen.s, cy), h * 0.45, ink)
    elif sign == "bumped":
        pen.dashed((x0, cy), (tip, cy), CONFLICT, pen.px(3), dash, gap)
        pen.arrowhead((x0, cy), (x1, cy), h * 0.7, CONFLICT)
    elif sign == "conflict":
        pen.burst((cx, cy), h * 0.6)
    elif sign == "captured":
        pen.ellipse((cx, cy), h * 0.5, None, CAPTURE, pen.px(3))
    elif sign == "lost":
        pen.badge(box, "x1i", pen.font_px(12), LOST, (255, 255, 255), ink, pen.px(1.5))
    elif sign == "marks":
        pen.badge(box, "1i", pen.font_px(12), ink, style.text_on(ink), pips=2)
    elif sign == "immobile":
        pen.badge(box, "1i", pen.font_px(12), BADGE_DARK, ink, IMMOBILE, pen.px(2), 3, IMMOBILE)
    elif sign == "supply":
        pen.line((x0, cy), (x1, cy), ink, pen.px(8), outline=pen.px(1.5))
    elif sign == "short":
        r = min(h, x1 - x0) * 0.5
        pen.ellipse((cx, cy), r, SHORT, style.OUTLINE, max(1, pen.px(1.2)))
        pen.text((cx, cy), "!", max(10, round(r * 1.5)), (255, 255, 255), SHORT, "mm")
