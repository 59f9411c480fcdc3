"""/help in a Supply Lines game: its rules, a topic a page, with the numbers read from its
ruleset (data/rulesets/supply-lines/*.toml). The topics are /help's own (Discord keeps one
list of choices); Strategic Initiative's command points and power have no page here."""

from __future__ import annotations

from engine.supplylines.rules import Rules

# /help's topics -> what they are in Supply Lines (None: no such thing in this game)
TITLES: dict[str, str | None] = {
    "start": "first steps",
    "units": "units and structures",
    "cp": None,
    "power": None,
    "supply": "supply lines and marks",
    "combat": "conflicts and bump-backs",
    "diplomacy": "the end: victory, defeat, concession",
    "commands": "the commands and how orders are written",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _structure_rows(rules: Rules) -> list[str]:
    rows = []
    for name, s in rules.structures.items():
        what = []
        if s.popcap:
            what.append(f"PopCap +{s.popcap}")
        if s.supply:
            what.append(_plural(s.supply, "supply line"))
        if s.builds:
            what.append("builds units")
        if s.victory:
            what.append("needed to win")
        rows.append(f"- **{s.letter}** {name}: {', '.join(what) or 'a place to stand'}")
    return rows


def _unit_rows(rules: Rules) -> list[str]:
    return [
        f"- **{name}**: strength {u.strength}, PopCap {u.popcap}, needs "
        f"{_plural(u.supply, 'supply line')}"
        for name, u in rules.units.items()
    ]


def page(rules: Rules, topic: str) -> str:
    """One help page (topic one of TITLES; the caller checked it is a /help topic)."""
    title = TITLES.get(topic)
    head = f"**Help: {title}** ({rules.title})" if title else ""
    m = rules.marks
    start = ", ".join(rules.start_units) or "no units"
    if topic == "start":
        body = [
            "Every player leads an army on a graph of structures (C city, H home city, R "
            "refinery, M military base); roads join them. Everyone sees the whole board.",
            f"You start with your home city and {start} in it.",
            "Each turn, everyone gives orders at the same time (`/orders add`), then "
            "`/orders submit`; the turn resolves at its deadline, or once everyone has "
            "submitted. You get a DM with the result and a picture of the board.",
            "Take cities to grow (each raises your PopCap), keep your units supplied from your "
            "refineries and home city, and hold every city and home city to win.",
            "More: `/help topic:units`, `supply`, `combat`, `diplomacy`, `commands`.",
        ]
    elif topic == "units":
        body = [
            "**Structures**",
            *_structure_rows(rules),
            "**Units**",
            *_unit_rows(rules),
            "Your PopCap is what your structures give; your units use it. Builds happen at "
            "your home city and bases, as far as the PopCap left allows. A player over their "
            "PopCap (after losing a city) disbands units at the start of the next turn: the "
            "most marked first; `/orders list` says which before you order.",
        ]
    elif topic == "supply":
        body = [
            "Your structures that are joined by roads through your own structures form a "
            "network; its refineries and home city send supply lines to the units in it.",
            *_unit_rows(rules),
            f"After the moves, a unit without its lines gets {_plural(m.penalty, 'mark')}; "
            f"a supplied one loses {m.restoration}. At {m.immobile_at} marks a unit is "
            f"immobile (it can still defend); marks stop at {m.most}.",
            "When a network has fewer lines than its units need and there is a choice, you "
            "are asked by DM which units to supply (a menu, with a deadline); without an "
            "answer, the most marked, then the strongest, then the oldest are supplied.",
        ]
    elif topic == "combat":
        body = [
            "Units of different players in one structure fight: the greatest total strength "
            "wins and takes the structure; the others are bumped back to where they came "
            "from. On a tie, everyone is bumped back except the defenders (units that had no "
            "move order).",
            "Units moving into each other along one road meet on the road: the stronger go "
            "on, the weaker are bumped back.",
            "Units bumped back into a structure where another player's units now stand fight "
            "again: a bump-back chain, told in your report round by round. A unit with "
            "nowhere to go back to retreats to a structure of yours next to it, or is "
            "destroyed.",
            "Strengths: " + ", ".join(f"{n} {u.strength}" for n, u in rules.units.items()) + ".",
        ]
    elif topic == "diplomacy":
        body = [
            "There is no diplomacy in Supply Lines: orders speak.",
            "**Victory**: hold every city and home city at the end of a turn.",
            "**Defeat**: hold no structure.",
            "**Concession**: the order `Concede` (or `/game resign`): everything you have "
            "becomes neutral.",
            "A game also ends at its length (or by a moderator): the player holding the most "
            "cities and home cities wins.",
        ]
    elif topic == "commands":
        body = [
            "`/orders add` one order, written as the rules write them (suggestions offered):",
            "- `C2 > C3`: every movable unit in C2 moves to C3",
            "- `3 Infantry + 1 Tank @ C2 > C3`: those units only",
            "- `Hold@R2`: stay (units without orders hold anyway)",
            "- `Build 1 Tank@M1`: at your home city or a base, within your PopCap",
            "- `Concede`: give up the game",
            "Diplomacy notation works too: `A C2 - C3` (the A/F prefix is ignored), `C2-C3`, "
            "`A C2 H` (hold); there are no support or convoy orders.",
            "`/orders list` your orders, `/orders clear` take them back (`number:` only that "
            "one), `/orders submit` when "
            "done (adding or clearing takes a submission back), `/orders board` the board "
            "(text and picture), `/orders supply` answer a supply question (or use the DM's "
            "menu).",
            "`/game info` the turn, who has not submitted, the deadline. `/game caretaker` "
            "lets the AI give your orders while you are away. Reminders of a deadline come "
            "by DM an hour before (`/notify mute:reminders`: a ping in the game's channel "
            "instead).",
        ]
    else:
        others = ", ".join(f"`{k}`" for k, v in TITLES.items() if v)
        return f"Supply Lines has no {topic} (that is Strategic Initiative's). Topics: {others}."
    return "\n".join([head, *body])
