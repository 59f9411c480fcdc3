"""Text measured in parts adds up to the text measured whole: a picture's header wraps its
items by their lengths added (`renderers.text.text_length`), which is only right while the
font has no kerning next to a space."""

from __future__ import annotations

import string

from renderers import style
from renderers.text import text_length


def test_a_line_of_items_is_as_long_as_its_items_and_gaps_added() -> None:
    gap = "   "
    for size in (12, 14, 16):
        font = style.font(size)
        for c in string.printable[:95]:
            assert font.getlength(c + gap) == text_length(c, size) + text_length(gap, size)
            assert font.getlength(gap + c) == text_length(gap, size) + text_length(c, size)
        items = ["end of day 3", "command points 1024 (+40 an hour)", "tech 3.09", "AI 1 12 cities"]
        whole = font.getlength(gap.join(items))
        assert whole == sum(text_length(i, size) for i in items) + 3 * text_length(gap, size)
