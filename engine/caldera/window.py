"""A captain's turn window: what they do at once, privately, with their own credits (the seed's
part 2 and the setup: stats, starting bonuses, choices from their hand, research, designs,
building one ship, the shipyard, repairs, refits, scrapping) and the move orders carried out
when the turn resolves (part 3). Every function checks everything first (a `CommandError`
whose message never tells what the captain cannot know) and changes the state only after.
"""

from __future__ import annotations

from collections import Counter

from pydantic import ValidationError

from engine.caldera import captain as stats_
from engine.caldera import deck, hands, hexes, land, missions, starmap
from engine.caldera import events as ev
from engine.caldera.captain import CaptainError, Character, Stats
from engine.caldera.rules import STATS, Tech
from engine.caldera.state import EARTH, HAND_KINDS, Captain, Ship, State
from engine.errors import CommandError
from engine.interface.turnbased import door


def captain_of(state: State, cid: str) -> Captain:
    """The captain giving a command now (the game running, the captain in it)."""
    return door.playing(state, state.captains, cid)


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
    """The event card in play's name if its effect is this one ("no-building"...)."""
    if state.event is None:
        return None
    card = state.cards.event_card(state.event.card)
    return card.name if card.effect == effect else None


def _not_forbidden(state: State, effect: str, what: str) -> None:
    name = forbidden(state, effect)
    if name is not None:
        left = state.event.turns_left if state.event else 0
        raise CommandError(f"the event {name} forbids {what} ({left} more turn(s))")


def tech_of(state: State, tech: str) -> Tech:
    found = state.cards.techs.get(tech)
    if found is None:
        raise CommandError(f"there is no tech {tech!r}")
    return found


# --- the setup ---------------------------------------------------------------------------------


def check_stats(state: State, stats: dict[str, int]) -> Stats:
    """Stats as the seed wants them: every stat named once, the rules' points in all, Cha,
    Int and Eng at least their least."""
    unknown = sorted(set(stats) - set(STATS))
    if unknown:
        raise CommandError(f"there is no stat {unknown[0]!r}: the stats are {', '.join(STATS)}")
    try:
        found = Stats(**{s: int(stats.get(s, 0)) for s in STATS})
        stats_.check_stats(found, state.rules)
    except ValidationError:
        raise CommandError("a stat has 0 points at least") from None
    except CaptainError as exc:
        raise CommandError(str(exc)) from None
    return found


def set_stats(state: State, cid: str, stats: dict[str, int]) -> list[ev.Event]:
    """The captain's character (the setup window): their research and design hands are drawn
    from it; once every captain has set theirs the zone counter starts and the zone mission
    cards are drawn."""
    c = captain_of(state, cid)
    if state.phase != "setup":
        raise CommandError("stats are set in the first turn only")
    if c.stats is not None:
        raise CommandError("your stats are set")
    c.stats = check_stats(state, stats)
    return _spent(state, c, "stats", **c.stats.model_dump()) + deal_first_hands(state, c)


def deal_first_hands(state: State, c: Captain) -> list[ev.Event]:
    stats = hands.stats_of(c)
    out = hands.deal_hand(state, c, "research", stats_.research_choices(stats, state.rules))
    out += hands.deal_hand(
        state, c, "design", stats_.design_choices(stats, state.rules), optional=True
    )
    if all(state.captains[o].stats is not None for o in state.active()):
        out += start_zone(state)
    return out


def start_zone(state: State) -> list[ev.Event]:
    """The zone counter (10 + the captains' average Cha) and the first zone mission's cards
    (one for every 2 points of the average Cha)."""
    cha = [hands.stats_of(state.captains[o]).cha for o in state.active()]
    state.zone_counter = stats_.zone_counter_start(cha, state.rules)
    state.zone_mark["start"] = state.zone_counter
    count = max(1, stats_.zone_mission_choices(cha, state.rules))
    state.zone_hand = deck.deal(state.decks.main, count, state)
    return [ev.ZoneHand(tick=state.tick, to=sorted(state.captains), cards=list(state.zone_hand))]


