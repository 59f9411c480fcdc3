"""The end-of-game timelapse: the game replayed from its first state and its log, the whole
board after each turn with that turn's moves and conflicts, as an animated GIF."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PIL import Image

from engine.supplylines.events import TurnMoved
from engine.supplylines.state import State
from renderers.supplylines.board import render_board


def timelapse(first: State, entries: Iterable[dict[str, Any]], *, title: str = "") -> bytes:
    """The game replayed from its first state (changed in place) as a GIF: the whole board
    after each turn, with that turn's moves and conflicts, and the board at the end.
    Replaying and drawing take a while: run it off the event loop."""
    from engine.interface.entries import entry_from_json
    from engine.supplylines.kind import KIND
    from engine.supplylines.view import full_view
    from renderers.encoding import encode_gif

    images: list[Image.Image] = []
    for data in entries:
        events = KIND.apply(first, entry_from_json(data))
        for event in events:
            if isinstance(event, TurnMoved):
                images.append(
                    render_board(full_view(first), title=title, turn_report=event, size=600)
                )
    images.append(render_board(full_view(first), title=title, size=600))
    return encode_gif(images, frame_ms=900)
