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
    step = 8 if w <= 64 else 16 if w <= 128 else 32
    for x in range(0, w, step):  # the board's coordinates, as the game's labels read
        draw.text(
            (left + round(x * cell), top - 4), str(x), font=small, fill=style.TEXT_DIM, anchor="ld"
        )
    for y in range(0, h, step):
        draw.text(
            (left - 4, top + round(y * cell)), str(y), font=small, fill=style.TEXT_DIM, anchor="rt"
        )
    for island in islands.free:
        for sq in island.land:
            x0, y0 = left + int(sq % w * cell), top + int(sq // w * cell)
            x1, y1 = left + int((sq % w + 1) * cell), top + int((sq // w + 1) * cell)
            draw.rectangle((x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)), fill=style.LAND)
    number = style.font(NUMBER_SIZE)
    for island in islands.free:
        hx, hy = island.home % w, island.home // w
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
        "Choose one with /game join home:<number>  (the grey square: its first home city)",
        font=small,
        fill=style.TEXT_DIM,
    )
    return png_bytes(image)
