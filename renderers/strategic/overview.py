"""The overview: a board too big for its squares to hold units' shapes and letters, drawn to
be read at 550 pixels across (issue 29). What it shows instead of detail:

- **territory**: every known land square within `TERRITORY` squares of a known owned city is
  the nearest such city's owner's (ties: the lower square): faintly tinted with its colour and
  edged in it, so who holds which island reads at a glance (`territory`, `draw_borders`);
- **front lines**: where the ground of the viewer's side (itself and its allies: their territory
  and the squares of their units in sight) meets the ground of a nation at war with it, a line
  in the war colour along the squares' edges;
- **cities** as squares in the owner's colour, **units** as dots at least `DOT` pixels across
  (one a square, the square's lead unit's owner; another nation's inside its relation's ring);
- **labels**: each nation's name over the middle of its largest group of cities (and of any
  other group of 3 or more), white on a black edge, 13 pixels, never over another label, and
  where it hides the fewest cities and units (above, below, beside the group).

Only what the view holds is drawn (the territory comes from the cities the nation knows)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

from engine.strategic.view import UnitView, View
from renderers.palette import Palette, mix
from renderers.strategic import style
from renderers.strategic.canvas import MapCanvas, owner_colour, relation_of
from renderers.strategic.region import Region

TERRITORY = 3  # squares round a city tinted in its owner's colour
TINT = 2  # of 7 parts: how much of the owner's colour is mixed into the land's
DOT = 4  # pixels: a unit's dot at the least
LABEL_PX = 13


def territory(view: View) -> tuple[np.ndarray, list[str]]:
    """For each square (h, w), the index into `owners` of the nation whose known city is
    nearest within `TERRITORY` (-1: none), and the owners' list; only known land counts."""
    h, w = view.height, view.width
    owned = sorted(
        (sq, c.owner)
        for sq, c in view.cities.items()
        if c.owner is not None and c.owner in view.nations
    )
    owners = sorted({o for _, o in owned})
    best = np.full(h * w, TERRITORY + 1, np.int32)
    who = np.full(h * w, -1, np.int32)
    if owned:
        # each city's window only, nearest first: the nearest city wins, ties the lower square
        sqs = np.array([sq for sq, _ in owned])
        index = np.array([owners.index(o) for _, o in owned], np.int32)
        cx, cy = sqs % w, sqs // w
        for d in range(TERRITORY + 1):
            ring = np.array(
                [
                    (dx, dy)
                    for dx in range(-d, d + 1)
                    for dy in range(-d, d + 1)
                    if max(abs(dx), abs(dy)) == d
                ]
            )
            targets = ((cy[:, None] + ring[None, :, 1]) % h) * w + (
                cx[:, None] + ring[None, :, 0]
            ) % w
            city = np.repeat(np.arange(len(owned)), len(ring))
            targets = targets.ravel()
            free = best[targets] > d
            targets, city = targets[free], city[free]
            order = np.lexsort((city, targets))  # by square, then the lower city first
            targets, city = targets[order], city[order]
            first = np.unique(targets, return_index=True)[1]
            who[targets[first]] = index[city[first]]
            best[targets[first]] = d
    land = view.terrain >= 2  # land or waste, known
    return np.where(land & (best <= TERRITORY), who, -1).reshape(h, w), owners


def tint_territory(
    image: Image.Image, view: View, region: Region, pal: Palette, colours: str
) -> tuple[np.ndarray, list[str]]:
    """Tint the terrain picture's land by territory (in place); the territory and its owners."""
    who, owners = territory(view)
    ix = np.ix_(region.rows, region.cols)
    shown = who[ix]
    seen = view.visible.reshape(view.height, view.width)[ix]
    c = region.cell
    pixels = np.asarray(image).copy()
    for k, owner in enumerate(owners):
        colour = owner_colour(view, owner, colours)
        for now, base in ((True, style.LAND), (False, style.dim(style.LAND))):
            mask = (shown == k) & (seen == now)
            if not mask.any():
                continue
            ink = pal.add(mix(base, colour, TINT))
            big = np.repeat(np.repeat(mask, c, axis=0), c, axis=1)
            pixels[big] = ink
    image.paste(Image.fromarray(pixels), (0, 0))
    return who, owners


