"""What is drawn next to a structure: its units as badges in their owner's colour (a pip per
mark; immobile units on a dark badge with a red border), builds ordered ("+1T"), units lost
("x1i"), a "!" where the owner's network is short of supply lines; each structure's block of
badges placed clear of the other structures, blocks and roads."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.supplylines.board import label_order
from engine.supplylines.rules import Rules
from engine.supplylines.state import Unit
from engine.supplylines.view import View
from renderers import style
from renderers.palette import RGB
from renderers.supplylines.game import colour_of, owner_rank, type_rank
from renderers.supplylines.layout import Box, Layout, along
from renderers.supplylines.pen import Pen
from renderers.supplylines.signs import draw_sign
from renderers.supplylines.style import BADGE_DARK, IMMOBILE, PIP, SHORT, unit_letter


@dataclass(frozen=True)
class Item:
    """A badge: "2i" in the owner's colour (with a pip per mark), an immobile group, a build
    ordered ("+1T", dashed), units lost ("x1i"), or a network short of supply ("!")."""

    text: str
    fill: RGB
    ink: RGB
    border: RGB = style.OUTLINE
    border_w: int = 1
    pips: int = 0
    pip_fill: RGB = PIP
    kind: str = "badge"  # "badge", "dashed" or "short"


def unit_items(
    view: View, rules: Rules, pen: Pen, units: list[Unit], short: set[str]
) -> list[list[Item]]:
    """One row per owner: a badge per (type, marks), then "!" when the owner's network here is
    short of supply lines."""
    immobile_at = rules.marks.immobile_at
    by_owner: dict[str, dict[tuple[str, int], int]] = {}
    for u in units:
        groups = by_owner.setdefault(u.owner, {})
        groups[(u.type, u.marks)] = groups.get((u.type, u.marks), 0) + 1
    rows = []
    for owner in sorted(by_owner, key=lambda o: owner_rank(view, o)):
        colour = colour_of(view, owner)
        row = []
        for (type_, marks), n in sorted(
            by_owner[owner].items(), key=lambda kv: (type_rank(rules, kv[0][0]), kv[0][1])
        ):
            text = f"{n}{unit_letter(type_)}"
            if marks >= immobile_at:
                row.append(Item(text, BADGE_DARK, colour, IMMOBILE, pen.px(2.5), marks, IMMOBILE))
            else:
                row.append(Item(text, colour, style.text_on(colour), pips=marks))
        if owner in short:
            row.append(Item("!", SHORT, (255, 255, 255), kind="short"))
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Block:
    rows: list[list[Item]]
    widths: list[list[float]]
    w: float
    h: float


def block_of(pen: Pen, rows: list[list[Item]], size: int, row_h: int) -> Block:
    gap = pen.px(3)
    widths = [
        [
            float(row_h) if it.kind == "short" else pen.badge_width(it.text, size, it.pips)
            for it in row
        ]
        for row in rows
    ]
    w = max((sum(ws) + gap * (len(ws) - 1) for ws in widths), default=0.0)
    h = len(rows) * row_h + max(0, len(rows) - 1) * gap
    return Block(rows, widths, w, h)


def road_boxes(layout: Layout, roads: list[tuple[str, str]]) -> list[Box]:
    """Small boxes along the roads: a badge had better not hide one."""
    P = layout.places
    step = 12 * layout.scale
    half = 3 * layout.scale
    boxes = []
    for a, b in roads:
        pa, pb = P[a], P[b]
        length = math.dist((pa.x, pa.y), (pb.x, pb.y))
        n = max(1, int(length // step))
        for k in range(1, n):
            x, y = along((pa.x, pa.y), (pb.x, pb.y), k / n)
            boxes.append((x - half, y - half, x + half, y + half))
    return boxes


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_blocks(
    layout: Layout, blocks: dict[str, Block], avoid: Sequence[Box], roads: Sequence[Box]
) -> dict[str, tuple[int, int]]:
    """The top-left corner of each structure's block: below it if that is clear of the other
    structures, blocks and roads, else above, right, left..., else where it covers least."""
    s = layout.scale
    taken: list[Box] = list(avoid)
    placed: list[Box] = []  # the blocks placed so far: covering one hides units
    for p in layout.places.values():
        k = p.reach + 2 * s
        taken.append((p.x - k, p.y - k, p.x + k, p.y + k))
    lo_x, hi_x = 4 * s, layout.size - 4 * s
    lo_y, hi_y = layout.header + 2 * s, layout.legend_top - 2 * s
    corners: dict[str, tuple[int, int]] = {}
    for label in sorted(blocks, key=label_order):
        b, p = blocks[label], layout.places[label]
        gap = 4 * s
        below = p.y + p.reach + gap
        above = p.y - p.reach - gap - b.h
        options = [
            (p.x - b.w / 2, below),
            (p.x - b.w / 2, above),
            (p.x + p.reach + gap, p.y - b.h / 2),
            (p.x - p.reach - gap - b.w, p.y - b.h / 2),
            (p.x + p.reach * 0.6, below),
            (p.x - p.reach * 0.6 - b.w, below),
            (p.x + p.reach * 0.6, above),
            (p.x - p.reach * 0.6 - b.w, above),
        ]
        # then farther out, round the structure (a crowded one: a contested city with units,
        # losses and builds of several players round it and its neighbours'): the blocks of
        # two structures never cover each other while there is room
        for far in (2, 4, 7, 11):
            d = p.reach + far * gap
            options += [
                (p.x - b.w / 2, p.y + d),
                (p.x - b.w / 2, p.y - d - b.h),
                (p.x + d, p.y - b.h / 2),
                (p.x - d - b.w, p.y - b.h / 2),
                (p.x + d * 0.7, p.y + d * 0.7),
                (p.x - d * 0.7 - b.w, p.y + d * 0.7),
                (p.x + d * 0.7, p.y - d * 0.7 - b.h),
                (p.x - d * 0.7 - b.w, p.y - d * 0.7 - b.h),
            ]
        best: tuple[float, int, int] | None = None
        for x, y in options:
            x = round(min(max(x, lo_x), hi_x - b.w))
            y = round(min(max(y, lo_y), hi_y - b.h))
            box = (x, y, x + b.w, y + b.h)
            cost = sum(_overlap(box, o) for o in taken)
            cost += 4 * sum(_overlap(box, o) for o in placed)
            cost += 0.2 * sum(_overlap(box, o) for o in roads)
            if best is None or cost < best[0]:
                best = (cost, x, y)
            if cost == 0:
                break
        assert best is not None
        _, x, y = best
        corners[label] = (x, y)
        taken.append((x, y, x + b.w, y + b.h))
        placed.append((x, y, x + b.w, y + b.h))
    return corners


def draw_block(pen: Pen, block: Block, x: float, y: float, size: int, row_h: int) -> None:
    gap = pen.px(3)
    for r, (row, widths) in enumerate(zip(block.rows, block.widths, strict=True)):
        top = y + r * (row_h + gap)
        row_w = sum(widths) + gap * (len(widths) - 1)
        left = round(x + (block.w - row_w) / 2)
        for it, w in zip(row, widths, strict=True):
            box = (left, top, left + w - 1, top + row_h - 1)
            if it.kind == "short":
                draw_sign(pen, "short", box, it.fill)
            elif it.kind == "dashed":
                pen.box(box, BADGE_DARK, radius=pen.px(4))
                _dashed_box(pen, box, it.border, max(1, pen.px(2)))
                pen.text(
                    (box[0] + pen.px(5), (box[1] + box[3]) / 2),
                    it.text,
                    size,
                    it.ink,
                    BADGE_DARK,
                    "lm",
                )
            else:
                pen.badge(
                    box,
                    it.text,
                    size,
                    it.fill,
                    it.ink,
                    it.border,
                    it.border_w,
                    it.pips,
                    it.pip_fill,
                )
            left += round(w) + gap


def _dashed_box(pen: Pen, box: Box, colour: RGB, width: int) -> None:
    x0, y0, x1, y1 = box
    dash, gap = pen.px(5), pen.px(3)
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    for k in range(4):
        pen.dashed(corners[k], corners[(k + 1) % 4], colour, width, dash, gap)
