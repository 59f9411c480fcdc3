"""Reading what players type: unit lists, coordinates, names."""

from __future__ import annotations

import difflib
import re

from bot.context import UserError

MAX_UNITS = 64


def unit_ids(text: str) -> list[int]:
    """'12', '12 13 14', '12,13', '12-15' -> ids (each once, in the order given)."""
    out: list[int] = []
    for part in re.split(r"[\s,;]+", text.strip()):
        if not part:
            continue
        m = re.fullmatch(r"#?(\d{1,9})(?:-(\d{1,9}))?", part)
        if not m:
            raise UserError(
                f"{part!r} is not a unit id: give ids like `12`, `12 13 14` or `12-15`."
            )
        first = int(m.group(1))
        last = int(m.group(2) or first)
        if last < first or last - first >= MAX_UNITS:
            raise UserError(f"{part!r} is not a sensible range of unit ids.")
        for uid in range(first, last + 1):
            if uid not in out:
                out.append(uid)
    if not out:
        raise UserError("Give at least one unit id.")
    if len(out) > MAX_UNITS:
        raise UserError(f"At most {MAX_UNITS} units in one order.")
    return out


def unit_number(value: int) -> int:
    """A unit's id given as a number (a command's integer option), refused when no unit could
    have it (a 5,000-digit number cannot even be written back)."""
    if not 0 < value < 10**9:
        shown = str(value) if abs(value) < 10**12 else "That number"
        raise UserError(f"{shown} is not one of your units: give its number as `/units` shows.")
    return value


def square(text: str, width: int, height: int) -> tuple[int, int]:
    """'x,y' (as the map shows them) -> (x, y) on the map."""
    m = re.fullmatch(r"\s*\(?\s*(-?\d{1,4})\s*[, ]\s*(-?\d{1,4})\s*\)?\s*", text or "")
    if not m:
        raise UserError(f"{text!r} is not a square: type it as the map shows, like `12,7`.")
    x, y = int(m.group(1)), int(m.group(2))
    if not (0 <= x < width and 0 <= y < height):
        raise UserError(
            f"{x},{y} is off the map: x goes from 0 to {width - 1}, y from 0 to {height - 1}."
        )
    return x, y


def choice(text: str, options: list[str], what: str) -> str:
    """A name from a list, forgiving case, spaces and dashes."""
    wanted = re.sub(r"[\s-]+", "_", text.strip().lower())
    for option in options:
        if wanted == option.lower():
            return option
    shown = [option.replace("_", " ") for option in options]
    guess = suggest(wanted, options)
    mean = f" Did you mean {guess.replace('_', ' ')}?" if guess else ""
    raise UserError(f"{text!r} is not a {what}.{mean} Choose one of {', '.join(shown)}.")


def suggest(word: str, options: list[str]) -> str | None:
    """The option a mistyped word most likely meant (`mvoe` -> `move`, `infnatry` ->
    `infantry`), or None when none is close: a swap of two letters, one letter missing,
    added or wrong. Case, spaces and dashes are forgiven as `choice` forgives them."""

    def norm(text: str) -> str:
        return re.sub(r"[\s_-]+", "_", text.strip().lower())

    wanted = norm(word)
    if not wanted:
        return None
    by_norm = {norm(o): o for o in options}
    close = difflib.get_close_matches(wanted, list(by_norm), n=1, cutoff=0.6)
    return by_norm[close[0]] if close else None


def readable(text: str) -> bool:
    """Whether the text can be kept and shown: no lone surrogates (what a terminal makes of
    bytes that are not UTF-8), which the store and Discord cannot take."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
