"""A ruleset as plain JSON-able data, for the rules pages, the bot's /rules command and tests.

Every field of the models is exported as it is (None becomes null), so a reader never has to
know which fields a ruleset left at their defaults.
"""

from __future__ import annotations

from typing import Any

from engine.strategic.rules.models import Ruleset

_HEAD = ("name", "title", "description", "units", "cities")


def ruleset_json(rules: Ruleset) -> dict[str, Any]:
    """`{"name", "title", "description", "units": [...], "cities": [...], <every other section>}`.

    Units and cities keep the order of the ruleset file; every other section (time,
    command_points, power, tech, supply, healing, mobility, sighting, engineer, capture, combat,
    diplomacy, start) follows as a plain dict in the order of the model. An optional section a
    ruleset does not have (seed 002's `battle` outside total-war) is left out.
    """
    data = rules.model_dump(mode="json")
    out: dict[str, Any] = {key: data.pop(key) for key in _HEAD}
    # an optional section a ruleset leaves out (seed 002's in rulesets other than total-war)
    # is left out here too
    out.update({key: value for key, value in data.items() if value is not None})
    return out
