"""The article before a word or a number, as it is said."""

import pytest

from engine.strategic.words import article


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("airport", "an airport"),
        ("ICBM", "an ICBM"),
        ("fort", "a fort"),
        ("tech centre", "a tech centre"),
        ("80x80", "an 80x80"),
        ("8x8", "an 8x8"),
        ("11x11", "an 11x11"),
        ("18x18", "an 18x18"),
        ("116x116", "a 116x116"),
        ("32x32", "a 32x32"),
        ("1", "a 1"),
    ],
)
def test_the_article_follows_the_sound(word: str, said: str) -> None:
    assert article(word) == said
