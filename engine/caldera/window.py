"""A captain's turn window: what they do at once, privately, with their own credits (the seed's
part 2 and the setup: stats, starting bonuses, choices from their hand, research, designs,
building one ship, the shipyard, repairs, refits, scrapping) and the move orders carried out
when the turn resolves (part 3). Every function checks everything first (a `CommandError`
whose message never tells what the captain cannot know) and changes the state only after.
"""

from __future__ import annotations

from collections import Counter

from engine.caldera import events as ev
from engine.caldera import interim as rules
from engine.caldera import missions
from engine.caldera.state import EARTH, HAND_KINDS, STATS, Captain, Hand, Ship, State
from engine.errors import CommandError


def captain_of(state: State, cid: str) -> Captain:
    """The captain giving a command now (the game running, the captain in it)."""
    if not state.started:
        raise CommandError("the game has not started yet")
    if state.ended:
        raise CommandError("the game is over")
    captain = state.captains.get(cid)
    if captain is None:
        raise CommandError("you do not play in this game")
    if captain.out:
        raise CommandError("you are out of the game")
    return captain


def _spent(state: State, c: Captain, what: str, **detail: object) -> list[ev.Event]:
    c.submitted = False  # a command after submitting takes the submission back
    return [
        ev.Spent(
            tick=state.tick, to=[c.id], captain=c.id, what=what, detail=detail, credits=c.credits
        )
    ]


def _afford(c: Captain, cost: int, what: str) -> None:
    if cost > c.credits:
        raise CommandError(f"{what} costs {cost} credits; you have {c.credits}")


def forbidden(state: State, effect: str) -> str | None:
    """The event card in play, if it forbids this ("no-build", "no-move", ...)."""
    if state.event is None:
        return None
    card = rules.EVENT_CARDS[state.event.card]
    return card.name if card.effect == effect else None


def _not_forbidden(state: State, effect: str, what: str) -> None:
    name = forbidden(state, effect)
    if name is not None:
        left = state.event.turns_left if state.event else 0
        raise CommandError(f"the event {name} forbids {what} ({left} more turn(s))")


def _stats_set(c: Captain) -> None:
    if not c.stats:
        raise CommandError("set your stats first (/caldera stats)")


# --- the setup ---------------------------------------------------------------------------------


def check_stats(stats: dict[str, int]) -> dict[str, int]:
    """Stats as the seed wants them: every stat named once, the rules' points in all, Cha,
    Int and Eng at least their least."""
    unknown = sorted(set(stats) - set(STATS))
    if unknown:
        raise CommandError(f"there is no stat {unknown[0]!r}: the stats are {', '.join(STATS)}")
    full = {s: int(stats.get(s, 0)) for s in STATS}
    if any(v < 0 for v in full.values()):
        raise CommandError("a stat has 0 points at least")
    total = rules.NUMBERS.stat_points
    if sum(full.values()) != total:
        raise CommandError(f"distribute {total} points (these add up to {sum(full.values())})")
    for stat, least in rules.NUMBERS.stat_least.items():
        if full[stat] < least:
            raise CommandError(f"{stat.capitalize()} has {least} points at least")
    return full


def set_stats(state: State, cid: str, stats: dict[str, int]) -> list[ev.Event]:
    """The captain's character (the setup window): their research and design hands are drawn
    from it; once every captain has set theirs the zone counter starts and the zone mission
    cards are drawn."""
    c = captain_of(state, cid)
    if state.phase != "setup":
        raise CommandError("stats are set in the first turn only")
    if c.stats:
        raise CommandError("your stats are set")
    full = check_stats(stats)
    c.stats = full
    return _spent(state, c, "stats", **full) + deal_first_hands(state, c)


def deal_first_hands(state: State, c: Captain) -> list[ev.Event]:
    out = deal_hand(state, c, "research", rules.choices(c.stats["int"]))
    out += deal_hand(state, c, "design", rules.choices(c.stats["eng"]), optional=True)
    if all(state.captains[o].stats for o in state.active()):
        out += start_zone(state)
    return out


