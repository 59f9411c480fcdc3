"""An AI nation's decisions: from its View (what a human would see) to engine commands.

`decide(view, memory, style)` is pure given its inputs (its dice are seeded from the view's
tick and nation). It never reads the world: it knows only what its nation may know. The
policy (described in `engine/strategic/ai/__init__.py`) is split by concern: `known` (the known map),
`state` (one decision's working state), `war`, `land`, `fight`, `builds`, `sealift`; what a
style does and the numbers it plays by are its `profile.Profile`. Here: the order in which
the parts run, and when a style decides at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.strategic import commands as cmd
from engine.strategic.ai import builds, fight, icbms, land, sealift, war
from engine.strategic.ai.memory import Memory, failed
from engine.strategic.ai.profile import EVERY_HOURS, PROFILES, STYLES, Profile
from engine.strategic.ai.state import Plan
from engine.strategic.rules import load as load_rules
from engine.strategic.view import View

LEVELS = ("easy", "normal")  # the difficulty a moderator picks for an AI nation (a style)

__all__ = [
    "EVERY_HOURS",
    "LEVELS",
    "PROFILES",
    "STYLES",
    "Decision",
    "Memory",
    "Profile",
    "decide",
    "failed",
    "resting",
]


@dataclass
class Decision:
    commands: list[cmd.Command]
    notes: list[str]


def resting(memory: Memory, style: str, tick: int, ticks_per_hour: int) -> bool:
    """Whether the AI lets this game hour pass without a decision (its style decides every
    `Profile.every_hours`): callers ask before they build the nation's view."""
    if not PROFILES[style].gives_orders:
        return True  # a style that gives no orders never needs a view
    hour = tick // ticks_per_hour
    return memory.decided is not None and 0 <= hour - memory.decided < EVERY_HOURS[style]


def plan(p: Plan) -> Decision:
    """The parts of the policy in the order their commands are issued (command points are
    spent on what matters most)."""
    profile = p.profile
    war.diplomacy(p)
    icbms.launch(p)
    land.hold(p)
    fight.fight(p)
    builds.cities(p)
    icbms.invest(p)
    land.garrison(p)
    if profile.sends_builds_to_front:
        builds.waypoints(p)
    if profile.founds_cities:
        land.found_cities(p)
    if profile.expands:
        land.expand(p)
    if profile.goes_abroad:
        sealift.transports(p)
    if profile.scouts:
        land.scout(p)
    return Decision(p.out, p.notes)


def decide(view: View, memory: Memory, style: str = "normal") -> Decision:
    if style not in STYLES:
        raise ValueError(f"an AI style is one of {', '.join(STYLES)}")
    profile = PROFILES[style]
    rules = load_rules(view.ruleset)
    if not profile.gives_orders:
        return Decision([], [f"{style}: no orders"])
    if resting(memory, style, view.tick, rules.ticks_per_hour):
        return Decision([], [f"{style}: resting this hour"])
    memory.decided = view.tick // rules.ticks_per_hour
    return plan(Plan(view, memory, profile, rules))
