"""A captain's hand: the cards drawn for a choice (research, design, mission, tech) and
waiting for it, dealt from the main deck and discarded when chosen or replaced."""

from __future__ import annotations

from engine.caldera import captain as stats_
from engine.caldera import deck
from engine.caldera import events as ev
from engine.caldera.captain import Stats
from engine.caldera.state import Captain, Hand, State
from engine.errors import CommandError


def stats_of(c: Captain) -> Stats:
    """The captain's stats (a captain who has not set them yet has none to spend with)."""
    if c.stats is None:
        raise CommandError("set your stats first")
    return c.stats


def deal_hand(
    state: State, c: Captain, kind: str, count: int, *, optional: bool = False
) -> list[ev.Event]:
    """Cards drawn into the captain's hand for a choice (a hand of that kind replaces the
    one waiting: its cards go to the discard)."""
    drop_hand(state, c, kind)
    if kind in ("research", "tech"):
        # only the techs the captain may research (the rules' level step), the others
        # drawn on the way discarded (the project's reading)
        def usable(card: str) -> bool:
            tech = state.cards.card(card).tech
            return stats_.can_research(tech, c.techs, state.cards, state.rules)

        cards = deck.deal_matching(state.decks.main, count, state, usable)
    else:
        cards = deck.deal(state.decks.main, count, state)
    if not cards:
        return []
    c.hand.append(Hand(kind=kind, cards=cards, optional=optional))  # type: ignore[arg-type]
    return [ev.HandDrawn(tick=state.tick, to=[c.id], captain=c.id, hand=kind, cards=cards)]


def drop_hand(state: State, c: Captain, kind: str) -> None:
    for hand in [h for h in c.hand if h.kind == kind]:
        deck.discard(state.decks.main, hand.cards)
        c.hand.remove(hand)
