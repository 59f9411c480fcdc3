"""The tile sets: the starter tiles load, each set holds only its kinds, and a tiles file that
is wrong is refused with a message naming the tile and what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.caldera import tiles
from engine.caldera.tiles import Kind, TilesError


def test_the_starter_tiles_hold_asteroids_in_a_planets_in_b_and_space_in_c() -> None:
    t = tiles.load()
    assert tiles.available() == ["starter"]
    kinds = {s: {t.card(c).kind for c in t.deck(s)} for s in "ABC"}
    assert kinds == {
        "A": {Kind.ASTEROIDS},
        "B": {Kind.PLANET},
        "C": {Kind.EMPTY, Kind.HALF_NEBULA, Kind.FULL_NEBULA},
    }
    assert (len(t.deck("A")), len(t.deck("B")), len(t.deck("C"))) == (20, 12, 20)
    planets = {t.card(c).planet for c in t.deck("B")}
    assert planets == {"earthlike", "arid", "cold", "vulcan"}
    sizes = {s for c in t.deck("A") for s in t.card(c).asteroids}
    assert sizes == {"small", "average", "huge"}
    assert {t.card(c).nebula for c in t.deck("A")} == {None, "half-nebula", "full-nebula"}


def write(tmp_path: Path, body: str) -> Path:
    good = """name = "mine"
[[tiles]]
id = "a"
set = "A"
kind = "asteroids"
asteroids = ["small"]
count = 1
[[tiles]]
id = "b"
set = "B"
kind = "planet"
planet = "arid"
count = 1
[[tiles]]
id = "c"
set = "C"
kind = "empty"
count = 1
"""
    path = tmp_path / "mine.toml"
    path.write_text(good + body, encoding="utf-8")
    return path


def test_a_small_tiles_file_loads(tmp_path: Path) -> None:
    t = tiles.load_file(write(tmp_path, ""))
    assert t.deck("B") == ["b"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[[tiles]]\nid = "p"\nset = "C"\nkind = "planet"\nplanet = "cold"\ncount = 1\n',
            "tile 'p': a tile of set C is empty, half-nebula, full-nebula, not planet",
        ),
        (
            '[[tiles]]\nid = "x"\nset = "A"\nkind = "asteroids"\ncount = 2\n',
            "tile 'x': an asteroid system needs at least one asteroid size",
        ),
        (
            '[[tiles]]\nid = "y"\nset = "A"\nkind = "asteroids"\nasteroids = ["tiny"]\ncount = 1\n',
            "tile 'y'.asteroids.0: Input should be 'small', 'average' or 'huge'",
        ),
        (
            '[[tiles]]\nid = "z"\nset = "B"\nkind = "planet"\ncount = 1\n',
            "tile 'z': a planet needs its type",
        ),
        (
            '[[tiles]]\nid = "n"\nset = "C"\nkind = "empty"\nnebula = "half-nebula"\ncount = 1\n',
            "tile 'n': only an asteroid system lies inside a nebula",
        ),
        (
            '[[tiles]]\nid = "a"\nset = "A"\nkind = "asteroids"\nasteroids = ["huge"]\ncount = 1\n',
            "tile ids used twice: a",
        ),
        (
            '[[tiles]]\nid = "q"\nset = "D"\nkind = "empty"\ncount = 1\n',
            "tile 'q'.set: Input should be 'A', 'B' or 'C'",
        ),
        (
            '[[tiles]]\nid = "w"\nset = "C"\nkind = "empty"\ncount = 0\n',
            "tile 'w'.count: Input should be greater than or equal to 1",
        ),
    ],
    ids=[
        "planet in C",
        "no asteroids",
        "unknown size",
        "no planet type",
        "nebula on empty",
        "id twice",
        "unknown set",
        "none of it",
    ],
)
def test_a_wrong_tile_is_refused_naming_the_tile_and_what_is_wrong(
    tmp_path: Path, body: str, message: str
) -> None:
    with pytest.raises(TilesError) as caught:
        tiles.load_file(write(tmp_path, body))
    assert str(caught.value).startswith("mine.toml: ")
    assert message in str(caught.value)


def test_a_set_with_no_tiles_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bare.toml"
    path.write_text('name = "bare"\n[[tiles]]\nid = "c"\nset = "C"\nkind = "empty"\ncount = 1\n')
    with pytest.raises(TilesError, match="no tiles in set A, B"):
        tiles.load_file(path)


def test_unknown_tiles_and_broken_toml_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(TilesError, match="unknown tiles 'nope'; available: starter"):
        tiles.load("nope")
    path = tmp_path / "broken.toml"
    path.write_text("name = \n")
    with pytest.raises(TilesError, match="broken.toml: not valid TOML"):
        tiles.load_file(path)
