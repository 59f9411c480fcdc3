"""Loyalty missions, their rewards, the NPC trust they earn, and the zone missions, tracked
from what happens in the game (the seed's "Loyalty and Events").

Loyalty missions (a captain's own, by the number of the card chosen):
  1 destroy an enemy ship outside the solar system (any place but Earth),
  2 reach a new layout level for your most advanced tech (a design of a tech of the highest
    level you have),
  3 destroy all enemy ships of one race outside its homeworld, having destroyed at least one
    of them yourself since taking the mission,
  4 research a new tech level (a tech of a higher level than any you had),
  5 scout a new star system farther from Earth than any known tile,
  6 conquer an enemy homeworld.
Completing one: +1 trust (the captains' total), and one reward card for every 2 points of
Cha, each applied: 1 nothing, 2/3 credits (the zone's small/average asteroid minerals x5, for
one player, raised by Eco), 4/5 one/two random layouts, 6 tech cards to buy one at half price.

Zone missions (everyone's, one a zone, by the number of the card): 1 Explorers (a ship at
zone x 4 layers from Earth), 2 Surveyors (ships in different systems whose zones add up to
5 x zone x players), 3 Sharecroppers (mine; the first X systems mined in the newest zone give
nothing until the counter is 1), 4 Scaredy-cats (explore nothing farther than zone x 3 until
the counter is 1), 5 Pacifists (attack no enemy until the counter is 1), 6 Wingman (no ship
moves alone until the counter is 1). Done: +5 on the zone counter.
"""

from __future__ import annotations

from engine.caldera import captain as stats_
from engine.caldera import chance, deck, hands, hexes
from engine.caldera import events as ev
from engine.caldera.state import EARTH, Captain, State

RESTRICTIONS = (3, 4, 5, 6)  # zone missions kept until the counter is 1


def highest_level(state: State, c: Captain) -> int:
    return stats_.highest_level(c.techs, state.cards)


def _layer(place: str) -> int:
    return hexes.layer(hexes.parse(place))


def mark(state: State, c: Captain, number: int) -> dict[str, int]:
    """What a loyalty mission taken now is measured against."""
    if number == 4:
        return {"level": highest_level(state, c)}
    if number == 5:
        return {"farthest": state.farthest}
    return {}


def zone_mark(state: State) -> dict[str, int]:
    return {"broken": 0, "mined": 0}


# --- completing ---------------------------------------------------------------------------------


def complete(state: State, c: Captain) -> list[ev.Event]:
    """The captain's mission is done: trust, the reward cards (each applied)."""
    rules = state.rules
    stats = hands.stats_of(c)
    number = c.mission or 0
    c.mission, c.mission_mark = None, {}
    c.missions_done += 1
    c.trust_earned += rules.trust.per_mission
    state.trust += rules.trust.per_mission
    cards = deck.deal(state.decks.main, stats_.reward_cards(stats, rules), state)
    rewards = [state.cards.card(card).number for card in cards]
    deck.discard(state.decks.main, cards)
    out: list[ev.Event] = [
        ev.MissionDone(
            tick=state.tick,
            to=sorted(state.captains),
            captain=c.id,
            mission=number,
            rewards=rewards,
            trust=state.trust,
        )
    ]
    for number in rewards:
        reward = rules.reward(number)
        if reward.kind == "credits":
            credits = rules.map.minerals_of(state.zone, reward.minerals) * reward.times
            c.credits += stats_.reward_credits(credits, stats, rules)
        elif reward.kind == "layouts":
            for _ in range(reward.count):
                open_ = sorted(t for t in c.techs if stats_.can_design(t, c.techs, rules))
                if open_:
                    c.techs[chance.pick(state, "reward layout", open_)] += 1
        elif reward.kind == "half-price-tech":
            count = stats_.reward_cards(stats, rules)
            out += hands.deal_hand(state, c, "tech", count, optional=True)
    return out


def _is(c: Captain, number: int) -> bool:
    return c.mission == number


# --- what happens, as it happens --------------------------------------------------------------


def on_design(state: State, c: Captain, tech: str) -> list[ev.Event]:
    """A design bought (after the layout went up)."""
    if _is(c, 2) and state.cards.techs[tech].level >= highest_level(state, c):
        return complete(state, c)
    return []


def on_tech(state: State, c: Captain, tech: str) -> list[ev.Event]:
    """A tech gained (before it is added to the captain's techs)."""
    level = c.mission_mark.get("level", highest_level(state, c))
    if _is(c, 4) and state.cards.techs[tech].level > level:
        return complete(state, c)
    return []