def buy_bonus(
    state: State, cid: str, bonus_id: str, tech: str | None, stat: str | None
) -> list[ev.Event]:
    """A starting bonus (the setup window only), as many times as the captain pays."""
    c = captain_of(state, cid)
    if state.phase != "setup":
        raise CommandError("starting bonuses are bought in the first turn only")
    me = Character(stats=hands.stats_of(c), credits=c.credits, techs=dict(c.techs))
    try:
        new = stats_.buy(
            me, bonus_id, state.rules, state.cards, state, tech=tech or "", stat=stat or ""
        )
    except CaptainError as exc:
        raise CommandError(str(exc)) from None
    c.credits, c.techs, c.stats = new.credits, new.techs, new.stats
    detail: dict[str, object] = {"bonus": bonus_id}
    for ship_id in new.ships:
        kind = state.rules.starting_ships[ship_id]
        ship = _new_ship(
            state, c, kind.class_, [kind.engine, *kind.parts], refittable=kind.refittable
        )
        detail["ship"] = ship.id
    gained = sorted(set(new.techs) - set(me.techs))
    if gained:
        detail["tech"] = gained[0]
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
        hands.drop_hand(state, c, kind)
        return _spent(state, c, "choose", hand=kind, card=None)
    if card not in hand.cards:
        raise CommandError(f"{card!r} is not among your {kind} cards: {', '.join(hand.cards)}")
    found = state.cards.card(card)
    tech = found.tech
    rules = state.rules
    out: list[ev.Event] = []
    if kind == "research":
        if not stats_.can_research(tech, c.techs, state.cards, rules):
            raise CommandError(f"you cannot research {tech} now: choose another card")
        c.research, c.research_paid = tech, 0
    elif kind == "design":
        _not_forbidden(state, "no-design", "designing")
        if tech not in c.techs:
            raise CommandError(f"you do not have {tech}: a design improves a tech you have")
        if not stats_.can_design(tech, c.techs, rules):
            raise CommandError(f"{tech} has every layout already")
        cost = stats_.design_cost(tech_of(state, tech).research_cost, rules)
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
        cost = tech_of(state, tech).research_cost // 2
        _afford(c, cost, f"{tech} at half price")
        c.credits -= cost
        out += missions.on_tech(state, c, tech)
        c.techs[tech] = 0
    hands.drop_hand(state, c, kind)
    return _spent(state, c, "choose", hand=kind, card=card, tech=tech) + out


def _choose_zone(state: State, c: Captain, card: str | None) -> list[ev.Event]:
    if not state.zone_hand:
        raise CommandError("there is no zone mission to choose now")
    if card not in state.zone_hand:
        raise CommandError(f"choose one of the zone mission cards: {', '.join(state.zone_hand)}")
    set_zone_mission(state, state.cards.card(card).number)
    deck.discard(state.decks.main, state.zone_hand)
    state.zone_hand = []
    return _spent(state, c, "choose", hand="zone", card=card, mission=state.zone_mission)


def set_zone_mission(state: State, number: int) -> None:
    state.zone_mission, state.zone_mission_done = number, False
    state.zone_mark = {**missions.zone_mark(state), "start": state.zone_mark.get("start", 0)}


# --- research, designs, ships, the shipyard -----------------------------------------------------


def research_cost(state: State, c: Captain, tech: str) -> int:
    return stats_.research_cost(tech_of(state, tech).research_cost, hands.stats_of(c), state.rules)


