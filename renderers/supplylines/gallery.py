"""The Supply Lines board of docs/PICTURES.md, at 550 pixels as Discord shows it in a message:
four players round a contested C9 (three in the palette's first colours, red, blue and yellow;
Dee chose orange, 24 from red in CIEDE2000, so the board tells them apart), the turn's fight, bump-backs and losses drawn over the board, networks short of supply.

    python -m renderers.supplylines.gallery docs/pictures [--name supplylines-after]
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

from engine.interface.colours import PALETTE
from engine.supplylines import turns
from engine.supplylines.events import TurnMoved
from engine.supplylines.kind import KIND
from engine.supplylines.state import State
from engine.supplylines.view import view_for
from renderers.supplylines.board import draw_board

WIDTH = 550  # what Discord shows of a picture in a message

OWNERS = {
    "p1": "H1 M1 C7 R1 C1 H2 R2 C2 C4 R4",
    "p2": "C6 C3",
    "p3": "H3 R3 M3 C9",
    "p4": "H4 M4 C8 C5",
}
UNITS = [
    ("p1", "C2", ["tank", "infantry", "infantry"]),
    ("p1", "C4", ["infantry"]),
    ("p1", "C7", ["infantry"]),
    ("p2", "C6", ["infantry", "infantry", "tank"]),
    ("p3", "C9", ["tank"]),
    ("p3", "H3", ["infantry"]),
    ("p4", "C8", ["tank"]),
    ("p4", "H4", ["infantry"]),
]
ORDERS = {"p1": ["C2 > C9", "C4 > C9"], "p2": ["C6 > C9"], "p3": ["Hold@C9"], "p4": ["C8 > C9"]}


def contested() -> tuple[State, TurnMoved]:
    """The board after the turn everyone went for C9 (and what the turn did)."""
    state = KIND.setup({"map": "four", "seed": 1, "turn_hours": 24})
    colours = [PALETTE[name] for name in ("red", "blue", "yellow", "orange")]
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"], 1):
        turns.join(state, f"p{seat}", name, colours[seat - 1], str(seat))
    turns.start(state)
    for label in state.owners:
        state.owners[label] = None
    state.units.clear()
    for pid, labels in OWNERS.items():
        for label in labels.split():
            state.owners[label] = pid
    for pid, at, types in UNITS:
        for type_ in types:
            unit = state.add_unit(type_, pid, at)
            unit.marks = 1 if pid == "p2" and type_ == "infantry" else 0
    for pid, orders in ORDERS.items():
        for text in orders:
            turns.add_order(state, pid, text)
    events = turns.resolve_orders_phase(state)
    if state.phase == "supply":
        turns.finish_turn(state)
    moved = next(e for e in events if isinstance(e, TurnMoved))
    return state, moved


def picture(width: int = WIDTH) -> Image.Image:
    state, moved = contested()
    data = draw_board(view_for(state, "p1"), title="Four: everyone into C9", turn_report=moved)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return image.resize(
        (width, round(image.height * width / image.width)), Image.Resampling.LANCZOS
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--name", default="supplylines-after")
    args = parser.parse_args()
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    picture().save(folder / f"{args.name}.png", optimize=True)


if __name__ == "__main__":
    main()
