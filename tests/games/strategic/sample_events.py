"""Events as the engine makes them, for tests of what players are told and shown."""

from __future__ import annotations

from typing import Any

from engine.strategic import events as ev


def attacked(**changes: Any) -> ev.Attacked:
    """Red's infantry 12 attacks Blue's tank 40 at 12,7 from 11,7 (tick 5, told to both), with
    `changes` to any field."""
    fields: dict[str, Any] = dict(
        tick=5,
        to=["blue", "red"],
        attacker="red",
        defender="blue",
        square="12,7",
        from_square="11,7",
        attacker_unit=12,
        attacker_type="infantry",
        defender_unit=40,
        defender_type="tank",
        damage=3,
        counter=2,
        attacker_hp=8,
        defender_hp=7,
    )
    fields.update(changes)
    return ev.Attacked.model_validate(fields)