def fund(state: State, cid: str, amount: int) -> list[ev.Event]:
    """Credits into the current research (no more than it still needs); completing it draws
    the next research cards."""
    c = captain_of(state, cid)
    stats = hands.stats_of(c)
    _not_forbidden(state, "no-research", "research")
    if c.research is None:
        raise CommandError("you research nothing now: choose a research card first")
    need = research_cost(state, c, c.research) - c.research_paid
    amount = min(amount, need)
    _afford(c, amount, "that")
    c.credits -= amount
    c.research_paid += amount
    out = _spent(state, c, "fund", tech=c.research, paid=c.research_paid, amount=amount)
    if c.research_paid >= research_cost(state, c, c.research):
        tech = c.research
        out += missions.on_tech(state, c, tech)
        c.techs[tech] = 0
        c.research, c.research_paid = None, 0
        out.append(ev.ResearchDone(tick=state.tick, to=[c.id], captain=c.id, tech=tech))
        out += hands.deal_hand(state, c, "research", stats_.research_choices(stats, state.rules))
    return out


def class_level(state: State, klass: str) -> int:
    return tech_of(state, klass).level


def space_of(state: State, c: Captain, klass: str) -> int:
    """The space a ship of this class has for its parts (its layout's, with Com)."""
    value = tech_of(state, klass).value(c.techs.get(klass, 0))
    return stats_.space(value, hands.stats_of(c), state.rules)


def _parts_fit(state: State, c: Captain, klass: str, parts: list[str], room: int) -> int:
    """The build cost of the parts, checked: every part a tech the captain has, no ship class
    among them, all of them in `room`."""
    for part in parts:
        if part not in state.cards.techs or part not in c.techs:
            raise CommandError(f"you do not have the tech {part!r}")
        if state.cards.techs[part].category == "class":
            raise CommandError(f"{part} is a ship class, not a part")
    size = sum(state.cards.techs[p].size for p in parts)
    if size > room:
        raise CommandError(f"those parts take {size} space; there is {room}")
    return sum(state.cards.techs[p].build_cost for p in parts)


def _new_ship(
    state: State, c: Captain, klass: str, parts: list[str], *, refittable: bool = True
) -> Ship:
    structure = tech_of(state, klass).structure
    return state.add_ship(c.id, klass, parts, structure, EARTH, refittable=refittable)


def _a_class(state: State, c: Captain, klass: str) -> Tech:
    tech = state.cards.techs.get(klass)
    if tech is None or tech.category != "class" or klass not in c.techs:
        raise CommandError(f"you have no ship class {klass!r}")
    return tech


def build(state: State, cid: str, klass: str, parts: list[str]) -> list[ev.Event]:
    """One ship a turn, at the shipyard, of a class the shipyard is large enough for."""
    c = captain_of(state, cid)
    stats = hands.stats_of(c)
    _not_forbidden(state, "no-building", "building")
    if c.shipyard.destroyed:
        raise CommandError("your shipyard is destroyed")
    if c.built >= state.rules.start.builds_per_turn:
        raise CommandError("you have built your ship this turn already (one a turn)")
    tech = _a_class(state, c, klass)
    if tech.level > class_level(state, c.shipyard.klass):
        raise CommandError(f"your shipyard builds up to {c.shipyard.klass}: upgrade it first")
    parts_cost = _parts_fit(state, c, klass, parts, space_of(state, c, klass))
    cost = stats_.build_cost(tech.build_cost + parts_cost, stats, state.rules)
    _afford(c, cost, f"that {klass}")
    c.credits -= cost
    c.built += 1
    ship = _new_ship(state, c, klass, parts)
    return _spent(state, c, "build", ship=ship.id, klass=klass, parts=parts, cost=cost)


