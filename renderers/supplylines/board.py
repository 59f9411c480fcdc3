"""The board's picture (`render_board`; as PNG bytes, `draw_board`): the roads and the supply
lines over them, the last turn (`report`), this turn's orders (`orders`), the structures, the
badges next to them (`badges`), conflicts and supply questions over everything, the header
and the legend. What each shows: the package's docstring."""

from __future__ import annotations

import math

from PIL import Image

from engine.supplylines.board import label_order, sorted_labels
from engine.supplylines.events import TurnMoved
from engine.supplylines.state import Unit
from engine.supplylines.view import View, state_of
from renderers import style
from renderers.encoding import png_bytes
from renderers.palette import RGB
from renderers.supplylines.badges import (
    Block,
    Item,
    block_of,
    draw_block,
    place_blocks,
    road_boxes,
    unit_items,
)
from renderers.supplylines.game import colour_of, owner_rank, rules_of, supply_of, type_rank
from renderers.supplylines.header import draw_header
from renderers.supplylines.layout import Point, along, lay_out, trimmed
from renderers.supplylines.legend import draw_legend
from renderers.supplylines.orders import orders_of
from renderers.supplylines.pen import Pen, bar, base_colours, draw_shape
from renderers.supplylines.report import outcome_of
from renderers.supplylines.style import (
    BADGE_DARK,
    BASE,
    CAPTURE,
    CONFLICT,
    LOST,
    QUESTION,
    ROAD,
    counts_text,
    unit_letter,
)