def start_zone(state: State) -> list[ev.Event]:
    """The zone counter (10 + the captains' average Cha) and the first zone mission's cards
    (one for every 2 points of the average Cha)."""
    cha = [state.captains[o].stats["cha"] for o in state.active()]
    average = sum(cha) // max(1, len(cha))
    state.zone_counter = rules.NUMBERS.zone_counter + average
    state.zone_mark["start"] = state.zone_counter
    state.zone_hand = rules.deal(state, "main", rules.choices(average))
    return [ev.ZoneHand(tick=state.tick, to=sorted(state.captains), cards=list(state.zone_hand))]


def deal_hand(
    state: State, c: Captain, kind: str, count: int, *, optional: bool = False
) -> list[ev.Event]:
    """Cards drawn into the captain's hand for a choice (a hand of that kind replaces the
    one waiting: its cards go to the discard)."""
    drop_hand(state, c, kind)
    cards = rules.deal(state, "main", count)
    if not cards:
        return []
    c.hand.append(Hand(kind=kind, cards=cards, optional=optional))  # type: ignore[arg-type]
    return [ev.HandDrawn(tick=state.tick, to=[c.id], captain=c.id, hand=kind, cards=cards)]


def drop_hand(state: State, c: Captain, kind: str) -> None:
    for hand in [h for h in c.hand if h.kind == kind]:
        rules.discard(state, "main", hand.cards)
        c.hand.remove(hand)


def buy_bonus(
    state: State, cid: str, bonus_id: str, tech: str | None, stat: str | None
) -> list[ev.Event]:
    """A starting bonus (the setup window only), as many times as the captain pays."""
    c = captain_of(state, cid)
    if state.phase != "setup":
        raise CommandError("starting bonuses are bought in the first turn only")
    _stats_set(c)
    bonus = rules.NUMBERS.bonuses.get(bonus_id)
    if bonus is None:
        raise CommandError(
            f"there is no bonus {bonus_id!r}: {', '.join(sorted(rules.NUMBERS.bonuses))}"
        )
    _afford(c, bonus.cost, f"the bonus {bonus_id}")
    detail: dict[str, object] = {"bonus": bonus_id}
    if bonus.effect == "layout":
        if c.techs.get(bonus.tech, -1) < 0:
            raise CommandError(f"you do not have {bonus.tech}")
        if c.techs[bonus.tech] >= 5:
            raise CommandError(f"{bonus.tech} has every layout already")
        c.techs[bonus.tech] += 1
        detail["layout"] = c.techs[bonus.tech]
    elif bonus.effect == "ship":
        ship = _new_ship(state, c, bonus.tech, list(bonus.parts), refittable=False)
        detail["ship"] = ship.id
    elif bonus.effect == "stat":
        if stat not in STATS:
            raise CommandError(f"name the stat to raise: {', '.join(STATS)}")
        c.stats[stat] += 1
        detail["stat"] = stat
    elif bonus.effect == "tech":
        if tech is None or tech not in rules.TECHS or rules.TECHS[tech].level != bonus.level:
            level = [t for t in sorted(rules.TECHS) if rules.TECHS[t].level == bonus.level]
            raise CommandError(f"name a level {bonus.level} tech: {', '.join(level)}")
        if tech in c.techs:
            raise CommandError(f"you have {tech} already")
        c.techs[tech] = 0
        detail["tech"] = tech
    else:  # a random tech of the level, one the captain does not have
        pool = [
            t for t in sorted(rules.TECHS) if rules.TECHS[t].level == bonus.level and t not in c.techs
        ]
        if not pool:
            raise CommandError(f"you have every level {bonus.level} tech already")
        got = rules.draw(state, "bonus tech").choice(pool)
        c.techs[got] = 0
        detail["tech"] = got
    c.credits -= bonus.cost
    c.bonuses[bonus_id] = c.bonuses.get(bonus_id, 0) + 1
    return _spent(state, c, "bonus", **detail)


# --- choices from the hand -------------------------------------------------------------------


