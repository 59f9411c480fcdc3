"""Caldera's card piles and its one source of chance: the same state deals the same cards; an
empty pile takes its discard back, shuffled; the piles live in the state as plain data."""

from __future__ import annotations

from pydantic import BaseModel

from engine.caldera import chance
from engine.caldera.deck import Decks, Pile, deal, deal_matching, discard, new_decks, new_pile
from engine.caldera.rules import load_deck

DECK = load_deck("starter", "standard")


class Game(BaseModel):
    """The part of a game's state the piles and chance need."""

    seed: int
    draws: int = 0
    decks: Decks = Decks()


def game(seed: int) -> Game:
    g = Game(seed=seed)
    g.decks = new_decks(DECK, g, tiles={"A": ["a1", "a2", "a3"], "C": ["c1", "c2"]})
    return g


def test_the_same_seed_deals_the_same_cards() -> None:
    one, two = game(7), game(7)
    assert deal(one.decks.main, 5, one) == deal(two.decks.main, 5, two)
    assert deal(one.decks.events, 2, one) == deal(two.decks.events, 2, two)
    assert one.draws == two.draws


def test_another_seed_deals_other_cards() -> None:
    one, two = game(7), game(8)
    assert deal(one.decks.main, 5, one) != deal(two.decks.main, 5, two)


def test_a_new_game_holds_every_card_once_in_its_piles() -> None:
    g = game(1)
    assert sorted(g.decks.main.cards) == sorted(DECK.card_ids())
    assert sorted(g.decks.events.cards) == sorted(DECK.event_ids())
    assert sorted(g.decks.tiles["A"].cards) == ["a1", "a2", "a3"]
    assert g.decks.main.discard == []


def test_a_dealt_card_leaves_the_pile_until_discarded() -> None:
    g = game(2)
    hand = deal(g.decks.main, 3, g)
    assert len(g.decks.main.cards) == 123 and not set(hand) & set(g.decks.main.cards)
    discard(g.decks.main, hand)
    assert g.decks.main.discard == hand


def test_an_empty_pile_shuffles_its_discard_back() -> None:
    g = game(3)
    tiles = g.decks.tiles["C"]
    first = deal(tiles, 2, g)
    discard(tiles, first)
    assert tiles.cards == []
    again = deal(tiles, 2, g)
    assert sorted(again) == sorted(first) and tiles.discard == []


def test_a_pile_with_every_card_out_gives_what_it_has() -> None:
    g = game(4)
    assert len(deal(g.decks.tiles["A"], 5, g)) == 3
    assert deal(g.decks.tiles["A"], 1, g) == []


def test_reshuffles_replay_alike() -> None:
    """Two games that discard and reshuffle the same way keep dealing the same cards."""
    out = []
    for _ in range(2):
        g = game(5)
        seen = []
        for _turn in range(30):
            hand = deal(g.decks.main, 5, g)
            seen.append(hand)
            discard(g.decks.main, hand)
        out.append(seen)
    assert out[0] == out[1]


def test_dealing_only_usable_cards_discards_the_others() -> None:
    g = game(6)
    usable = {c for c in DECK.card_ids() if DECK.card(c).tech == "frigate"}
    got = deal_matching(g.decks.main, 2, g, lambda c: c in usable)
    assert len(got) == 2 and set(got) <= usable
    assert all(c not in usable for c in g.decks.main.discard)
    # a wish no card can grant ends after one look at every card
    assert deal_matching(g.decks.main, 1, g, lambda c: False) == []


def test_the_piles_round_trip_through_the_stored_state() -> None:
    g = game(9)
    deal(g.decks.main, 4, g)
    stored = g.model_dump_json()
    back = Game.model_validate_json(stored)
    assert back == g
    assert deal(back.decks.main, 3, back) == deal(g.decks.main, 3, g)


def test_chance_counts_its_draws_and_separates_purposes() -> None:
    g = Game(seed=11)
    first = chance.roll(g, "scout")
    assert g.draws == 1
    g2 = Game(seed=11)
    assert chance.roll(g2, "scout") == first
    rolls = {chance.roll(Game(seed=11, draws=n), "scout") for n in range(40)}
    assert rolls == set(range(1, 7))
    assert chance.shuffled(Game(seed=1), "x", [1, 2, 3]) == chance.shuffled(
        Game(seed=1), "x", [1, 2, 3]
    )
    assert new_pile("B", ["b1"], Game(seed=1)) == Pile(name="B", cards=["b1"])
