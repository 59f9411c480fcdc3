"""One nation's full-map picture at 64x64, 128x128 and 256x256: drawing it, and encoding the
same image as PNG alone (the floor). Target: drawing + encoding <= 2x the encoding alone.
Also a zoomed crop and the view itself."""

from __future__ import annotations

import statistics
import time

from bench.worlds import big_world
from engine.clock import advance
from engine.view import view_for
from renderers.mapimage import png_bytes, render_crop, render_map


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def main() -> None:
    for size, nations, units in ((64, 4, 1_000), (128, 8, 5_000), (256, 32, 20_000)):
        world = big_world(nations=nations, size=size, units=units)
        advance(world, 4)
        view = view_for(world, sorted(world.nations)[0])
        draw_ms, image = timed(lambda view=view: render_map(view, title="bench"))
        png_ms, data = timed(lambda image=image: png_bytes(image))
        total = draw_ms + png_ms
        print(
            f"{size}x{size} ({len(view.units)} units in view): draw {draw_ms:.1f} ms + PNG {png_ms:.1f} ms"
            f" = {total:.1f} ms; PNG alone (floor) {png_ms:.1f} ms -> {total / png_ms:.2f}x (target <= 2x);"
            f" {image.width}x{image.height} px, {len(data) / 1024:.0f} KiB"
        )
    home = next(c.sq for c in view.own_cities())
    crop_ms, crop = timed(lambda: png_bytes(render_crop(view, home, 6, title="bench")))
    print(
        f"crop radius 6 at 256x256, drawn and encoded: {crop_ms:.1f} ms ({len(crop) / 1024:.0f} KiB)"
    )


if __name__ == "__main__":
    main()