def choose(state: State, cid: str, kind: str, card: str | None) -> list[ev.Event]:
    """A card of the captain's hand chosen (None: none, where the hand allows it)."""
    c = captain_of(state, cid)
    if kind == "zone":
        return _choose_zone(state, c, card)
    hand = next((h for h in c.hand if h.kind == kind), None)
    if hand is None:
        raise CommandError(f"you have no {kind} cards to choose from")
    if card is None:
        if not hand.optional:
            raise CommandError(f"choose one of your {kind} cards: {', '.join(hand.cards)}")
        drop_hand(state, c, kind)
        return _spent(state, c, "choose", hand=kind, card=None)
    if card not in hand.cards:
        raise CommandError(f"{card!r} is not among your {kind} cards: {', '.join(hand.cards)}")
    found = rules.CARDS[card]
    tech = found.tech
    out: list[ev.Event] = []
    if kind == "research":
        if tech in c.techs:
            raise CommandError(f"you have {tech} already: choose another card")
        c.research, c.research_paid = tech, 0
    elif kind == "design":
        _not_forbidden(state, "no-design", "designing")
        if tech not in c.techs:
            raise CommandError(f"you do not have {tech}: a design improves a tech you have")
        if c.techs[tech] >= 5:
            raise CommandError(f"{tech} has every layout already")
        cost = rules.research_cost(c.stats, tech) // 5
        _afford(c, cost, f"a design of {tech}")
        c.credits -= cost
        c.techs[tech] += 1
        out += missions.on_design(state, c, tech)
    elif kind == "mission":
        c.mission = found.number
        c.mission_mark = missions.mark(state, c, found.number)
    elif kind == "tech":
        if tech in c.techs:
            raise CommandError(f"you have {tech} already")
        cost = rules.TECHS[tech].research // 2
        _afford(c, cost, f"{tech} at half price")
        c.credits -= cost
        c.techs[tech] = 0
        out += missions.on_tech(state, c, tech)
    drop_hand(state, c, kind)
    return _spent(state, c, "choose", hand=kind, card=card, tech=tech) + out


def _choose_zone(state: State, c: Captain, card: str | None) -> list[ev.Event]:
    if not state.zone_hand:
        raise CommandError("there is no zone mission to choose now")
    if card not in state.zone_hand:
        raise CommandError(f"choose one of the zone mission cards: {', '.join(state.zone_hand)}")
    set_zone_mission(state, rules.CARDS[card].number)
    rules.discard(state, "main", state.zone_hand)
    state.zone_hand = []
    return _spent(state, c, "choose", hand="zone", card=card, mission=state.zone_mission)


def set_zone_mission(state: State, number: int) -> None:
    state.zone_mission, state.zone_mission_done = number, False
    state.zone_mark = {**missions.zone_mark(state), "start": state.zone_mark.get("start", 0)}


# --- research, designs, ships, the shipyard -----------------------------------------------------


def fund(state: State, cid: str, amount: int) -> list[ev.Event]:
    """Credits into the current research (no more than it still needs); completing it draws
    the next research cards."""
    c = captain_of(state, cid)
    _stats_set(c)
    _not_forbidden(state, "no-research", "research")
    if c.research is None:
        raise CommandError("you research nothing now: choose a research card first")
    need = rules.research_cost(c.stats, c.research) - c.research_paid
    amount = min(amount, need)
    _afford(c, amount, "that")
    c.credits -= amount
    c.research_paid += amount
    out = _spent(state, c, "fund", tech=c.research, paid=c.research_paid, amount=amount)
    if c.research_paid >= rules.research_cost(c.stats, c.research):
        tech = c.research
        out += missions.on_tech(state, c, tech)
        c.techs[tech] = 0
        c.research, c.research_paid = None, 0
        out.append(ev.ResearchDone(tick=state.tick, to=[c.id], captain=c.id, tech=tech))
        out += deal_hand(state, c, "research", rules.choices(c.stats["int"]))
    return out


def class_level(klass: str) -> int:
    return rules.TECHS[klass].level


def _parts_fit(c: Captain, klass: str, parts: list[str]) -> int:
    """The build cost of the parts (and whether they fit the class's space): every part a
    tech the captain has, no ship class among them."""
    for part in parts:
        tech = rules.TECHS.get(part)
        if tech is None or part not in c.techs:
            raise CommandError(f"you do not have the tech {part!r}")
        if tech.type == "class":
            raise CommandError(f"{part} is a ship class, not a part")
    size = sum(rules.TECHS[p].size for p in parts)
    room = rules.space(c.stats, klass, c.techs[klass])
    if size > room:
        raise CommandError(f"those parts take {size} space; a {klass} has {room}")
    return sum(rules.TECHS[p].cost for p in parts)


