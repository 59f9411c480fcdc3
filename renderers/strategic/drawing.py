"""Strategic Initiative's pictures drawn in the drawing pool's workers (`renderers.pool`), so
drawing never holds the event loop's thread or the GIL of the bot's process.

    from renderers.strategic import drawing
    data = await drawing.draw_focus(view, title=..., markers=...)    # PNG bytes: what matters
    data = await drawing.draw_map(view, title=..., markers=...)      # the whole board
    data = await drawing.draw_overview(view, title=...)              # it, made for 550 px
    data = await drawing.draw_crop(view, centre, radius, title=...)
    data = await drawing.run(fn, view, ...)                          # any picture of a view

Each draws in `pool` when given, else in the default pool. The View (frozen dataclasses and
numpy arrays) travels to a worker as a `Parcel`, which draws it (`mapimage.render_focus` /
`render_map` / `render_crop`) and encodes it (`png_bytes`); only the PNG's bytes come back.
Importing this module registers the Parcel and the workers' warm-up (the rulesets and the
map's fonts) with the pool.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

from engine.strategic.rules import load as load_rules
from engine.strategic.view import CityView, UnitView, View
from renderers import pool as drawing
from renderers.encoding import png_bytes
from renderers.pool import DrawPool
from renderers.strategic import style
from renderers.strategic.mapimage import render_crop, render_focus, render_map, render_overview
from renderers.strategic.markers import Marker

# --- sending a view ------------------------------------------------------------------------------

_VIEW_FIELDS = tuple(f.name for f in fields(View))
_UNIT = attrgetter(*(f.name for f in fields(UnitView)))
_CITY = attrgetter(*(f.name for f in fields(CityView)))


class Parcel:
    """A View on its way to a worker. Pickling a View object by object costs about 1.3 ms at
    128x128 (a Python call per unit), in the bot's process, holding its GIL; a Parcel pickles
    the units and cities as plain tuples (0.2 ms) and is a View again in the worker."""

    __slots__ = ("view",)

    def __init__(self, view: View) -> None:
        self.view = view

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        v = self.view
        values = {name: getattr(v, name) for name in _VIEW_FIELDS}
        values["units"] = [_UNIT(u) for u in v.units]
        values["cities"] = [(sq, _CITY(c)) for sq, c in v.cities.items()]
        return (_unpack, (values,))


def _unpack(values: dict[str, Any]) -> View:
    values["units"] = [UnitView(*u) for u in values["units"]]
    values["cities"] = {sq: CityView(*c) for sq, c in values["cities"]}
    return View(**values)


# --- what runs in a worker ----------------------------------------------------------------------


def warm() -> None:
    """Load what every map needs (the rulesets, the map's fonts), once per worker."""
    for name in ("standard", "classic"):
        with contextlib.suppress(Exception):
            load_rules(name)
    for size in (8, 10, 12, 13, 14, 16):
        style.font(size)


def draw_map_bytes(view: View, options: dict[str, Any]) -> bytes:
    """`render_map(view, **options)` encoded as PNG (in a worker, or anywhere)."""
    return png_bytes(render_map(view, **options))


def draw_focus_bytes(view: View, options: dict[str, Any]) -> bytes:
    """`render_focus(view, **options)` encoded as PNG."""
    return png_bytes(render_focus(view, **options))


def draw_overview_bytes(view: View, options: dict[str, Any]) -> bytes:
    """`render_overview(view, **options)` encoded as PNG."""
    return png_bytes(render_overview(view, **options))


def draw_crop_bytes(view: View, centre: int, radius: int, options: dict[str, Any]) -> bytes:
    """`render_crop(view, centre, radius, **options)` encoded as PNG."""
    return png_bytes(render_crop(view, centre, radius, **options))


drawing.send_as(View, Parcel)
drawing.warm_up(warm)

# --- drawing -------------------------------------------------------------------------------------


async def run(fn: Callable[..., Any], *args: Any, pool: DrawPool | None = None) -> Any:
    """`fn(*args)` in a worker of `pool` (else the default pool), Views travelling as
    `Parcel`s (see `DrawPool.run`)."""
    chosen = pool if pool is not None else drawing.default_pool()
    return await chosen.run(fn, *args)


async def draw_map(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int | None = None,
    legend: bool = True,
    colours: str = "nation",
    pool: DrawPool | None = None,
) -> bytes:
    """The nation's whole board as PNG bytes (`mapimage.render_map`)."""
    options = {
        "title": title,
        "markers": list(markers),
        "cell": cell,
        "legend": legend,
        "colours": colours,
    }
    return await run(draw_map_bytes, view, options, pool=pool)


async def draw_focus(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    colours: str = "nation",
    pool: DrawPool | None = None,
) -> bytes:
    """What matters to the nation, or round the markers, as PNG bytes
    (`mapimage.render_focus`)."""
    options = {"title": title, "markers": list(markers), "colours": colours}
    return await run(draw_focus_bytes, view, options, pool=pool)


async def draw_overview(
    view: View,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    pool: DrawPool | None = None,
) -> bytes:
    """The whole board made for 550 pixels across, as PNG bytes (`mapimage.render_overview`)."""
    options = {"title": title, "markers": list(markers)}
    return await run(draw_overview_bytes, view, options, pool=pool)


async def draw_crop(
    view: View,
    centre: int,
    radius: int,
    *,
    title: str = "",
    markers: Sequence[Marker] = (),
    cell: int = 60,
    colours: str = "nation",
    pool: DrawPool | None = None,
) -> bytes:
    """A zoomed window round `centre` as PNG bytes (`mapimage.render_crop`)."""
    options = {"title": title, "markers": list(markers), "cell": cell, "colours": colours}
    return await run(draw_crop_bytes, view, centre, radius, options, pool=pool)
