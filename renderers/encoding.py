"""Pictures as the bytes of a file: a PNG (a palette PNG for the kit's palette pictures), and
frames as an animated GIF thinned to stay under a size."""

from __future__ import annotations

import io

from PIL import Image

MAX_BYTES = 8 * 1024 * 1024  # under Discord's 10 MiB attachment limit

# Pillow's usual formats (PNG, GIF among them) registered with this module, as its first save
# would do: a process that imports this at start-up imports none of them at its first picture
Image.preinit()


def png_bytes(image: Image.Image, *, compress_level: int = 6) -> bytes:
    """The picture as a PNG (a palette PNG for a palette picture)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()


def encode_gif(images: list[Image.Image], *, frame_ms: int = 400, limit: int = MAX_BYTES) -> bytes:
    """An animated GIF of the frames (the last one held longer), thinned until under `limit`."""
    if not images:
        raise ValueError("no frames to animate")
    chosen = images
    while True:
        buf = io.BytesIO()
        durations = [frame_ms] * (len(chosen) - 1) + [frame_ms * 6]
        chosen[0].save(
            buf,
            format="GIF",
            save_all=True,
            append_images=chosen[1:],
            duration=durations,
            loop=0,
        )
        data = buf.getvalue()
        if len(data) <= limit or len(chosen) <= 2:
            return data
        chosen = chosen[::2] if chosen[-1] is chosen[::2][-1] else [*chosen[::2], chosen[-1]]
