"""Nation colours: a named palette players choose from (and the default for nations that do
not choose), picked to stay apart from each other and from the map's terrain colours."""

from __future__ import annotations

PALETTE: dict[str, str] = {
    "red": "#e6194b",
    "blue": "#4363d8",
    "yellow": "#ffe119",
    "orange": "#f58231",
    "purple": "#911eb4",
    "cyan": "#42d4f4",
    "magenta": "#f032e6",
    "lime": "#bfef45",
    "pink": "#fabed4",
    "teal": "#469990",
    "lavender": "#dcbeff",
    "brown": "#9a6324",
    "cream": "#fffac8",
    "maroon": "#800000",
    "mint": "#aaffc3",
    "navy": "#000075",
    "olive": "#808000",
    "apricot": "#ffd8b1",
    "black": "#202020",
    "grey": "#a9a9a9",
}


def default_colour(taken: list[str] | set[str]) -> str:
    """The first palette colour nobody has taken yet."""
    used = {c.lower() for c in taken}
    for colour in PALETTE.values():
        if colour not in used:
            return colour
    return "#a9a9a9"


def resolve(text: str) -> str:
    """A palette name or '#rrggbb' to '#rrggbb'; raises ValueError otherwise."""
    t = text.strip().lower()
    if t in PALETTE:
        return PALETTE[t]
    h = t.lstrip("#")
    if len(h) == 6 and all(ch in "0123456789abcdef" for ch in h):
        return "#" + h
    raise ValueError(f"a colour is one of {', '.join(PALETTE)} or #rrggbb, not {text!r}")
