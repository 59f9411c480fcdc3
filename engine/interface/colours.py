"""Nation colours: a named palette players choose from (and the default for nations that do
not choose), picked to stay apart from each other in CIEDE2000 and from the map's terrain, fog and
marker colours (>= 18): `tests/renderers/test_palette.py` measures it. The first 8, which the
joiners of a game of up to 8 (every Supply Lines game, a Strategic Initiative game of the default
size) get, keep 25 apart; the first 18 keep 14; the 14 after them, for games of up to 32
nations, keep 12.5 from every other. Pure data: nothing in the rules or the world's hash depends
on a colour. There is no black or grey (they vanish into the fog and the unowned cities); the
fallback grey is only for a palette used up by nations that chose their own colours."""

from __future__ import annotations

PALETTE: dict[str, str] = {
    # the first 8 (Supply Lines' 6 seats, a Strategic Initiative game's default 8) keep 25
    # apart from each other: red and orange, 18 apart, were hard to tell at 550 pixels
    "red": "#e6195f",
    "blue": "#8c78ff",
    "yellow": "#ffe600",
    "lime": "#00d20f",
    "cyan": "#0ab9f5",
    "purple": "#730f8c",
    "pink": "#fab9cd",
    "teal": "#007869",
    "orange": "#ff3c00",
    "magenta": "#b45a96",
    "lavender": "#c3b4ff",
    "brown": "#b4694b",
    "cream": "#d2ff87",
    "maroon": "#a53c00",
    "mint": "#69ffb4",
    "navy": "#000a50",
    "olive": "#876900",
    "apricot": "#e1b9aa",
    # past 18 nations (games go up to 32): chosen greedily, each as far as could be from all
    # the colours above it, kept off the map's own colours, neither dark nor grey
    "jade": "#69b4a5",
    "violet": "#693cff",
    "cerulean": "#0087b4",
    "lilac": "#9687b4",
    "rose": "#ff69a5",
    "moss": "#5a6900",
    "pine": "#1e5a19",
    "plum": "#785a96",
    "crimson": "#d2001e",
    "raspberry": "#b41969",
    "salmon": "#ff7869",
    "honeydew": "#d2f0c3",
    "turquoise": "#00a5b4",
    "mauve": "#c38796",
}
_NAMES = {hexa: name for name, hexa in PALETTE.items()}


FALLBACK = "#a9a9a9"

# the palette's colours before the first 8 were set 25 apart (issue 29): a nation that joined
# before keeps its colour, which still counts as its name's (a lobby open across the change
# gives nobody the same red twice, and the welcome names it)
FORMERLY: dict[str, str] = {
    "#ff2d5a": "red",
    "#7887ff": "blue",
    "#ffff00": "yellow",
    "#960096": "purple",
    "#3cb4ff": "cyan",
    "#00f000": "lime",
    "#ffb4d2": "pink",
    "#007878": "teal",
    "#3c0078": "navy",
    "#f0b4a5": "apricot",
    "#3c694b": "pine",
    "#c32d5a": "raspberry",
}


def name_of(colour: str) -> str | None:
    """The palette's name of a colour ('#rrggbb'), also of one it had before; None if none."""
    c = colour.lower()
    return _NAMES.get(c) or FORMERLY.get(c)


def default_colour(taken: list[str] | set[str]) -> str:
    """The first palette colour nobody has taken yet (under its name: a nation that joined
    with a palette colour's former value has taken that colour)."""
    used = {c.lower() for c in taken}
    used |= {PALETTE[FORMERLY[c]] for c in list(used) if c in FORMERLY}
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
