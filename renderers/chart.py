"""Line charts of a finished game: one panel per measure (cities, power, ...), one line per
nation in its colour over the game's time, a legend of the nations above. Drawn at twice the
size Discord shows inline (550 px), so its text stays legible there. Each game gives its
measures (`Charts`: its panels and the labels of their points), which the bot keeps as JSON
(`Charts.to_json`, `Charts.from_json`) and draws when asked (`draw`); nothing here names a game
or reads a store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renderers import style
from renderers.encoding import png_bytes

WIDTH = 1100  # shown at 550 px: half of every size below
PANEL_HEIGHT = 300
MARGIN_LEFT = 96
MARGIN_RIGHT = 28
TITLE_SIZE = 34
TEXT_SIZE = 26
LINE_WIDTH = 5
GRID = (60, 64, 72)


@dataclass(frozen=True)
class Series:
    """One nation's line: its name, its colour ('#rrggbb') and its values, one per x."""

    name: str
    colour: str
    values: Sequence[float]


@dataclass(frozen=True)
class Panel:
    """One measure: its title ("Cities") and a line per nation."""

    title: str
    series: Sequence[Series]


@dataclass(frozen=True)
class Charts:
    """A game's measures over its time: the panels, and the label of each point ("day 2",
    "turn 3"; "": a point with no label). No panel: a game with nothing to chart (it never
    started, or no turn was played)."""

    panels: Sequence[Panel]
    xs: Sequence[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "xs": list(self.xs),
            "panels": [
                {
                    "title": p.title,
                    "series": [
                        {"name": s.name, "colour": s.colour, "values": list(s.values)}
                        for s in p.series
                    ],
                }
                for p in self.panels
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Charts:
        return cls(
            [
                Panel(
                    p["title"],
                    [
                        Series(s["name"], s["colour"], [float(v) for v in s["values"]])
                        for s in p["series"]
                    ],
                )
                for p in data.get("panels", [])
            ],
            [str(x) for x in data.get("xs", [])],
        )


NONE = Charts((), ())


def draw(charts: Charts, title: str = "") -> bytes | None:
    """The charts as a PNG under the game's name (None: nothing to chart)."""
    if not charts.panels:
        return None
    heading = f"{title}: the game in numbers" if title else "The game in numbers"
    return draw_charts(heading, charts.panels, charts.xs)


def _nice_top(value: float) -> float:
    """The top of an axis: the value rounded up to 1, 2 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 1.0
    while power * 10 <= value:
        power *= 10
    while power > value and power > 1e-9:
        power /= 10
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def _number(value: float) -> str:
    return f"{value:g}" if value < 10_000 else f"{value / 1000:g}k"


def draw_charts(title: str, panels: Sequence[Panel], xs: Sequence[str]) -> bytes:
    """The panels stacked under a title and a legend, as a PNG. `xs` are the labels of the
    points (every series has one value per label: "day 2", "turn 3"; "": a point with no
    label); those there is room for are written under each panel."""
    names: dict[str, str] = {}  # the nations in the order first met: name -> colour
    for panel in panels:
        for s in panel.series:
            names.setdefault(s.name, s.colour)
    big, text = style.font(TITLE_SIZE), style.font(TEXT_SIZE)
    # the legend: swatches and names, wrapped to the width
    legend: list[list[tuple[str, str]]] = [[]]
    x = MARGIN_LEFT
    for name, colour in names.items():
        width = 44 + int(text.getlength(name)) + 28
        if legend[-1] and x + width > WIDTH - MARGIN_RIGHT:
            legend.append([])
            x = MARGIN_LEFT
        legend[-1].append((name, colour))
        x += width
    top = 20 + TITLE_SIZE + 16 + len(legend) * (TEXT_SIZE + 14) + 10
    height = top + len(panels) * (PANEL_HEIGHT + 20) + 10
    image = Image.new("RGB", (WIDTH, height), style.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN_LEFT, 20), title, font=big, fill=style.TEXT)
    y = 20 + TITLE_SIZE + 16
    for row in legend:
        x = MARGIN_LEFT
        for name, colour in row:
            rgb = style.parse_colour(colour)
            draw.rectangle((x, y + 4, x + 32, y + TEXT_SIZE - 2), fill=rgb, outline=style.OUTLINE)
            draw.text((x + 44, y), name, font=text, fill=style.TEXT)
            x += 44 + int(text.getlength(name)) + 28
        y += TEXT_SIZE + 14
    for i, panel in enumerate(panels):
        _panel(draw, panel, xs, top + i * (PANEL_HEIGHT + 20))
    return png_bytes(image)


def _panel(draw: ImageDraw.ImageDraw, panel: Panel, xs: Sequence[str], top: int) -> None:
    text = style.font(TEXT_SIZE)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    plot_top, plot_bottom = top + TEXT_SIZE + 12, top + PANEL_HEIGHT - TEXT_SIZE - 12
    draw.text((left, top), panel.title, font=text, fill=style.TEXT)
    highest = max((v for s in panel.series for v in s.values), default=0.0)
    peak = _nice_top(highest)
    for fraction in (0.0, 0.5, 1.0):
        y = plot_bottom - fraction * (plot_bottom - plot_top)
        draw.line((left, y, right, y), fill=GRID, width=2)
        label = _number(peak * fraction)
        draw.text((left - 12, y), label, font=text, fill=style.TEXT_DIM, anchor="rm")
    count = len(xs)

    def x_of(i: int) -> float:
        return left + (right - left) * (i / (count - 1) if count > 1 else 0.5)

    # the labels given (an empty one is a point with none), left to right, each written
    # where there is room for it after the last one written
    room = float(left)
    for i, label in enumerate(xs):
        if not label:
            continue
        half = text.getlength(label) / 2
        centre = min(max(x_of(i), left + half), right - half)
        if centre - half < room:
            continue
        draw.text((centre, plot_bottom + 8), label, font=text, fill=style.TEXT_DIM, anchor="mt")
        draw.line((x_of(i), plot_bottom, x_of(i), plot_bottom + 6), fill=style.TEXT_DIM, width=2)
        room = centre + half + 24
    for s in panel.series:
        rgb = style.parse_colour(s.colour)
        points = [
            (x_of(i), plot_bottom - (v / peak) * (plot_bottom - plot_top))
            for i, v in enumerate(s.values)
        ]
        if len(points) == 1:
            px, py = points[0]
            draw.ellipse((px - 5, py - 5, px + 5, py + 5), fill=rgb)
        elif points:
            draw.line(points, fill=style.OUTLINE, width=LINE_WIDTH + 4, joint="curve")
            draw.line(points, fill=rgb, width=LINE_WIDTH, joint="curve")