def upgrade(state: State, cid: str, klass: str | None, parts: list[str]) -> list[ev.Event]:
    """The shipyard rebuilt to a larger class the captain has (the class's hull cost times the
    shipyard's size), or parts fitted in it (their build cost) while they fit its space (the
    rules' times the class's)."""
    c = captain_of(state, cid)
    stats = hands.stats_of(c)
    _not_forbidden(state, "no-building", "building")
    if c.shipyard.destroyed:
        raise CommandError("your shipyard is destroyed")
    yard = state.rules.shipyard
    target = klass or c.shipyard.klass
    tech = _a_class(state, c, target)
    if klass is not None and tech.level <= class_level(state, c.shipyard.klass):
        raise CommandError(f"your shipyard is a {c.shipyard.klass} yard already, or larger")
    if klass is None and not parts:
        raise CommandError("name a larger ship class or the parts to fit")
    room = space_of(state, c, target) * yard.space_times
    fitted = sum(state.cards.techs[p].size for p in c.shipyard.parts)
    part_cost = _parts_fit(state, c, target, parts, room - fitted)
    hull = tech.build_cost * yard.space_times if klass else 0
    cost = stats_.build_cost(hull + part_cost, stats, state.rules)
    _afford(c, cost, "that upgrade")
    c.credits -= cost
    c.shipyard.klass = target
    c.shipyard.parts = c.shipyard.parts + parts
    return _spent(state, c, "upgrade", klass=target, parts=c.shipyard.parts, cost=cost)


def shipyard_structure(state: State, c: Captain) -> int:
    return tech_of(state, c.shipyard.klass).structure * state.rules.shipyard.structure_times


def _own_ship(state: State, c: Captain, ship_id: int) -> Ship:
    ship = state.ships.get(ship_id)
    if ship is None or ship.owner != c.id:
        raise CommandError(f"you have no ship {ship_id}")
    return ship


def _commanded_ship(state: State, c: Captain, ship_id: int) -> Ship:
    """A ship the captain gives move and retreat orders to: their own, or an NPC friend's
    ship under their control (the trust's share: `npcs.controller`)."""
    ship = state.ships.get(ship_id)
    npc = state.npcs.get(ship.owner) if ship is not None else None
    controlled = npc is not None and npc.friend and npc.control.get(str(ship_id)) == c.id
    if ship is not None and controlled:
        return ship
    return _own_ship(state, c, ship_id)