def structure_of(c: Captain, klass: str) -> int:
    return rules.TECHS[klass].values[c.techs.get(klass, 0)]


def _new_ship(
    state: State, c: Captain, klass: str, parts: list[str], *, refittable: bool = True
) -> Ship:
    structure = rules.TECHS[klass].values[c.techs.get(klass, 0)]
    return state.add_ship(c.id, klass, parts, structure, EARTH, refittable=refittable)


def build(state: State, cid: str, klass: str, parts: list[str]) -> list[ev.Event]:
    """One ship a turn, at the shipyard, of a class the shipyard is large enough for."""
    c = captain_of(state, cid)
    _stats_set(c)
    _not_forbidden(state, "no-build", "building")
    if c.shipyard.destroyed:
        raise CommandError("your shipyard is destroyed")
    if c.built:
        raise CommandError("you have built a ship this turn already (one a turn)")
    tech = rules.TECHS.get(klass)
    if tech is None or tech.type != "class" or klass not in c.techs:
        raise CommandError(f"you have no ship class {klass!r}")
    if class_level(klass) > class_level(c.shipyard.klass):
        raise CommandError(f"your shipyard builds up to {c.shipyard.klass}: upgrade it first")
    cost = rules.build_cost(c.stats, tech.cost + _parts_fit(c, klass, parts))
    _afford(c, cost, f"that {klass}")
    c.credits -= cost
    c.built = True
    ship = _new_ship(state, c, klass, parts)
    return _spent(state, c, "build", ship=ship.id, klass=klass, parts=parts, cost=cost)


def upgrade(state: State, cid: str, klass: str | None, parts: list[str]) -> list[ev.Event]:
    """The shipyard rebuilt to a larger class the captain has (its build cost, 3 times), or
    parts fitted in it (their build cost) while they fit its space (3 times the class's)."""
    c = captain_of(state, cid)
    _stats_set(c)
    if c.shipyard.destroyed:
        raise CommandError("your shipyard is destroyed")
    factor = rules.NUMBERS.shipyard_factor
    target = klass or c.shipyard.klass
    tech = rules.TECHS.get(target)
    if tech is None or tech.type != "class" or target not in c.techs:
        raise CommandError(f"you have no ship class {target!r}")
    if klass is not None and class_level(klass) <= class_level(c.shipyard.klass):
        raise CommandError(f"your shipyard is a {c.shipyard.klass} yard already, or larger")
    if klass is None and not parts:
        raise CommandError("name a larger ship class or the parts to fit")
    all_parts = c.shipyard.parts + parts
    size = sum(rules.TECHS[p].size for p in all_parts if p in rules.TECHS)
    part_cost = _parts_fit(c, target, parts) if parts else 0
    room = rules.space(c.stats, target, c.techs[target]) * factor
    if size > room:
        raise CommandError(f"those parts take {size} space in all; your shipyard has {room}")
    cost = rules.build_cost(c.stats, (tech.cost * factor if klass else 0) + part_cost)
    _afford(c, cost, "that upgrade")
    c.credits -= cost
    c.shipyard.klass = target
    c.shipyard.parts = all_parts
    return _spent(state, c, "upgrade", klass=target, parts=all_parts, cost=cost)


def shipyard_structure(c: Captain) -> int:
    return structure_of(c, c.shipyard.klass) * rules.NUMBERS.shipyard_factor


def _own_ship(state: State, c: Captain, ship_id: int) -> Ship:
    ship = state.ships.get(ship_id)
    if ship is None or ship.owner != c.id:
        raise CommandError(f"you have no ship {ship_id}")
    return ship


