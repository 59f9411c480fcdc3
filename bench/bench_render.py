"""One nation's full-map picture: drawing it and encoding it as PNG, against the floor of
encoding the same picture as a palette PNG alone. Target (issue 13): drawing + encoding <= 2x
the palette-PNG encode of the same picture.

Pictures of real games (AI play, `bench.bench_sitrep.played_game`): 4 nations on 40x40 and 8 on
128x128 after three game days; and of the big benchmark worlds (`bench.worlds.big_world`) at
64x64, 128x128 and 256x256. Also a zoomed crop.

For a picture that is not a palette picture (the renderer before issue 13 drew RGB), the floor
is the encode of `image.convert("P", palette=ADAPTIVE)`: the palette PNG it could have been.
Each figure is the median of 9 runs; draw, encode and floor are timed in the same loop and
the ratio is the median of the runs' ratios. Times are the thread's CPU time (`time.thread_time`:
all three are one thread's work), so other processes on a shared machine count less."""

from __future__ import annotations

import statistics
import time

from PIL import Image

from bench.worlds import big_world
from engine.strategic.clock import advance
from engine.strategic.view import View, view_for
from renderers.encoding import png_bytes
from renderers.strategic.mapimage import render_crop, render_map

RUNS = 9


def palette_png(image: Image.Image) -> Image.Image:
    if image.mode == "P":
        return image
    return image.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)


def measure(view: View) -> dict:
    draws, encodes, floors, ratios = [], [], [], []
    image, data, small = None, b"", b""
    for _ in range(RUNS):  # interleaved, so that the machine's noise hits all three alike
        t0 = time.thread_time()
        image = render_map(view, title="bench")
        t1 = time.thread_time()
        data = png_bytes(image)
        t2 = time.thread_time()
        pal = palette_png(image)
        t3 = time.thread_time()
        small = png_bytes(pal)
        t4 = time.thread_time()
        draws.append((t1 - t0) * 1000)
        encodes.append((t2 - t1) * 1000)
        floors.append((t4 - t3) * 1000)
        ratios.append((t2 - t0) / (t4 - t3))
    assert image is not None
    colours = image.getcolors(1 << 24)
    return {
        "draw": statistics.median(draws),
        "encode": statistics.median(encodes),
        "floor": statistics.median(floors),
        "ratio": statistics.median(ratios),
        "bytes": len(data),
        "floor_bytes": len(small),
        "colours": len(colours) if colours else 0,
        "mode": image.mode,
        "size": image.size,
    }


def report(label: str, view: View) -> None:
    r = measure(view)
    total = r["draw"] + r["encode"]
    print(
        f"{label} ({len(view.units)} units, {len(view.cities)} cities in view; "
        f"{r['size'][0]}x{r['size'][1]} px, {r['mode']}): draw {r['draw']:.1f} ms + PNG "
        f"{r['encode']:.1f} ms = {total:.1f} ms, {r['bytes'] / 1024:.0f} KiB, {r['colours']} colours;"
        f" palette-PNG encode alone (floor) {r['floor']:.1f} ms, {r['floor_bytes'] / 1024:.0f} KiB"
        f" -> {r['ratio']:.2f}x (median of {RUNS}; target <= 2x)"
    )


def main() -> None:
    from bench.bench_sitrep import played_game

    for nations, size in ((4, 40), (8, 128)):
        world, _ = played_game(nations, size, 3)
        report(f"real game {size}x{size}, day 3", view_for(world, sorted(world.nations)[0]))
    view = None
    for size, nations, units in ((64, 4, 1_000), (128, 8, 5_000), (256, 32, 20_000)):
        world = big_world(nations=nations, size=size, units=units)
        advance(world, 4)
        view = view_for(world, sorted(world.nations)[0])
        report(f"big world {size}x{size}", view)
    assert view is not None
    home = next(c.sq for c in view.own_cities())
    crops = []
    crop = b""
    for _ in range(RUNS):
        t0 = time.thread_time()
        crop = png_bytes(render_crop(view, home, 6, title="bench"))
        crops.append((time.thread_time() - t0) * 1000)
    print(
        f"crop radius 6 at 256x256, drawn and encoded: {statistics.median(crops):.1f} ms "
        f"({len(crop) / 1024:.0f} KiB)"
    )


if __name__ == "__main__":
    main()