def repair(state: State, cid: str, ship_id: int | None, points: int | None) -> list[ev.Event]:
    """Structure points repaired (the rules' price each) on a ship at the shipyard, or on the
    shipyard; without `points`, as many as the damage and the credits allow."""
    c = captain_of(state, cid)
    _not_forbidden(state, "no-repair", "repairs")
    if ship_id is None:
        if c.shipyard.destroyed:
            raise CommandError("your shipyard is destroyed: it cannot be repaired")
        damage, price = c.shipyard.damage, state.rules.repair.shipyard_per_sp
    else:
        ship = _own_ship(state, c, ship_id)
        if ship.at != EARTH:
            raise CommandError(f"ship {ship_id} is not at the shipyard (at Earth)")
        damage, price = ship.damage, state.rules.repair.ship_per_sp
    if damage == 0:
        raise CommandError("there is no damage to repair")
    want = min(damage, points if points is not None else c.credits // max(1, price))
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
    ship = _own_ship(state, c, ship_id)
    if ship.at != EARTH:
        raise CommandError(f"ship {ship_id} is not in the shipyard (at Earth)")
    if not ship.refittable:
        raise CommandError(f"ship {ship_id} came with the starting bonuses: it cannot be refitted")
    _parts_fit(state, c, ship.klass, parts, space_of(state, c, ship.klass))
    new = Counter(parts) - Counter(ship.parts)
    cost = sum(state.cards.techs[p].build_cost * n for p, n in new.items())
    _afford(c, cost, "that refit")
    c.credits -= cost
    ship.parts = list(parts)
    return _spent(state, c, "refit", ship=ship_id, parts=parts, cost=cost)


def scrap(state: State, cid: str, ship_id: int) -> list[ev.Event]:
    c = captain_of(state, cid)
    _own_ship(state, c, ship_id)
    del state.ships[ship_id]
    return _spent(state, c, "scrap", ship=ship_id)


def largest_space(state: State, c: Captain) -> int:
    """The space of the captain's largest ship before Com's bonus (0: they have none)."""
    return max(
        (tech_of(state, s.klass).value(c.techs.get(s.klass, 0)) for s in state.ships_of(c.id)),
        default=0,
    )


def recruit(state: State, cid: str, units: dict[str, int]) -> list[ev.Event]:
    """Land units bought at the shipyard, within the army's limits: its size at most (the
    largest ship's space + Com's bonus) / 5, each unit type at most 5 (+25% a point of Com)."""
    c = captain_of(state, cid)
    stats = hands.stats_of(c)
    rules = state.rules
    if c.shipyard.destroyed:
        raise CommandError("your shipyard is destroyed")
    table = rules.land_units
    unknown = sorted(u for u in units if u not in table)
    if unknown:
        raise CommandError(f"there is no land unit {unknown[0]!r}: {', '.join(table)}")
    if any(n < 1 for n in units.values()):
        raise CommandError("recruit one unit at least of each type named")
    army = dict(c.land)
    for unit, count in units.items():
        army[unit] = army.get(unit, 0) + count
    size = land.army_size(army, table)
    limit = stats_.land_army_size(largest_space(state, c), stats, rules)
    problems = land.army_problems(army, table, limit, stats_.land_unit_limit(stats, rules))
    if problems:
        raise CommandError(f"{problems[0]} (your largest ship carries an army of {limit})")
    cost = sum(table[u].cost * n for u, n in units.items())
    _afford(c, cost, "those units")
    c.credits -= cost
    c.land = army
    return _spent(state, c, "recruit", units=units, army=army, size=size, cost=cost)


# --- moves -----------------------------------------------------------------------------------------


def engine_range(state: State, techs: dict[str, int], ship: Ship) -> int:
    """The range of the ship's best engine (0: it has none), at its owner's layout."""
    best = 0
    for part in ship.parts:
        tech = state.cards.techs.get(part)
        if tech is not None and tech.category == "engine":
            best = max(best, tech.value(techs.get(part, 0)))
    return best


def reach(state: State, ship: Ship) -> dict[str, int]:
    """Where a ship can move this turn, with what it costs."""
    techs = state.captains[ship.owner].techs if ship.owner in state.captains else {}
    if ship.owner in state.npcs:
        techs = state.npcs[ship.owner].techs
    return starmap.reachable(state.map, state.map_rules, ship.at, engine_range(state, techs, ship))


def move(state: State, cid: str, ship_ids: list[int], to: str | None) -> list[ev.Event]:
    """Ships ordered to a place their engines reach (carried out at the resolution); at most
    a fleet from one place to one place; `to` None takes the orders back."""
    c = captain_of(state, cid)
    if len(set(ship_ids)) != len(ship_ids):
        raise CommandError("a ship is named twice")
    ships = [_commanded_ship(state, c, i) for i in ship_ids]
    if to is None:
        for ship in ships:
            ship.move = None
        return _spent(state, c, "move", ships=ship_ids, to=None)
    try:
        to = hexes.key(hexes.parse(to))
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if to not in state.map.tiles:
        _not_forbidden(state, "no-exploring", "flying into unexplored space")
    for ship in ships:
        if ship.at == to:
            raise CommandError(f"ship {ship.id} is at {to} already")
        if to not in reach(state, ship):
            raise CommandError(f"{to} is beyond ship {ship.id}'s engine range from {ship.at}")
    limit = state.rules.fleet.move_group
    for at in {s.at for s in ships}:
        going = {
            s.id for s in state.ships_of(c.id) if s.at == at and (s.id in ship_ids or s.move == to)
        }
        if len(going) > limit:
            raise CommandError(f"at most {limit} ships move from one place to another in a turn")
    for ship in ships:
        ship.move = to
    return _spent(state, c, "move", ships=ship_ids, to=to)


def set_retreat(state: State, cid: str, ship_id: int, on: bool) -> list[ev.Event]:
    c = captain_of(state, cid)
    ship = _commanded_ship(state, c, ship_id)
    ship.retreat = on
    return _spent(state, c, "retreat", ship=ship_id, on=on)


__all__ = ["HAND_KINDS", "captain_of", "choose", "fund", "move"]