def on_kill(state: State, c: Captain, npc: str, at: str) -> list[ev.Event]:
    """The captain's ships destroyed a ship of an enemy NPC at `at`."""
    c.destroyed += 1
    bounty = state.event is not None and state.cards.event_card(state.event.card)
    if bounty and bounty.effect == "bounty":
        c.credits += bounty.amount
    if _is(c, 3):
        c.mission_mark[f"kills:{npc}"] = c.mission_mark.get(f"kills:{npc}", 0) + 1
    if _is(c, 1) and at != EARTH:
        return complete(state, c)
    return []


def after_battles(state: State) -> list[ev.Event]:
    """Mission 3: an enemy race with no ship left outside its homeworld, of which the captain
    destroyed one at least since taking the mission."""
    out: list[ev.Event] = []
    for cid in state.active():
        c = state.captains[cid]
        if not _is(c, 3):
            continue
        for npc in state.enemies():
            if c.mission_mark.get(f"kills:{npc.id}", 0) < 1:
                continue
            if not any(s.at != npc.home for s in state.ships_of(npc.id)):
                out += complete(state, c)
                break
    return out


def on_scout(state: State, cid: str | None, placed: list[str], farthest: int) -> list[ev.Event]:
    """A captain's ship scouted a place, tiles `placed` (the farthest layer known before the
    turn's scouting: `farthest`). Revealed by a new zone (`cid` None): no mission's."""
    c = state.captains.get(cid or "")
    if c is None or not placed:
        return []
    layer = max(_layer(p) for p in placed)
    if state.zone_mission == 4 and not state.zone_mission_done and layer > _per_zone(state):
        state.zone_mark["broken"] = 1
    if _is(c, 5) and layer > max(farthest, c.mission_mark.get("farthest", 0)):
        return complete(state, c)
    return []


def on_conquer(state: State, cid: str, npc: str) -> list[ev.Event]:
    c = state.captains[cid]
    if _is(c, 6):
        return complete(state, c)
    return []


def on_attack(state: State) -> None:
    """Captains' ships moved in on an enemy (the Pacifists' zone mission is broken)."""
    if state.zone_mission == 5 and not state.zone_mission_done:
        state.zone_mark["broken"] = 1


def on_moves(state: State, arrivals: dict[str, list[int]]) -> None:
    """Captains' ships arrived (place -> ships): Wingman is broken by a ship arriving alone
    where no other captain's ship is."""
    if state.zone_mission != 6 or state.zone_mission_done:
        return
    for at, ships in arrivals.items():
        there = [s for s in state.ships_at(at) if state.is_captain(s.owner)]
        if len(ships) == 1 and len(there) == 1:
            state.zone_mark["broken"] = 1


def on_mined(state: State, place: str) -> bool:
    """A captain mined `place`: whether its minerals are withheld (Sharecroppers: the first X
    systems of the newest zone mined give nothing until the counter is 1)."""
    if state.zone_mission != 3 or state.zone_mission_done:
        return False
    state.zone_mark["mined"] = state.zone_mark.get("mined", 0) + 1
    tile = state.map.tiles.get(place)
    if tile is None or tile.zone != state.zone or place == EARTH:
        return False
    key = f"withheld:{place}"
    if key in state.zone_mark:
        return True
    if sum(1 for k in state.zone_mark if k.startswith("withheld:")) < state.players():
        state.zone_mark[key] = 1
        return True
    return False


def zone_achieved(state: State) -> bool:
    """Explorers and Surveyors: achieved by where the captains' ships are now."""
    ships = [s for s in state.ships.values() if state.is_captain(s.owner)]
    if state.zone_mission == 1:
        return any(_layer(s.at) >= _per_zone(state) for s in ships)
    if state.zone_mission == 2:
        systems = {s.at for s in ships if s.at in state.map.tiles and s.at != EARTH}
        total = sum(state.map.tiles[at].zone for at in systems)
        return total >= _per_zone(state) * state.players()
    return False


def _per_zone(state: State) -> int:
    """The zone mission's "zone x N" (N: the rules' `per_zone`)."""
    return state.rules.zone_mission(state.zone_mission or 1).per_zone * state.zone


def check_zone(state: State) -> list[ev.Event]:
    """The zone mission, after the turn's moves and battles and at the counter's 1."""
    if state.zone_mission is None or state.zone_mission_done:
        return []
    done = zone_achieved(state)
    if state.zone_mission in RESTRICTIONS and state.zone_counter == state.rules.zone_counter.until:
        done = not state.zone_mark.get("broken", 0)
        if state.zone_mission == 3:
            done = done and state.zone_mark.get("mined", 0) > 0
    if not done:
        return []
    state.zone_mission_done = True
    state.zone_counter += state.rules.zone_counter.per_zone_mission
    return [
        ev.MissionDone(
            tick=state.tick,
            to=sorted(state.captains),
            captain=None,
            mission=state.zone_mission,
            trust=state.trust,
        )
    ]