def repair(state: State, cid: str, ship_id: int | None, points: int | None) -> list[ev.Event]:
    """Structure points repaired (the rules' price each) on a ship at the shipyard, or on the
    shipyard; without `points`, as many as the damage and the credits allow."""
    c = captain_of(state, cid)
    price = rules.NUMBERS.repair
    if ship_id is None:
        if c.shipyard.destroyed:
            raise CommandError("your shipyard is destroyed: it cannot be repaired")
        damage = c.shipyard.damage
    else:
        ship = _own_ship(state, c, ship_id)
        if ship.at != EARTH:
            raise CommandError(f"ship {ship_id} is not at the shipyard (at Earth)")
        damage = ship.damage
    if damage == 0:
        raise CommandError("there is no damage to repair")
    want = min(damage, points if points is not None else c.credits // price)
    if want < 1:
        raise CommandError(f"a structure point costs {price} credits; you have {c.credits}")
    _afford(c, want * price, f"repairing {want} points")
    c.credits -= want * price
    if ship_id is None:
        c.shipyard.damage -= want
    else:
        state.ships[ship_id].damage -= want
    return _spent(state, c, "repair", ship=ship_id, points=want, cost=want * price)


def refit(state: State, cid: str, ship_id: int, parts: list[str]) -> list[ev.Event]:
    """A ship in the shipyard gets other parts: each part it did not have paid in full."""
    c = captain_of(state, cid)
    _stats_set(c)
    ship = _own_ship(state, c, ship_id)
    if ship.at != EARTH:
        raise CommandError(f"ship {ship_id} is not in the shipyard (at Earth)")
    if not ship.refittable:
        raise CommandError(f"ship {ship_id} came with the starting bonuses: it cannot be refitted")
    _parts_fit(c, ship.klass, parts)
    new = Counter(parts) - Counter(ship.parts)
    cost = sum(rules.TECHS[p].cost * n for p, n in new.items())
    _afford(c, cost, "that refit")
    c.credits -= cost
    ship.parts = list(parts)
    return _spent(state, c, "refit", ship=ship_id, parts=parts, cost=cost)


def scrap(state: State, cid: str, ship_id: int) -> list[ev.Event]:
    c = captain_of(state, cid)
    _own_ship(state, c, ship_id)
    del state.ships[ship_id]
    return _spent(state, c, "scrap", ship=ship_id)


# --- moves -----------------------------------------------------------------------------------------


def engine_range(c: Captain, ship: Ship) -> int:
    """The range of the ship's best engine (0: it has none)."""
    best = 0
    for part in ship.parts:
        tech = rules.TECHS.get(part)
        if tech is not None and tech.type == "engine":
            best = max(best, tech.values[c.techs.get(part, 0)])
    return best


def move(state: State, cid: str, ship_ids: list[int], to: str | None) -> list[ev.Event]:
    """Ships ordered to a place their engines reach (carried out at the resolution); at most
    a fleet from one place; `to` None takes the orders back."""
    c = captain_of(state, cid)
    if len(set(ship_ids)) != len(ship_ids):
        raise CommandError("a ship is named twice")
    ships = [_own_ship(state, c, i) for i in ship_ids]
    if to is None:
        for ship in ships:
            ship.move = None
        return _spent(state, c, "move", ships=ship_ids, to=None)
    _not_forbidden(state, "no-move", "moving")
    try:
        rules.parse(to)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    limit = rules.NUMBERS.move_fleet
    for ship in ships:
        if ship.at == to:
            raise CommandError(f"ship {ship.id} is at {to} already")
        reach = rules.reachable(state, ship.at, engine_range(c, ship))
        if to not in reach:
            raise CommandError(f"{to} is beyond ship {ship.id}'s engine range from {ship.at}")
    sources = {s.at for s in ships}
    for at in sources:
        going = {
            s.id
            for s in state.ships_of(c.id)
            if s.at == at and (s.move is not None or s.id in ship_ids)
        }
        if len(going) > limit:
            raise CommandError(f"at most {limit} ships move from one place in a turn ({at})")
    for ship in ships:
        ship.move = to
    return _spent(state, c, "move", ships=ship_ids, to=to)


def set_retreat(state: State, cid: str, ship_id: int, on: bool) -> list[ev.Event]:
    c = captain_of(state, cid)
    ship = _own_ship(state, c, ship_id)
    ship.retreat = on
    return _spent(state, c, "retreat", ship=ship_id, on=on)


__all__ = ["HAND_KINDS", "captain_of", "choose", "fund", "move"]
