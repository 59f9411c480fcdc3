"""The picture of a game's free starting islands (issue 31, founding a nation): the whole board
at Discord's 550 px, the unknown sea dark, each free island in the land's colour with its
number on a white disc (the number `/game join home:` takes), its first home city marked, and
the board's coordinates at its edges. Nothing else of the map is drawn: the taken islands and
the neutral land stay unknown (`engine.strategic.islands`)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.strategic.islands import StartingIslands
from renderers.encoding import png_bytes
from renderers.strategic import style

WIDTH = 550  # Discord's preview width: the numbers stay readable at it
MARGIN = 28  # round the board: its coordinates
HEADER = 46
FOOTER = 30
NUMBER_SIZE = 16
DISC = 12  # the number's disc's radius


def render_islands(islands: StartingIslands, title: str) -> bytes:
    """The free starting islands as a PNG, WIDTH pixels wide."""
    w, h = islands.width, islands.height
    cell = (WIDTH - 2 * MARGIN) / max(w, h)  # pixels a square (fractional on big boards)
    board_w, board_h = round(cell * w), round(cell * h)
    left = (WIDTH - board_w) // 2
    top = HEADER + MARGIN // 2
    image = Image.new("RGB", (WIDTH, top + board_h + MARGIN // 2 + FOOTER), style.BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, big = style.font(13), style.font(18)
    draw.text((12, 8), title, font=big, fill=style.TEXT)
    count = len(islands.free)
    draw.text(
        (12, 28),
        f"{count} of {islands.seats} starting islands free" if count else "no island is free",
        font=small,
        fill=style.TEXT_DIM,
    )
    draw.rectangle(
        (left - 1, top - 1, left + board_w, top + board_h),
        fill=style.NEVER_SEEN,
        outline=style.TEXT_DIM,
    )
    # the board wraps: it is drawn from a column and a row of open sea, so no island is cut
    land = [sq for island in islands.free for sq in island.land]
    ox = _open(w, {sq % w for sq in land})
    oy = _open(h, {sq // w for sq in land})
    step = 8 if w <= 64 else 16 if w <= 128 else 32
    # the board's coordinates, as the game's labels read (none crowding the one before)
    for x, at in _marks(w, ox, step, cell, left):
        draw.text((at, top - 4), str(x), font=small, fill=style.TEXT_DIM, anchor="ld")
    for y, at in _marks(h, oy, step, cell, top):
        draw.text((left - 4, at), str(y), font=small, fill=style.TEXT_DIM, anchor="rt")
    for sq in land:
        col, row = (sq % w - ox) % w, (sq // w - oy) % h
        x0, y0 = left + int(col * cell), top + int(row * cell)
        x1, y1 = left + int((col + 1) * cell), top + int((row + 1) * cell)
        draw.rectangle((x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)), fill=style.LAND)
    number = style.font(NUMBER_SIZE)
    for island in islands.free:
        hx, hy = (island.home % w - ox) % w, (island.home // w - oy) % h
        cx, cy = left + int((hx + 0.5) * cell), top + int((hy + 0.5) * cell)
        r = max(2, int(cell / 3))
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=style.NEUTRAL, outline=style.OUTLINE)
        # the disc beside the home city, kept inside the picture
        dx = min(max(cx + DISC + 2, DISC + 1), WIDTH - DISC - 1)
        dy = min(max(cy - DISC - 2, top + DISC), top + board_h - DISC)
        draw.ellipse(
            (dx - DISC, dy - DISC, dx + DISC, dy + DISC),
            fill=(255, 255, 255),
            outline=style.OUTLINE,
            width=2,
        )
        draw.text((dx, dy), str(island.number), font=number, fill=(0, 0, 0), anchor="mm")
    draw.text(
        (12, top + board_h + MARGIN // 2 + 6),
        "/game join home:<number> picks one. Grey: its first city. The board wraps.",
        font=small,
        fill=style.TEXT_DIM,
    )
    return png_bytes(image)


def _open(side: int, used: set[int]) -> int:
    """The first line (a column or a row) of the widest run of lines with no free island, or
    0 when there is none: where the picture starts so no island is cut by its edge."""
    best, start, run = 0, 0, 0
    for i in range(2 * side):  # twice round: a run may wrap past the end
        if i % side in used:
            run = 0
            continue
        run += 1
        if best < run <= side:
            best, start = run, (i - run + 1) % side
    return (start + best // 2) % side if best else 0  # the middle of the open sea


def _marks(side: int, first: int, step: int, cell: float, at: int) -> list[tuple[int, int]]:
    """The coordinates written along one edge, where each is drawn, 24 px apart at least."""
    marks: list[tuple[int, int]] = []
    for n in sorted(range(0, side, step), key=lambda n: (n - first) % side):
        where = at + round((n - first) % side * cell)
        if not marks or where - marks[-1][1] >= 24:
            marks.append((n, where))
    return marks


def _sample(path: str) -> None:
    """docs/PICTURES.md's sample: a lobby of 8 seats (seed 7, the default size), 3 taken."""
    from engine.strategic import lobby
    from engine.strategic.islands import free_islands
    from engine.strategic.mapgen import default_size, generate

    side = default_size(8)[0]
    world = generate("standard", nations=8, width=side, height=side, seed=7)
    for i, name in enumerate(("Red", "Blue", "Teal")):
        lobby.join(world, name.lower(), name, f"#00000{i}", None, {"island": 2 * i + 1})
    with open(path, "wb") as out:
        out.write(render_islands(free_islands(world), "Free starting islands: Founders"))


if __name__ == "__main__":  # python -m renderers.strategic.islands docs/pictures/free-islands.png
    import sys

    _sample(sys.argv[1])
