"""Terrain and fog as palette indices: water, land, coast (land next to water: where ships
can reach) and waste; never seen dark, remembered dimmed, in sight clear; faint grid lines
on squares of 8 pixels and more."""

from __future__ import annotations

import numpy as np
from PIL import Image

from engine.strategic.view import View
from renderers.palette import Palette
from renderers.strategic import style
from renderers.strategic.region import Region


def terrain_pixels(view: View, region: Region, pal: Palette) -> Image.Image:
    h, w = view.height, view.width
    terrain = view.terrain.reshape(h, w)
    visible = view.visible.reshape(h, w)
    # 0 never seen, 1 water, 2 land, 3 waste, 4 coast (known land next to known water)
    codes = terrain.astype(np.uint8).copy()
    water = terrain == 1
    # water in the square or any of its 8 neighbours (the map wraps): rows, then columns
    rows = water | np.roll(water, 1, axis=0) | np.roll(water, -1, axis=0)
    near_water = rows | np.roll(rows, 1, axis=1) | np.roll(rows, -1, axis=1)
    codes[(terrain == 2) & near_water] = 4
    if view.wastelands:  # 5: a wasteland (ruleset total-war), whatever its land
        codes.reshape(-1)[list(view.wastelands)] = 5
    ix = np.ix_(region.rows, region.cols)
    codes = codes[ix]
    seen_now = visible[ix]
    colours = [
        style.NEVER_SEEN,
        style.WATER,
        style.LAND,
        style.WASTE,
        style.COAST,
        style.WASTELAND,
    ]
    dimmed = [style.NEVER_SEEN] + [style.dim(c) for c in colours[1:]]
    lookup = np.array([pal.add(c) for c in dimmed + colours], np.uint8)  # code + 6 * in sight
    small = lookup[codes + len(colours) * seen_now.astype(np.uint8)]
    c = region.cell
    rows, cols = small.shape
    if c < 8:
        return Image.fromarray(np.repeat(np.repeat(small, c, axis=0), c, axis=1))
    # faint grid lines: the first row and column of each square darker, twice where they cross
    line = np.arange(256, dtype=np.uint8)
    for i in set(lookup.tolist()):
        line[i] = pal.add(style.grid_line(pal.colours[i]))
        line[line[i]] = pal.add(style.grid_line(pal.colours[line[i]]))
    edge = line[small]
    body = np.repeat(small, c, axis=1)  # a square's rows but the first
    body[:, ::c] = edge
    first = np.repeat(edge, c, axis=1)
    first[:, ::c] = line[edge]
    big = np.empty((rows, c, cols * c), np.uint8)
    big[:, 0, :] = first
    big[:, 1:, :] = body[:, None, :]
    return Image.fromarray(big.reshape(rows * c, cols * c))
