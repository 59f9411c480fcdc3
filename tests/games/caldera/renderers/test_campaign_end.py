"""The end of a Caldera campaign in its channel: the timelapse (the star map after each turn and
at the end, as a GIF) and the charts (each captain's numbers after each turn), both replayed
from the campaign's first state and its log as the service keeps them."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.caldera.kind import KIND
from engine.caldera.replay import turns_over_time
from engine.interface import entries as en
from renderers.caldera import layout_of
from renderers.caldera.charts import MEASURES, charts, measures, numbers_of, samples_by_turn
from renderers.caldera.timelapse import WIDTH, frames, thinned, timelapse
from renderers.encoding import MAX_BYTES
from tests.games.caldera.renderers.logged import logged_campaign

SEED = 17  # a campaign of AI captains with a battle in its first 12 turns, still going at 40
PNG = b"\x89PNG\r\n\x1a\n"


def n_frames(picture: Image.Image) -> int:
    return int(getattr(picture, "n_frames", 1))


def test_the_timelapse_is_a_frame_per_turn_and_the_end() -> None:
    first, log, end = logged_campaign(SEED, 6)
    assert end.turn == 6 and not end.ended
    gif = timelapse(first.model_copy(deep=True), log, title="Deep Field")
    picture = Image.open(io.BytesIO(gif))
    assert picture.format == "GIF" and n_frames(picture) == 7  # six turns and the end
    sizes = set()
    for k in range(n_frames(picture)):
        picture.seek(k)
        picture.load()
        sizes.add(picture.size)
    assert len(sizes) == 1 and next(iter(sizes))[0] == WIDTH


def test_each_frame_is_the_map_after_its_turn_with_its_battles_laid_out_as_the_last() -> None:
    first, log, end = logged_campaign(SEED, 12)
    shown = frames(first.model_copy(deep=True), log, title="Deep Field")
    assert len(shown) == end.turn + 1
    assert [p.subtitle.split(" · ")[0] for p in shown[:-1]] == [
        f"After turn {k}" for k in range(1, end.turn + 1)
    ]
    # the turns' battles, each on its own frame, as the turns' reports told them
    reports = [r for r, _ in turns_over_time(first.model_copy(deep=True), log) if r is not None]
    told = [sorted({str(b["at"]) for b in r.battles}) for r in reports]
    assert any(told), "no battle in the campaign: choose another seed"
    assert [sorted(p.battles) for p in shown[:-1]] == told
    # the map grows, and each place stays where the last frame has it
    assert len(shown[0].tiles) < len(shown[-1].tiles) == len(end.map.tiles)
    last = layout_of(shown[-1]).centres
    for picture in shown:
        centres = layout_of(picture).centres
        assert all(centres[t.place] == last[t.place] for t in picture.tiles)
    # the end: every captain's ships on the map
    on_map = {f.owner: 0 for f in shown[-1].fleets}
    for f in shown[-1].fleets:
        on_map[f.owner] += f.count
    for c in end.captains.values():
        assert on_map.get(c.name, 0) == len(end.ships_of(c.id))


def test_turns_passed_in_one_entry_of_time_are_each_a_moment() -> None:
    first, log, state = logged_campaign(SEED, 2)
    assert state.deadline is not None
    # nobody submits: time passes both the next deadline and the one after, in one entry
    ticks = state.deadline - state.tick + state.turn_ticks
    log.append(en.Advance(ticks=ticks).to_json())
    KIND.apply(state, en.Advance(ticks=ticks))
    assert state.turn == 4
    reports = [r.turn for r, _ in turns_over_time(first.model_copy(deep=True), log) if r]
    assert reports == [1, 2, 3, 4]
    assert len(frames(first.model_copy(deep=True), log)) == 5
    replayed = first.model_copy(deep=True)
    for _ in turns_over_time(replayed, log):
        pass
    assert KIND.hash(replayed) == KIND.hash(state)  # stepping time changed nothing


@pytest.mark.slow
def test_a_long_campaigns_timelapse_fits_an_upload_whole() -> None:
    first, log, end = logged_campaign(SEED, 40)
    assert end.turn == 40
    gif = timelapse(first, log, title="Deep Field")
    assert len(gif) < MAX_BYTES / 4  # (no frame thinned out: every turn is in it)
    assert n_frames(Image.open(io.BytesIO(gif))) == 41


def test_a_campaign_of_more_turns_than_frames_keeps_turns_evenly_and_its_last_and_end() -> None:
    first, log, _ = logged_campaign(SEED, 12)
    shown = frames(first.model_copy(deep=True), log)
    kept = thinned(shown, 5)
    assert len(kept) <= 5 and kept[-2:] == shown[-2:]  # the last turn and the end
    turns = [shown.index(p) + 1 for p in kept[:-1]]
    assert len({b - a for a, b in zip(turns, turns[1:], strict=False)}) == 1  # evenly
    assert thinned(shown, 13) == shown
    gif = timelapse(first, log, most=5)
    assert n_frames(Image.open(io.BytesIO(gif))) == len(kept)


def test_the_charts_are_the_numbers_after_each_turn_and_at_the_end() -> None:
    first, log, end = logged_campaign(SEED, 12)
    # the campaign replayed entry by entry here: the numbers each time a turn resolved
    state, after = first.model_copy(deep=True), {}
    for data in log:
        was = state.turn
        KIND.apply(state, en.entry_from_json(data))
        if state.turn != was:
            after[state.turn] = numbers_of(state)
    assert sorted(after) == list(range(1, 13))
    samples = samples_by_turn(first.model_copy(deep=True), log)
    assert [s.turn for s in samples] == list(range(1, 13))
    assert samples[:-1] == [after[k] for k in range(1, 12)]
    assert samples[-1] == numbers_of(end)
    found = measures(first.model_copy(deep=True), log)
    assert found is not None
    assert list(found.xs) == [f"turn {k}" for k in range(1, 13)]
    assert [p.title for p in found.panels] == [t for t, _ in MEASURES] + ["Zone reached"]
    ships, credits = found.panels[0], found.panels[1]
    for c in end.captains.values():
        line = next(s for s in ships.series if s.name == c.name)
        assert line.colour == c.colour
        assert line.values[-1] == len(end.ships_of(c.id))
        assert next(s for s in credits.series if s.name == c.name).values[-1] == c.credits
        assert len(set(line.values)) > 1  # (the fleets change over a campaign)
    assert found.panels[-1].series[0].values[-1] == end.zone


def test_no_turn_played_no_charts_and_charts_are_a_picture() -> None:
    first, log, _ = logged_campaign(SEED, 3)
    setup_only = [e for e in log if e["kind"] != "command" and e["kind"] != "advance"]
    assert measures(first.model_copy(deep=True), setup_only) is None
    data = charts(first, log, title="Deep Field")
    assert data is not None and data.startswith(PNG)