def draw_borders(
    canvas: MapCanvas, view: View, region: Region, left: int, top: int, who, owners
) -> None:
    """Each nation's territory edged in its colour, on the inside of its squares."""
    ix = np.ix_(region.rows, region.cols)
    shown = who[ix]
    c = region.cell
    w = max(1, c // 3)
    padded = np.pad(shown, 1, constant_values=-1)
    for k, owner in enumerate(owners):
        mine = shown == k
        if not mine.any():
            continue
        ink = canvas.owner(view, owner)
        for dj, di in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            other = padded[1 + dj : 1 + dj + shown.shape[0], 1 + di : 1 + di + shown.shape[1]]
            for j, i in zip(*np.nonzero(mine & (other != k)), strict=True):
                x0, y0 = left + i * c, top + j * c
                if dj == -1:
                    box = (x0, y0, x0 + c - 1, y0 + w - 1)
                elif dj == 1:
                    box = (x0, y0 + c - w, x0 + c - 1, y0 + c - 1)
                elif di == -1:
                    box = (x0, y0, x0 + w - 1, y0 + c - 1)
                else:
                    box = (x0 + c - w, y0, x0 + c - 1, y0 + c - 1)
                canvas.draw.rectangle(box, fill=ink)


def draw_fronts(
    canvas: MapCanvas, view: View, region: Region, left: int, top: int, who, owners
) -> bool:
    """Lines where the viewer's side's ground (territory, units in sight) meets a warring
    nation's; whether any."""
    me = view.nations.get(view.nation)
    if me is None:
        return False
    side = {k for k, o in enumerate(owners) if relation_of(view, o) in ("you", "allied")}
    foes = {k for k, o in enumerate(owners) if relation_of(view, o) == "war"}
    if not side or not foes:
        return False
    ix = np.ix_(region.rows, region.cols)
    shown = who[ix]
    ours = np.isin(shown, list(side))
    theirs = np.isin(shown, list(foes))
    # a square with units in sight is their side's ground, whoever's territory it is in: an
    # invasion, a fleet off a coast
    col = {x: i for i, x in enumerate(region.cols)}
    row = {y: j for j, y in enumerate(region.rows)}
    ours_units = np.zeros_like(ours)
    theirs_units = np.zeros_like(ours)
    for u in view.units:
        x, y = u.sq % view.width, u.sq // view.width
        if u.seen == "memory" or x not in col or y not in row or u.owner not in view.nations:
            continue
        rel = relation_of(view, u.owner)
        if rel in ("you", "allied"):
            ours_units[row[y], col[x]] = True
        elif rel == "war":
            theirs_units[row[y], col[x]] = True
    ours = (ours & ~theirs_units) | ours_units
    theirs = (theirs & ~ours_units) | theirs_units
    both = ours & theirs  # both sides' units on one square: no line inside it
    ours &= ~both
    theirs &= ~both
    c = region.cell
    ink = canvas.ink(style.RELATION_COLOURS["war"])
    width = max(2, c // 3)
    drawn = False
    # vertical edges: between column i and i+1; horizontal: between row j and j+1
    meet_x = (ours[:, :-1] & theirs[:, 1:]) | (theirs[:, :-1] & ours[:, 1:])
    meet_y = (ours[:-1, :] & theirs[1:, :]) | (theirs[:-1, :] & ours[1:, :])
    for j, i in zip(*np.nonzero(meet_x), strict=True):
        x = left + (i + 1) * c
        y = top + j * c
        canvas.draw.line((x, y, x, y + c), fill=ink, width=width)
        drawn = True
    for j, i in zip(*np.nonzero(meet_y), strict=True):
        x = left + i * c
        y = top + (j + 1) * c
        canvas.draw.line((x, y, x + c, y), fill=ink, width=width)
        drawn = True
    return drawn


def draw_dots(
    canvas: MapCanvas, view: View, region: Region, left: int, top: int, drawn: set[str]
) -> None:
    """A dot a square with units (the lead unit's owner: seen before remembered, own first),
    at least `DOT` pixels, over cities' corners; hollow when only remembered."""
    c = region.cell
    col = {x: i for i, x in enumerate(region.cols)}
    row = {y: j for j, y in enumerate(region.rows)}
    by_square: dict[int, list[UnitView]] = {}
    for u in view.units:
        by_square.setdefault(u.sq, []).append(u)
    size = max(DOT, c - 1)
    outline = canvas.ink(style.OUTLINE)
    for sq, units in by_square.items():
        x, y = sq % view.width, sq // view.width
        if x not in col or y not in row:
            continue
        lead = min(units, key=lambda u: (u.seen == "memory", u.owner != view.nation, u.id))
        px = left + col[x] * c + c // 2 - size // 2
        py = top + row[y] * c + c // 2 - size // 2
        if sq in view.cities:  # the city's square stays readable: the dot on its corner
            px, py = left + col[x] * c + c - size // 2 - 1, top + row[y] * c + c - size // 2 - 1
        box = (px, py, px + size - 1, py + size - 1)
        fill = canvas.owner(view, lead.owner)
        if lead.seen == "memory":
            canvas.draw.ellipse(box, fill=None, outline=fill, width=max(1, size // 4))
            drawn.add("ghost:land")
            continue
        ring = canvas.ring(view, lead.owner)
        if ring is not None and size >= 6:
            canvas.draw.ellipse(box, fill=ring, outline=outline)
            box = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
        canvas.draw.ellipse(box, fill=fill, outline=outline)
        drawn.add("dot")


def draw_labels(
    canvas: MapCanvas, view: View, region: Region, left: int, top: int, clip
) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Each nation's name over the middle of its largest group of known cities on the picture
    (and of its other groups of 3 or more), skipped where it would cover another label; the
    labels and their boxes."""
    c = region.cell
    col = {x: i for i, x in enumerate(region.cols)}
    row = {y: j for j, y in enumerate(region.rows)}
    places: dict[str, list[tuple[int, int]]] = {}
    for sq, city in view.cities.items():
        x, y = sq % view.width, sq // view.width
        if city.owner in view.nations and x in col and y in row:
            places.setdefault(city.owner, []).append((col[x], row[y]))
    font = style.font(LABEL_PX)
    taken: list[tuple[int, int, int, int]] = []
    labels: list[tuple[str, tuple[int, int, int, int]]] = []
    # the nations with the most cities first: they get their places before the others
    groups: list[tuple[str, list[tuple[int, int]]]] = []
    for owner, points in sorted(places.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        found = _groups(points, max(2, 24 // max(1, c)))
        # its largest group, then any other of 3 cities or more
        groups += [(owner, g) for i, g in enumerate(found) if i == 0 or len(g) >= 3]
    # what a name should not hide: cities and units, with a square round them
    occupied = np.zeros((len(region.rows) + 2, len(region.cols) + 2), np.int32)
    for sq in [*view.cities, *(u.sq for u in view.units)]:
        x, y = sq % view.width, sq // view.width
        if x in col and y in row:
            occupied[row[y] : row[y] + 3, col[x] : col[x] + 3] = 1  # padded by one square

    def hides(box: tuple[int, int, int, int]) -> int:
        """How many busy squares (cities, units, the squares round them) a box covers."""
        i0, j0 = (box[0] - left) // c + 1, (box[1] - top) // c + 1
        i1, j1 = (box[2] - 1 - left) // c + 2, (box[3] - 1 - top) // c + 2
        return int(occupied[max(0, j0) : max(0, j1), max(0, i0) : max(0, i1)].sum())

    step = LABEL_PX + 6
    for owner, group in groups:
        gx = sum(p[0] for p in group) / len(group)
        gy = sum(p[1] for p in group) / len(group)
        name = view.nations[owner].name
        text = name if owner != view.nation else f"{name} (you)"
        w = int(font.getlength(text)) + 4
        cx, cy = left + gx * c + c / 2, top + gy * c + c / 2
        best: tuple[int, int, tuple[int, int, int, int]] | None = None
        for order, (dx, dy) in enumerate(
            [(0, -step), (0, step), (0, -2 * step), (0, 2 * step), (-w, 0), (w, 0), (0, 0)]
        ):
            x0 = int(min(max(cx + dx - w / 2, clip[0]), clip[2] - w))
            y0 = int(min(max(cy + dy - LABEL_PX / 2, clip[1]), clip[3] - LABEL_PX - 4))
            box = (x0, y0, x0 + w, y0 + LABEL_PX + 4)
            if any(_overlap(box, other) for other in taken):
                continue
            hidden = hides(box)
            if best is None or (hidden, order) < best[:2]:
                best = (hidden, order, box)
        if best is not None:
            box = best[2]
            taken.append(box)
            labels.append((text, box))
            canvas.text_over(
                (box[0] + 2, box[1] + 1), text, LABEL_PX, style.TEXT, None, 2, (0, 0, 0), clip
            )
    return labels


def _groups(points: Sequence[tuple[int, int]], near: int) -> list[list[tuple[int, int]]]:
    """The points in groups, each point within `near` of another of its group; largest first."""
    left = list(points)
    out: list[list[tuple[int, int]]] = []
    while left:
        group = [left.pop()]
        i = 0
        while i < len(group):
            gx, gy = group[i]
            close = [p for p in left if max(abs(p[0] - gx), abs(p[1] - gy)) <= near]
            for p in close:
                left.remove(p)
            group += close
            i += 1
        out.append(group)
    return sorted(out, key=len, reverse=True)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
