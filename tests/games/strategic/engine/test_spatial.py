"""The tile index of the units that intercept or interdict (`world/spatial.py`): what it answers
after any history of units appearing, moving and vanishing is what an index built afresh from
where they are answers (it keeps its answers while no tile gains or loses an owner's set)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.strategic.world.spatial import TileIndex
from tests.scaled import examples

W, H = 20, 12
OWNERS = ["red", "blue", "green"]

steps = st.lists(
    st.tuples(
        st.sampled_from(["add", "move", "remove", "ask"]),
        st.integers(0, 7),  # a unit
        st.integers(0, W * H - 1),  # a square
        st.sampled_from(OWNERS),
        st.integers(0, 9),  # a radius
        st.sampled_from([None, *OWNERS]),  # the owner left out of an answer
    ),
    max_size=80,
)


def _answer(index: TileIndex, sq: int, radius: int, besides: str | None) -> list[list[int]]:
    return sorted(sorted(ids) for ids in index.buckets(sq, radius, besides=besides))


@settings(max_examples=examples(200), deadline=None)
@given(steps)
def test_the_index_answers_as_one_built_afresh(history) -> None:
    index = TileIndex(W, H, tile=4)
    where: dict[int, tuple[int, str]] = {}  # unit -> its square and owner
    for action, uid, sq, owner, radius, besides in history:
        if action == "add" and uid not in where:
            index.add(uid, sq, owner)
            where[uid] = (sq, owner)
        elif action == "move" and uid in where:
            old, who = where[uid]
            index.move(uid, old, sq, who)
            where[uid] = (sq, who)
        elif action == "remove" and uid in where:
            old, who = where.pop(uid)
            index.remove(uid, old, who)
        else:
            fresh = TileIndex(W, H, tile=4)
            for unit, (at, who) in where.items():
                fresh.add(unit, at, who)
            assert _answer(index, sq, radius, besides) == _answer(fresh, sq, radius, besides)
            # asked again (its kept answer), the same
            assert _answer(index, sq, radius, besides) == _answer(fresh, sq, radius, besides)
