"""What a captain may know: the shared map, NPCs, trust, zone and event, every ship as the map
shows it, and only their own hand, credits, techs and fleet details; the kind's door
(registration, summary) as the host reads it."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from engine.caldera.kind import KIND
from engine.errors import GameError
from engine.interface import kind as kinds
from tests.games.caldera.engine.game import STATS, command, new_game, past_setup, resolve


def _text(view: object) -> str:
    return json.dumps(asdict(view), default=lambda o: o.model_dump(mode="json"), sort_keys=True)  # type: ignore[call-overload]


def test_a_captain_s_view_never_holds_another_captain_s_hand_or_credits() -> None:
    state = new_game()
    command(state, "ann", kind="stats", stats=STATS)
    command(state, "bob", kind="stats", stats=STATS)
    command(state, "bob", kind="bonus", bonus="earth-frigate")
    bob = state.captains["bob"]
    bob.credits = 123457  # a number nothing else in the game is
    frigate = next(s for s in state.ships.values() if s.owner == "bob")
    frigate.move = "0,-1"
    view = KIND.view_for(state, "ann")
    assert set(view.own) == {"ann"} and set(view.fleets) == {"ann"}
    text = _text(view)
    assert "123457" not in text
    ann_cards = {c for h in state.captains["ann"].hand for c in h.cards}
    for hand in bob.hand:
        for card in set(hand.cards) - ann_cards - set(state.zone_hand):
            assert card not in text
    # bob's frigate is on the map for ann: where, whose, its class; not its orders or parts
    seen = next(s for s in view.ships if s.id == frigate.id)
    assert (seen.owner, seen.klass, seen.at) == ("bob", "frigate", "0,0")
    assert '"move"' not in json.dumps(asdict(seen))
    assert not hasattr(seen, "parts")
    # bob's own view has it all
    own = KIND.view_for(state, "bob")
    assert own.own["bob"].credits == 123457 and own.fleets["bob"][0].move == "0,-1"


def test_everyone_sees_the_shared_campaign() -> None:
    state = past_setup()
    view = KIND.view_for(state, "bob")
    assert view.zone == state.zone and view.zone_counter == state.zone_counter
    assert view.trust == state.trust and view.event == state.event
    assert set(view.npcs) == set(state.npcs) and set(view.map.tiles) == set(state.map.tiles)
    assert set(view.captains) == {"ann", "bob", "cal"}


def test_the_summary_counts_who_has_submitted() -> None:
    state = past_setup()
    command(state, "ann", kind="submit")
    summary = KIND.summary(state)
    assert summary.kind == "caldera" and summary.seats == 3
    assert summary.turn is not None
    assert (summary.turn.number, summary.turn.done, summary.turn.playing) == (2, 1, 3)
    assert summary.turn.waiting == ("bob", "cal")


def test_caldera_is_registered_as_a_game_kind_with_its_bot_side() -> None:
    """One line in the registry: the core, and the bot side (bot/games/caldera)."""
    assert kinds.KINDS["caldera"] == kinds.Plugin(
        "engine.caldera.kind:KIND", "bot.games.caldera.side:SIDE"
    )
    found = kinds.kind("caldera")
    assert found.name == "caldera" and found.title == KIND.title
    state = found.setup({"max_nations": 2, "seed": 1})
    assert found.settings_of(state)["max_nations"] == 2


def test_a_deck_that_fails_validation_is_refused_at_creation(tmp_path: Path) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text('name = "mine"\ntitle = "Mine"\ndescription = ""\ncards = []\n')
    with pytest.raises(GameError, match="mine.toml"):
        KIND.setup({"deck": str(bad), "seed": 1})
    with pytest.raises(GameError, match="unknown deck"):
        KIND.setup({"deck": "no-such-deck", "seed": 1})


def test_every_event_of_a_few_turns_round_trips_through_its_stored_form() -> None:
    """The outbox stores events as JSON and the notifier reads them back (`parse_event`)."""
    state = past_setup()
    events = []
    for _ in range(3):
        events += resolve(state)
    events += command(state, "ann", kind="submit")
    kinds = set()
    for event in events:
        data = json.loads(json.dumps(event.model_dump(mode="json")))
        assert KIND.parse_event(data) == event
        kinds.add(event.kind)
    assert {"TurnResolved", "Income", "HandDrawn"} <= kinds
