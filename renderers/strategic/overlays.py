"""What is drawn over the squares: standing orders (a line from a unit to where it goes, the
short way round the torus, an arrowhead at the target; a queued attack in red with a cross),
cities' waypoints (a dashed line to a diamond) and the markers of what happened."""

from __future__ import annotations

from engine.strategic.view import View
from renderers.canvas import Canvas
from renderers.strategic import style
from renderers.strategic.region import Region, corner_of

End = tuple[str, tuple[float, float], int]  # ("cross" | "diamond", centre, half size)


def draw_orders(
    canvas: Canvas,
    view: View,
    region: Region,
    left: int,
    top: int,
    clip: tuple[int, int, int, int],
    drawn: set[str],
) -> list[End]:
    """Standing orders: a line from each own unit to where it is going, the short way round
    the torus (on the whole board, both ends of a line that crosses an edge), an arrowhead at
    the target; a queued attack (`/attack queue:true`) in the attack's red, with a cross at
    the square it will attack (returned, to be drawn over the units: `draw_ends`)."""
    ends: list[End] = []
    c = region.cell
    done: set[tuple[int, int]] = set()
    dark = canvas.ink(style.OUTLINE)
    width = 2 if c >= 16 else 1
    for u in view.units:
        if u.seen != "own" or u.order is None or u.order == u.sq or (u.sq, u.order) in done:
            continue
        done.add((u.sq, u.order))
        light = canvas.ink(style.STRIKE_LINE if u.strike else style.ORDER_LINE)
        for a, b, seg in _segments(view, region, left, top, clip, u.sq, u.order):
            drawn.add("strike" if u.strike else "order")
            canvas.draw.line(seg, fill=dark, width=width + 2)
            canvas.draw.line(seg, fill=light, width=width)
            if seg[2:] != b:
                continue  # the target is off the picture
            if u.strike:
                ends.append(("cross", b, max(4, c // 3)))
            else:
                _arrowhead(canvas, a, b, max(4, c // 3), light, dark)
    return ends


def draw_waypoints(
    canvas: Canvas,
    view: View,
    region: Region,
    left: int,
    top: int,
    clip: tuple[int, int, int, int],
    drawn: set[str],
) -> list[End]:
    """Own cities' waypoints (`/waypoint`: where each unit a city builds is sent): a dashed
    line from the city, the short way round, to a small diamond on the square (returned, to
    be drawn over the units: `draw_ends`)."""
    ends: list[End] = []
    c = region.cell
    light, dark = canvas.ink(style.ORDER_LINE), canvas.ink(style.OUTLINE)
    width = 2 if c >= 16 else 1
    dash = max(4, c // 2)
    for city in view.cities.values():
        if city.seen != "own" or city.waypoint is None or city.waypoint == city.sq:
            continue
        for _a, b, seg in _segments(view, region, left, top, clip, city.sq, city.waypoint):
            drawn.add("waypoint")
            for piece in _dashes(seg, dash):
                canvas.draw.line(piece, fill=dark, width=width + 2)
            for piece in _dashes(seg, dash):
                canvas.draw.line(piece, fill=light, width=width)
            if seg[2:] == b:
                ends.append(("diamond", b, max(4, c // 4)))
    return ends


def draw_ends(canvas: Canvas, ends: list[End], cell: int) -> None:
    """The marks at the ends of queued attacks (a cross) and waypoints (a diamond), over the
    units there (an enemy unit under its attack's cross)."""
    dark = canvas.ink(style.OUTLINE)
    width = 2 if cell >= 16 else 1
    for kind, (x, y), r in ends:
        if kind == "cross":
            _cross(canvas, (x, y), r, canvas.ink(style.STRIKE_LINE), dark, width)
        else:
            diamond = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
            canvas.draw.polygon(diamond, fill=canvas.ink(style.ORDER_LINE), outline=dark)


def _segments(view: View, region: Region, left: int, top: int, clip, frm: int, to: int):
    """(start, end, the part on the picture) of the line from square `frm` to square `to`,
    the short way round the torus: on the whole board, once more shifted by the board's size
    so that both ends of a line that crosses an edge are drawn."""
    c = region.cell
    w, h = view.width, view.height
    pos = corner_of(view, region, frm)
    if pos is None:
        return
    shifts_x = (0, -w * c, w * c) if len(region.cols) == w else (0,)
    shifts_y = (0, -h * c, h * c) if len(region.rows) == h else (0,)
    dx = (to % w - frm % w + w // 2) % w - w // 2
    dy = (to // w - frm // w + h // 2) % h - h // 2
    x0, y0 = left + pos[0] + c / 2, top + pos[1] + c / 2
    for sx in shifts_x:
        for sy in shifts_y:
            a = (x0 + sx, y0 + sy)
            b = (a[0] + dx * c, a[1] + dy * c)
            seg = _clip_line(a, b, clip)
            if seg is not None:
                yield a, b, seg


def _dashes(seg: tuple[float, float, float, float], dash: int):
    """The segment cut into dashes of `dash` pixels with gaps as long."""
    x0, y0, x1, y1 = seg
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        yield (x0 + ux * t, y0 + uy * t, x0 + ux * e, y0 + uy * e)
        t += 2 * dash


def _cross(canvas: Canvas, b, size: int, light: int, dark: int, width: int) -> None:
    """An X over the square a queued attack will strike."""
    for ink, w in ((dark, width + 3), (light, width + 1)):
        for sx in (-1, 1):
            canvas.draw.line(
                (b[0] - size, b[1] - sx * size, b[0] + size, b[1] + sx * size), fill=ink, width=w
            )


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
