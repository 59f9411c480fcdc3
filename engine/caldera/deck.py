"""Caldera's card piles as they live in a game's state: a draw pile and a discard pile of card
ids for each deck (the main deck, the event cards, the tile decks A, B and C).

    decks = new_decks(deck, state)               # every pile shuffled, once, at the start
    cards = deal(decks.main, 3, state)           # three card ids off the top
    discard(decks.main, cards)                   # back onto the discard pile

"At any point if there are no cards in the deck, shuffle discard to the deck": when the draw
pile runs out the discard is shuffled back (through `chance.draw`, so the same state deals the
same cards). A card in a captain's hand is in neither pile until it is discarded. The top of
a draw pile is the end of its list."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from engine.caldera.chance import Seeded, shuffled
from engine.caldera.rules import Deck


class Pile(BaseModel):
    """One deck's cards: `cards` to draw from (the top is the last), `discard` face up."""

    model_config = ConfigDict(extra="forbid")

    name: str  # main, events, A, B, C: the purpose named to chance when it is shuffled
    cards: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)

    def __len__(self) -> int:
        return len(self.cards) + len(self.discard)


class Decks(BaseModel):
    """Every pile of a game: the main deck, the event cards and the tile decks by letter."""

    model_config = ConfigDict(extra="forbid")

    main: Pile = Field(default_factory=lambda: Pile(name="main"))
    events: Pile = Field(default_factory=lambda: Pile(name="events"))
    tiles: dict[str, Pile] = Field(default_factory=dict)  # "A", "B", "C"


def new_pile(name: str, ids: Sequence[str], state: Seeded) -> Pile:
    """A pile of `ids`, shuffled."""
    return Pile(name=name, cards=shuffled(state, f"shuffle {name}", ids))


def new_decks(deck: Deck, state: Seeded, tiles: dict[str, Sequence[str]] | None = None) -> Decks:
    """A game's piles at the start: the main deck and the event cards of `deck`, and the tile
    decks `tiles` (letter -> tile ids) when given, each shuffled."""
    return Decks(
        main=new_pile("main", deck.card_ids(), state),
        events=new_pile("events", deck.event_ids(), state),
        tiles={k: new_pile(k, list(ids), state) for k, ids in sorted((tiles or {}).items())},
    )


def reshuffle(pile: Pile, state: Seeded) -> None:
    """The discard shuffled under the cards left (the seed: when the deck is empty)."""
    if pile.discard:
        pile.cards[:0] = shuffled(state, f"shuffle {pile.name}", pile.discard)
        pile.discard.clear()


def draw_one(pile: Pile, state: Seeded) -> str | None:
    """The top card (reshuffling the discard first when the pile is empty); None when both
    piles are empty (every card is in hands or in play)."""
    if not pile.cards:
        reshuffle(pile, state)
    return pile.cards.pop() if pile.cards else None


def deal(pile: Pile, count: int, state: Seeded) -> list[str]:
    """`count` cards off the top (fewer only when every card is out of both piles)."""
    out: list[str] = []
    for _ in range(count):
        card = draw_one(pile, state)
        if card is None:
            break
        out.append(card)
    return out


def deal_matching(
    pile: Pile, count: int, state: Seeded, usable: Callable[[str], bool]
) -> list[str]:
    """`count` cards that are `usable`, drawn in turn; the others drawn on the way go to the
    discard. Stops early when every card of both piles has been looked at once, so it ends
    even when too few cards are usable."""
    out: list[str] = []
    looked = 0
    limit = len(pile)
    while len(out) < count and looked < limit:
        card = draw_one(pile, state)
        if card is None:
            break
        looked += 1
        if usable(card):
            out.append(card)
        else:
            pile.discard.append(card)
    return out


def discard(pile: Pile, cards: Iterable[str]) -> None:
    """Cards back onto the discard pile (after a choice, when an event ends...)."""
    pile.discard.extend(cards)
