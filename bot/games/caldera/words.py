"""Caldera's things in words, for replies, DMs and the channel: cards, techs, ships, places,
the zone and its mission. Pure functions of a captain's view (`engine.caldera.view.View`) and
the game's rules and deck: each says only what that view holds."""

from __future__ import annotations

from engine.caldera.rules import Deck, Rules, load_deck
from engine.caldera.rules import load as load_rules
from engine.caldera.state import EARTH, Ship
from engine.caldera.view import View

HANDS = {
    "research": "research",
    "design": "design",
    "mission": "loyalty mission",
    "reward": "mission reward",
    "tech": "half-price tech",
    "zone": "zone mission",
}


def rules_of(view: View) -> Rules:
    return load_rules(view.ruleset)


def deck_of(view: View) -> Deck:
    return load_deck(view.deck, view.ruleset)


def tech_name(deck: Deck, tech: str) -> str:
    found = deck.techs.get(tech)
    return found.name if found is not None else tech


def card_label(view: View, hand: str, card: str) -> str:
    """A card as its hand's choice reads it: the tech (research, design, a tech), the mission
    (loyalty and zone missions, by the card's number), with the card's number."""
    deck, rules = deck_of(view), rules_of(view)
    try:
        found = deck.card(card)
    except KeyError:
        return card
    if hand == "mission":
        mission = rules.missions[found.number - 1]
        return f"{mission.difficulty} mission {found.number}: {mission.text}"
    if hand == "zone":
        zone = rules.zone_missions[found.number - 1]
        return f"zone mission {found.number}, {zone.name}: {zone.text}"
    if hand == "reward":
        return f"reward {found.number}: {rules.rewards[found.number - 1].text}"
    tech = deck.techs.get(found.tech)
    if tech is None:
        return card
    return f"{tech.name} (level {tech.level} {tech.category}, card {found.number})"


def tech_line(view: View, tech: str, layout: int) -> str:
    deck = deck_of(view)
    t = deck.techs.get(tech)
    if t is None:
        return tech
    what = f"{t.name}: level {t.level} {t.category}"
    if t.weapon:
        what += f" ({t.weapon})"
    if t.covers:
        what += f" (against {', '.join(t.covers)})"
    return f"{what}, layout {layout} (value {t.value(layout)}, size {t.size}, costs {t.build_cost})"


def ship_line(view: View, ship: Ship) -> str:
    deck = deck_of(view)
    parts: dict[str, int] = {}
    for p in ship.parts:
        parts[p] = parts.get(p, 0) + 1
    fitted = ", ".join(
        f"{n} {tech_name(deck, p)}" if n > 1 else tech_name(deck, p) for p, n in parts.items()
    )
    state = f"{ship.structure - ship.damage}/{ship.structure} structure"
    where = "at Earth" if ship.at == EARTH else f"at {ship.at}"
    orders = []
    if ship.move:
        orders.append(f"moving to {ship.move}")
    if ship.retreat:
        orders.append("retreats from its next battle")
    tail = f"; {', '.join(orders)}" if orders else ""
    return (
        f"ship {ship.id}: {tech_name(deck, ship.klass)} {where}, {state}"
        f" ({fitted or 'no parts'}){tail}"
    )


def owner_name(view: View, owner: str) -> str:
    if owner == view.nation:
        return "you"
    if owner in view.captains:
        return view.captains[owner].name
    npc = view.npcs.get(owner)
    return npc.name if npc is not None else owner


def zone_line(view: View) -> str:
    rules = rules_of(view)
    mission = ""
    if view.zone_mission is not None:
        zm = rules.zone_missions[view.zone_mission - 1]
        done = " (done)" if view.zone_mission_done else ""
        mission = f"; zone mission {zm.name}{done}: {zm.text}"
    elif view.zone_hand:
        mission = "; the zone mission is still to choose (`/captain choose hand:zone`)"
    return f"Zone {view.zone}, zone counter {view.zone_counter}, trust {view.trust}{mission}."


def event_line(view: View) -> str:
    if view.event is None:
        return ""
    try:
        card = deck_of(view).event_card(view.event.card)
    except StopIteration:
        return ""
    return f"Event **{card.name}** ({view.event.turns_left} more turn(s)): {card.text}"


def menu_labels(
    hand: str, cards: list[str], *, deck: str = "starter", ruleset: str = "standard"
) -> dict[str, str]:
    """Each card's label in a menu, read from the game's rules and deck (a card the deck does
    not know, or a deck that can no longer be read, keeps its id)."""
    from engine.caldera.rules import DeckError, RulesError, load, load_deck

    out = {c: c for c in cards}
    try:
        rules = load(ruleset)
        cards_of = load_deck(deck, rules)
    except (RulesError, DeckError):  # the deck file gone or broken since the game began
        return out
    for c in cards:
        try:
            card = cards_of.card(c)
        except KeyError:
            continue
        if hand == "mission":
            out[c] = f"Mission {card.number}: {rules.missions[card.number - 1].text}"
        elif hand == "zone":
            zone = rules.zone_missions[card.number - 1]
            out[c] = f"Zone mission {card.number}, {zone.name}: {zone.text}"
        elif hand == "reward":
            out[c] = f"Reward {card.number}: {rules.rewards[card.number - 1].text}"
        elif card.tech in cards_of.techs:
            tech = cards_of.techs[card.tech]
            out[c] = f"{tech.name} (level {tech.level} {tech.category}; card {card.number})"
    return out
