"""What a player chooses at `/game join` besides the game's own choices: the nation's name and
its colour, checked before anything is asked of the service. Colours are a palette name or
#rrggbb, and never one pictures could confuse with a colour taken in the game: at least
`APART` (CIEDE2000) from each (the palette's own colours keep 12.5 apart)."""

from __future__ import annotations

from bot.context import UserError
from engine.interface import colours
from engine.interface.names import markup_in
from renderers.colour import distance
from renderers.style import parse_colour

APART = 10.0  # the least CIEDE2000 distance between two nations' colours in one game


def closest(colour: str, taken: list[str]) -> tuple[float, str | None]:
    """How far `colour` is from the nearest of `taken`, and that one (inf, None: none)."""
    best: tuple[float, str | None] = (float("inf"), None)
    rgb = parse_colour(colour)
    for other in taken:
        d = distance(rgb, parse_colour(other))
        if d < best[0]:
            best = (d, other)
    return best


def name_of(colour: str) -> str:
    """A colour as players read it: its palette name (also a former one's), or its #rrggbb."""
    return colours.name_of(colour) or colour


def default_colour(taken: list[str]) -> str:
    """The first palette colour far enough from every taken one (the join's default)."""
    for hexa in colours.PALETTE.values():
        if closest(hexa, taken)[0] >= APART:
            return hexa
    return colours.default_colour(taken)


def choose_colour(text: str | None, taken: list[str]) -> str:
    """The colour a joining player asked for (None: the default), or a UserError saying why
    not: unknown, taken, or too close to a taken one."""
    if not text:
        return default_colour(taken)
    try:
        chosen = colours.resolve(text)
    except ValueError:
        raise UserError(
            f"{text!r} is not a colour: choose a name ({', '.join(list(colours.PALETTE)[:8])}, "
            "... suggested as you type) or #rrggbb."
        ) from None
    apart, near = closest(chosen, taken)
    if near is not None and apart == 0:
        raise UserError(f"The colour {name_of(chosen)} is taken in this game: choose another.")
    if near is not None and apart < APART:
        raise UserError(
            f"{name_of(chosen)} is too close to {name_of(near)}, a colour taken in this game: "
            "the maps could not tell the two nations apart. Choose another."
        )
    return chosen


def check_name(name: str, what: str = "name") -> str:
    """A name as given, stripped, or a UserError when messages could not show it."""
    from bot.parsing import readable

    name = name.strip()
    if not readable(name):
        raise UserError(f"{name!r} has characters that are not text: choose another {what}.")
    bad = markup_in(name)
    if bad is not None:
        raise UserError(
            f"A {what} is plain words: {bad} would break the messages naming it. "
            f"Choose another {what}."
        )
    return name
