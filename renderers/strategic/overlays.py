"""What is drawn over the squares: standing orders (a line from a unit to where it goes, the
short way round the torus, an arrowhead at the target) and the markers of what happened."""

from __future__ import annotations

from engine.strategic.view import View
from renderers.canvas import Canvas
from renderers.strategic import style
from renderers.strategic.region import Region, corner_of


def draw_orders(
    canvas: Canvas,
    view: View,
    region: Region,
    left: int,
    top: int,
    clip: tuple[int, int, int, int],
    drawn: set[str],
) -> None:
    """Standing orders: a line from each own unit to where it is going, the short way round
    the torus (on the whole board, both ends of a line that crosses an edge), an arrowhead at
    the target."""
    c = region.cell
    w, h = view.width, view.height
    done: set[tuple[int, int]] = set()
    light, dark = canvas.ink(style.ORDER_LINE), canvas.ink(style.OUTLINE)
    width = 2 if c >= 16 else 1
    shifts_x = (0, -w * c, w * c) if len(region.cols) == w else (0,)
    shifts_y = (0, -h * c, h * c) if len(region.rows) == h else (0,)
    for u in view.units:
        if u.seen != "own" or u.order is None or u.order == u.sq or (u.sq, u.order) in done:
            continue
        done.add((u.sq, u.order))
        pos = corner_of(view, region, u.sq)
        if pos is None:
            continue
        dx = (u.order % w - u.sq % w + w // 2) % w - w // 2
        dy = (u.order // w - u.sq // w + h // 2) % h - h // 2
        x0, y0 = left + pos[0] + c / 2, top + pos[1] + c / 2
        for sx in shifts_x:
            for sy in shifts_y:
                a = (x0 + sx, y0 + sy)
                b = (a[0] + dx * c, a[1] + dy * c)
                seg = _clip_line(a, b, clip)
                if seg is None:
                    continue
                drawn.add("order")
                canvas.draw.line(seg, fill=dark, width=width + 2)
                canvas.draw.line(seg, fill=light, width=width)
                if seg[2:] == b:  # the target is on the picture: an arrowhead
                    _arrowhead(canvas, a, b, max(4, c // 3), light, dark)


def _arrowhead(canvas: Canvas, a, b, size: int, light: int, dark: int) -> None:
    length = max(1e-9, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    back = (b[0] - ux * size, b[1] - uy * size)
    points = [
        b,
        (back[0] - uy * size * 0.6, back[1] + ux * size * 0.6),
        (back[0] + uy * size * 0.6, back[1] - ux * size * 0.6),
    ]
    canvas.draw.polygon(points, fill=light, outline=dark)


def _clip_line(a, b, box) -> tuple[float, float, float, float] | None:
    """The part of the segment a-b inside box (left, top, right, bottom; exclusive): Liang and
    Barsky's clipping. None when nothing is inside."""
    x0, y0 = a
    dx, dy = b[0] - x0, b[1] - y0
    t0, t1 = 0.0, 1.0
    for p, q in (
        (-dx, x0 - box[0]),
        (dx, box[2] - 1 - x0),
        (-dy, y0 - box[1]),
        (dy, box[3] - 1 - y0),
    ):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    end = (x0 + t1 * dx, y0 + t1 * dy) if t1 < 1 else b
    return (x0 + t0 * dx, y0 + t0 * dy, *end)


def draw_markers(canvas: Canvas, view: View, region: Region, left: int, top: int, markers):
    c = region.cell
    draw = canvas.draw
    for m in markers:
        pos = corner_of(view, region, m.sq)
        if pos is None:
            continue
        colour = canvas.ink(style.MARKER_COLOURS.get(m.kind, style.UNKNOWN_MARKER))
        cx, cy = left + pos[0] + c / 2, top + pos[1] + c / 2
        r = max(c * 0.8, 6) + m.radius * c
        width = max(2, c // 10)
        # a dark mark (a unit lost) on a light halo, so it reads on dark water and fog too
        halo = canvas.ink(style.MARKER_HALO) if m.kind in style.HALOED_MARKERS else None
        ticks = m.kind in ("attack", "lost")  # outside the ring, leaving the square clear
        for ink, w in (((halo, width + 2),) if halo is not None else ()) + ((colour, width),):
            grow = (w - width) / 2
            box = (cx - r - grow, cy - r - grow, cx + r + grow, cy + r + grow)
            draw.ellipse(box, outline=ink, width=w)
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)) if ticks else ():
                draw.line(
                    (cx + dx * r * 0.75, cy + dy * r * 0.75, cx + dx * r * 1.2, cy + dy * r * 1.2),
                    fill=ink,
                    width=w,
                )
