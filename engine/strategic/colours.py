"""Nation colours: a named palette players choose from (and the default for nations that do
not choose), picked to stay apart from each other (CIEDE2000 >= 14) and from the map's terrain, fog and
marker colours (>= 18): `tests/renderers/test_palette.py` measures it. Pure data: nothing in
the rules or the world's hash depends on a colour. There is no black or grey (they vanish into
the fog and the unowned cities); a nation past the palette gets the fallback grey, and is told
apart from the others by relation on its players' maps."""

from __future__ import annotations

PALETTE: dict[str, str] = {
    "red": "#ff2d5a",
    "blue": "#7887ff",
    "yellow": "#ffff00",
    "orange": "#ff3c00",
    "purple": "#960096",
    "cyan": "#3cb4ff",
    "magenta": "#b45a96",
    "lime": "#00f000",
    "pink": "#ffb4d2",
    "teal": "#007878",
    "lavender": "#c3b4ff",
    "brown": "#b4694b",
    "cream": "#d2ff87",
    "maroon": "#a53c00",
    "mint": "#69ffb4",
    "navy": "#3c0078",
    "olive": "#876900",
    "apricot": "#f0b4a5",
}

FALLBACK = "#a9a9a9"


def default_colour(taken: list[str] | set[str]) -> str:
    """The first palette colour nobody has taken yet."""
    used = {c.lower() for c in taken}
    for colour in PALETTE.values():
        if colour not in used:
            return colour
    return FALLBACK


def resolve(text: str) -> str:
    """A palette name or '#rrggbb' to '#rrggbb'; raises ValueError otherwise."""
    t = text.strip().lower()
    if t in PALETTE:
        return PALETTE[t]
    h = t.lstrip("#")
    if len(h) == 6 and all(ch in "0123456789abcdef" for ch in h):
        return "#" + h
    raise ValueError(f"a colour is one of {', '.join(PALETTE)} or #rrggbb, not {text!r}")
