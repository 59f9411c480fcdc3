"""Random commands from anyone, valid or not, on a small game: a command either applies or is
refused with a message, and a refused one changes nothing (the game's hash is the same)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import ValidationError

from engine.caldera.kind import KIND
from engine.caldera.state import State
from engine.errors import CommandError, GameError
from engine.interface import entries as en
from tests.games.caldera.engine.game import STATS, new_game


def _command(rng: random.Random, state: State) -> dict[str, Any]:
    techs = sorted(state.cards.techs)
    ships = [*sorted(state.ships), 999]
    places = [*sorted(state.map.tiles), "0,-1", "1,0", "3,-3", "x"]
    cards = [c for cap in state.captains.values() for h in cap.hand for c in h.cards]
    cards += ["interceptor-1", *state.zone_hand]
    kind = rng.choice(
        ["stats", "bonus", "choose", "fund", "build", "upgrade", "repair", "refit", "scrap",
         "recruit", "move", "retreat", "submit", "deadline"]
    )  # fmt: skip
    options: dict[str, Any] = {
        "stats": {"stats": rng.choice([STATS, {"cha": 15}, {"int": 1, "cha": 14}, {"x": 1}])},
        "bonus": {
            "bonus": rng.choice([b.id for b in state.rules.bonuses] + ["nope"]),
            "tech": rng.choice([None, *techs]),
            "stat": rng.choice([None, "cha", "x"]),
        },
        "choose": {
            "hand": rng.choice(["research", "design", "mission", "tech", "zone"]),
            "card": rng.choice([None, *cards]),
        },
        "fund": {"amount": rng.randint(1, 500)},
        "build": {"klass": rng.choice(techs), "parts": rng.sample(techs, rng.randint(0, 3))},
        "upgrade": {
            "klass": rng.choice([None, *techs]),
            "parts": rng.sample(techs, rng.randint(0, 2)),
        },
        "repair": {"ship": rng.choice([None, *ships]), "points": rng.choice([None, 1, 5])},
        "refit": {"ship": rng.choice(ships), "parts": rng.sample(techs, rng.randint(0, 3))},
        "scrap": {"ship": rng.choice(ships)},
        "recruit": {"units": {rng.choice([*state.rules.land_units, "x"]): rng.randint(0, 4)}},
        "move": {
            "ships": rng.sample(ships, rng.randint(1, min(3, len(ships)))),
            "to": rng.choice([None, *places]),
        },
        "retreat": {"ship": rng.choice(ships), "on": rng.random() < 0.5},
        "deadline": {"now": rng.random() < 0.5, "extend_ticks": rng.choice([0, 4])},
        "submit": {},
    }
    return {"kind": kind, **options[kind]}


def test_random_commands_apply_or_change_nothing() -> None:
    applied = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = new_game(seed)
        for _ in range(100):
            if state.ended:
                break
            nation = rng.choice(["ann", "bob", "cal", "@moderator", "zed"])
            data = _command(rng, state)
            before = KIND.hash(state)
            try:
                KIND.apply(state, en.CommandEntry(nation=nation, command=data))
                applied += 1
            except (CommandError, GameError, ValidationError):
                assert KIND.hash(state) == before, (nation, data)
            if rng.random() < 0.05:
                KIND.apply(state, en.Advance(ticks=rng.randint(1, 100)))
    assert applied > 10  # the game moved on: not everything was refused