def render_board(
    view: View, *, title: str, turn_report: TurnMoved | None = None, size: int = BASE
) -> Image.Image:
    """The picture ("P" mode) that `draw_board` encodes."""
    size = max(300, int(size))
    rules = rules_of(view)
    layout = lay_out(view, size)
    state = state_of(view)
    sup = supply_of(state, view)
    pen = Pen(size, layout.scale, base_colours(view))
    P = layout.places
    s = layout.scale

    # the roads, then the supply lines over them
    roads = sorted(
        (
            (min(a, b, key=label_order), max(a, b, key=label_order))
            for a, b in view.board.roads
            if a in P and b in P
        ),
        key=lambda ab: (label_order(ab[0]), label_order(ab[1])),
    )
    road_w = pen.px(4)
    for a, b in roads:
        pen.line((P[a].x, P[a].y), (P[b].x, P[b].y), ROAD, road_w)
    for a, b in roads:
        owner = view.owners.get(a)
        if owner is None or owner != view.owners.get(b) or owner not in view.players:
            continue
        if view.players[owner].out:
            continue
        colour = colour_of(view, owner)
        if (owner, a) in sup.feeding:  # a network that sends lines: thick
            pen.line((P[a].x, P[a].y), (P[b].x, P[b].y), colour, pen.px(9), outline=pen.px(2))
        else:
            pen.line((P[a].x, P[a].y), (P[b].x, P[b].y), colour, road_w, outline=pen.px(1))

    small = pen.font_px(15)
    head = 15 * s
    counts: list[tuple[Point, str, RGB]] = []  # the units on arrows, drawn over everything

    # the last turn: moves (dashed), moves stopped on the road (a bar), bumps (orange)
    outcome = outcome_of(view, rules, turn_report) if turn_report is not None else None
    if outcome is not None:
        for arrow, stop in outcome.moved:
            seg = trimmed(P[arrow.src], P[arrow.dst], 0.5 * P[arrow.src].r, 3 * s)
            if seg is None:
                continue
            p, q = seg
            colour = colour_of(view, arrow.owner)
            if stop:  # it met the enemy halfway and went back
                q = along(p, q, 0.4)
            pen.dashed(p, q, colour, pen.px(4), 11 * s, 6 * s, outline=pen.px(1.5))
            if stop:
                bar(pen, p, q, 9 * s, colour)
            else:
                pen.arrowhead(p, q, head, colour)
            counts.append((along(p, q, 0.45), counts_text(arrow.counts), colour))
        for arrow in outcome.bumped:
            seg = trimmed(P[arrow.src], P[arrow.dst], 0.5 * P[arrow.src].r, 3 * s)
            if seg is None:
                continue
            p, q = seg
            pen.dashed(p, q, CONFLICT, pen.px(4), 7 * s, 5 * s, outline=pen.px(1.5))
            pen.arrowhead(p, q, head, CONFLICT)
            counts.append(
                (along(p, q, 0.25), counts_text(arrow.counts), colour_of(view, arrow.owner))
            )

    # this turn's orders: solid arrows in the player's colour (in a turn's supply phase they
    # have been carried out: with the turn's outcome, the outcome shows them; none once the
    # game is over)
    arrows, builds = orders_of(view, state, rules)
    if view.ended or (outcome is not None and view.phase != "orders"):
        arrows, builds = [], {}
    for arrow in arrows:
        if arrow.src not in P or arrow.dst not in P:
            continue
        seg = trimmed(P[arrow.src], P[arrow.dst], 0.22 * P[arrow.src].r, 3 * s)
        if seg is None:
            continue
        p, q = seg
        colour = colour_of(view, arrow.owner)
        pen.line(p, along(q, p, head / max(1.0, math.dist(p, q))), colour, pen.px(6), pen.px(1.5))
        pen.arrowhead(p, q, head * 1.2, colour)
        counts.append((along(p, q, 0.6), counts_text(arrow.counts), colour))

    # the structures
    label_px = max(10, round(0.78 * min((pl.r for pl in P.values()), default=16)))
    for label in sorted_labels(P):
        pl = P[label]
        fill = colour_of(view, view.owners.get(label))
        if outcome is not None and label in outcome.captured:
            pen.ellipse((pl.x, pl.y), pl.reach + 7 * s, None, CAPTURE, pen.px(4))
        draw_shape(pen, pl.shape, pl.x, pl.y, pl.r, fill)
        ty = pl.y + (0.18 * pl.r if pl.shape == "house" else 0)
        pen.text((pl.x, ty), label, label_px, style.text_on(fill), fill, "mm")

    # next to each structure: its units, builds ordered, units lost
    badge_px = pen.font_px(17)
    row_h = pen.px(24)
    asked = {u for q in view.questions for u in q[0]}
    asked_at: set[str] = set()
    units_at: dict[str, list[Unit]] = {}
    for u in sorted(view.units, key=lambda u: u.id):
        if u.at in P:
            units_at.setdefault(u.at, []).append(u)
            if u.id in asked:
                asked_at.add(u.at)
    blocks: dict[str, Block] = {}
    for label in sorted_labels(P):
        short = {o for o, st in sup.short if st == label}
        rows = unit_items(view, rules, pen, units_at.get(label, []), short)
        for player, built in builds.get(label, []):
            colour = colour_of(view, player)
            rows.append([Item("+" + counts_text(built), BADGE_DARK, colour, colour, kind="dashed")])
        gone = outcome.lost.get(label) if outcome is not None else None
        if gone:
            rows.append(
                [
                    Item(
                        f"x{n}{unit_letter(type_)}",
                        LOST,
                        (255, 255, 255),
                        colour_of(view, owner),
                        pen.px(2),
                    )
                    for (owner, type_), n in sorted(
                        gone.items(),
                        key=lambda kv: (owner_rank(view, kv[0][0]), type_rank(rules, kv[0][1])),
                    )
                ]
            )
        if rows:
            blocks[label] = block_of(pen, rows, badge_px, row_h)
    count_h = pen.px(21)
    count_boxes = []
    for pt, text, colour in counts:
        if text:
            w = pen.badge_width(text, small)
            box = (
                round(pt[0] - w / 2),
                round(pt[1] - count_h / 2),
                round(pt[0] - w / 2) + w,
                round(pt[1] - count_h / 2) + count_h,
            )
            count_boxes.append((box, text, colour))
    corners = place_blocks(
        layout, blocks, [b for b, _, _ in count_boxes], road_boxes(layout, roads)
    )
    for label in sorted_labels(blocks):
        draw_block(pen, blocks[label], *corners[label], badge_px, row_h)
    for box, text, colour in count_boxes:
        pen.badge(box, text, small, BADGE_DARK, colour, colour, max(1, pen.px(1.5)))

    # conflicts, over everything on the board; supply questions
    if outcome is not None:
        for a, b in outcome.road_bursts:
            pen.burst(along((P[a].x, P[a].y), (P[b].x, P[b].y), 0.5), 17 * s)
        for label in outcome.structure_bursts:
            pl = P[label]
            pen.burst((pl.x + 0.85 * pl.reach, pl.y - 0.85 * pl.reach), 16 * s)
    for label in sorted_labels(asked_at):
        pl = P[label]
        c = (pl.x - 0.85 * pl.reach, pl.y - 0.85 * pl.reach)
        pen.ellipse(c, 11 * s, QUESTION, style.OUTLINE, max(1, pen.px(1.5)))
        pen.text(c, "?", pen.font_px(15), (0, 0, 0), QUESTION, "mm")

    draw_header(pen, view, layout, title, bool(view.questions))
    draw_legend(pen, view, layout, sup, rules)
    return pen.finish()


def draw_board(
    view: View, *, title: str, turn_report: TurnMoved | None = None, size: int = BASE
) -> bytes:
    """The board as PNG bytes, `size` pixels square (see the module's docstring for what it
    shows). `turn_report`: the last turn's moves, conflicts, captures and losses, drawn over
    the board as it is now."""
    return png_bytes(render_board(view, title=title, turn_report=turn_report, size=size))
