"""Caldera's NPC factions (seed 003, "NPC Guide"): making them, their ships, their turn.

- A friend (one a zone, from the rules' `npc_friends` table: Jack's Spacebay in zone 1, New
  Frontier in zone 2, ...) keeps its fleet (SShips x players) in its docks off the map; the
  captains' total trust sends a share of it out (`fleet_shares`): ships protecting the
  shipyards at Earth, and ships under a captain's control (`controller`), which follow that
  captain's move orders.
- An enemy (`create_enemy`, where scouting drew "enemy base") takes the row of the current
  zone from `npc_enemies`, an A.I. type from a card's number, its base planet's bonus, ship
  designs from cards, a starting fleet and a land army. "Enemy presence" puts ships of the
  closest (then newest) enemy where it was found (`enemy_presence`). When a zone opens, every
  older enemy draws 2 tech and 5 layout cards and its ships are refitted at once
  (`upgrade_enemies`).
- The NPCs' turn (`npc_turn`, the seed's part 4): each NPC in `npc_ai.turn_order` sends ships,
  then gets new ships; damaged enemy ships withdraw to their base and are repaired there.
- The escort events (`event_started`, `event_ended`): a friend's protected ship at Earth while
  a wingman or rare cargo card is in play; alive at its end, trust and credits.

Every number is the rules' (data/rulesets/caldera/standard.toml: `[npc]`, `npc_friends`,
`npc_enemies`, `npc_design`, `enemy_ai`, `planets`, `land_army`, `land_units`, `trust`,
`new_zone`, `fleet`); every decision where the seed is silent is in docs/RULES-CALDERA.md,
"NPCs". Every card comes off the game's main deck, so a game replays the same NPCs.
"""

from __future__ import annotations

from typing import Any

from engine.caldera import deck as deck_
from engine.caldera import land, npc_ai, starmap, window
from engine.caldera.rules import (
    WEAPON_TYPES,
    Deck,
    EnemyAi,
    NpcEnemy,
    NpcFriend,
    Planet,
    Rules,
)
from engine.caldera.state import EARTH, Npc, Ship, State

ESCORT_EVENTS = ("wingman", "rare-cargo")  # the event cards' effects with a ship to escort

# --- the game's cards -------------------------------------------------------------------------


def _books(state: State) -> tuple[Rules, Deck]:
    return state.rules, state.cards


def _deal(state: State, count: int) -> list[str]:
    """`count` cards off the main deck (the discard shuffled back when it runs out)."""
    return deck_.deal(state.decks.main, count, state)


def _discard(state: State, cards: list[str]) -> None:
    deck_.discard(state.decks.main, cards)


# --- the NPC tables -------------------------------------------------------------------------------


def row_of(rules: Rules, npc: Npc) -> NpcFriend | NpcEnemy:
    """The NPC's row of the rules' NPC tables."""
    rows: list[NpcFriend] | list[NpcEnemy] = rules.npc_friends if npc.friend else rules.npc_enemies
    for row in rows:
        if row.id == npc.table:
            return row
    raise KeyError(f"no NPC {npc.table!r} in the rules' tables")


def ai_of(rules: Rules, npc: Npc) -> EnemyAi | None:
    return next((a for a in rules.enemy_ai if a.id == npc.ai), None)


def planet_of(state: State, rules: Rules, place: str | None) -> Planet | None:
    """The bonus of the planet at `place` (None: no planet there)."""
    tile = state.map.tiles.get(place) if place is not None else None
    if tile is None or not tile.planet:
        return None
    return rules.planets.get(str(tile.planet))


def slots(npc: Npc, deck: Deck, rules: Rules) -> list[tuple[str, int]]:
    """The ship types the NPC builds (its DShips: "1-1 means ints and frigates"): for each
    class of the row's list, the class it builds and how many of it in a set. A class it has
    not got (Gaia Creations' third, with class 2 techs) is built as its best class below."""
    classes = deck.of_category("class")  # by level: interceptor first
    out: list[tuple[str, int]] = []
    for i, count in enumerate(row_of(rules, npc).dships):
        known = [c for c in classes[: i + 1] if c in npc.techs]
        if known and count > 0:
            out.append((known[-1], count))
    return out


def pattern(npc: Npc, deck: Deck, rules: Rules) -> list[str]:
    """The classes of one set of new ships, in the order they are built."""
    return [klass for klass, count in slots(npc, deck, rules) for _ in range(count)]


# --- designing ships for an NPC --------------------------------------------------------------------


def best_engine(npc: Npc, deck: Deck) -> str | None:
    engines = [t for t in npc.techs if deck.techs.get(t) and deck.techs[t].category == "engine"]
    return max(
        engines,
        key=lambda t: (deck.techs[t].level, deck.techs[t].value(npc.techs[t]), t),
        default=None,
    )


def _engine_for(npc: Npc, deck: Deck, space: int, weapon: int) -> str | None:
    """The engine of a design with `space`: its best engine that leaves room for a weapon of
    size `weapon` (the smallest it has), else the best that fits at all."""
    engines = sorted(
        (t for t in npc.techs if t in deck.techs and deck.techs[t].category == "engine"),
        key=lambda t: (deck.techs[t].level, deck.techs[t].value(npc.techs[t]), t),
        reverse=True,
    )
    fits = [e for e in engines if deck.techs[e].size <= space]
    roomy = [e for e in fits if deck.techs[e].size + weapon <= space]
    found = roomy or fits
    return found[0] if found else None


def design(npc: Npc, deck: Deck, klass: str) -> list[str]:
    """The parts of the NPC's ships of `klass`: its best engine that leaves room for a weapon,
    then as many weapons as the class fires a round (its class level) of its best weapon (the most damage at its layout,
    ties in the seed's order: beam, fighters, laser, missile, mine), then its defences, the
    best first, in turns, while they fit in the class's space. No mining bots."""
    tech = deck.techs[klass]
    space = tech.value(npc.techs.get(klass, 0))
    parts: list[str] = []
    rank = {w: i for i, w in enumerate(WEAPON_TYPES)}
    weapons = sorted(
        (t for t in npc.techs if t in deck.techs and deck.techs[t].category == "weapon"),
        key=lambda t: (
            -deck.techs[t].value(npc.techs[t]),
            rank.get(deck.techs[t].weapon or "", 9),
            t,
        ),
    )
    engine = _engine_for(npc, deck, space, min((deck.techs[w].size for w in weapons), default=0))
    if engine is not None:
        parts.append(engine)
        space -= deck.techs[engine].size
    for _ in range(tech.level):
        fits = next((w for w in weapons if deck.techs[w].size <= space), None)
        if fits is None:
            break
        parts.append(fits)
        space -= deck.techs[fits].size
    defences = sorted(
        (t for t in npc.techs if t in deck.techs and deck.techs[t].category == "defence"),
        key=lambda t: (-deck.techs[t].value(npc.techs[t]), t),
    )
    added = True
    while added and defences:
        added = False
        for d in defences:
            size = deck.techs[d].size
            if 0 < size <= space:
                parts.append(d)
                space -= size
                added = True
    return parts


def redesign(npc: Npc, deck: Deck) -> None:
    """A design for each ship class the NPC has."""
    npc.designs = {
        klass: design(npc, deck, klass) for klass in deck.of_category("class") if klass in npc.techs
    }


def _helps(npc: Npc, deck: Deck, rules: Rules, tech: str) -> bool:
    """Whether a layout of `tech` helps the NPC: a class it builds, or a part its designs fit."""
    if tech not in npc.techs or npc.techs[tech] >= rules.design.layouts:
        return False
    if deck.techs[tech].category == "class":
        return any(k == tech for k, _ in slots(npc, deck, rules))
    fitted = {p for k, _ in slots(npc, deck, rules) for p in design(npc, deck, k)}
    return tech in fitted


def _layout(npc: Npc, deck: Deck, rules: Rules, tech: str) -> None:
    """One layout of `tech`; one that does not help the NPC goes to its engine instead (the
    engine its ships are fitted with; none when it has every layout already)."""
    if tech in deck.techs and _helps(npc, deck, rules, tech):
        npc.techs[tech] += 1
        return
    engine = _fitted_engine(npc, deck, rules)
    if engine is not None and npc.techs[engine] < rules.design.layouts:
        npc.techs[engine] += 1


def _fitted_engine(npc: Npc, deck: Deck, rules: Rules) -> str | None:
    """ "His engine": the engine its largest class's ships are fitted with (else its best)."""
    for klass, _ in reversed(slots(npc, deck, rules)):
        for part in design(npc, deck, klass):
            if deck.techs[part].category == "engine":
                return part
    return best_engine(npc, deck)


def _gain(npc: Npc, deck: Deck, rules: Rules, tech: str, planet: Planet | None) -> None:
    """A tech card for the NPC: the tech, or a layout of it when it has it already. A new
    weapon on a vulcan planet starts a layout up."""
    if tech not in deck.techs:
        return
    if tech in npc.techs:
        _layout(npc, deck, rules, tech)
        return
    layouts = 0
    if planet is not None and deck.techs[tech].category == "weapon":
        layouts = min(planet.weapon_layouts, rules.design.layouts)
    npc.techs[tech] = layouts


def draw_design(
    state: State,
    npc: Npc,
    deck: Deck,
    rules: Rules,
    techs: int,
    layouts: int,
    *,
    weapon: str | None = None,
) -> list[str]:
    """The seed's "Designing ships for A.I.": a card for each tech (a "+tech" card counts as
    two: one more tech card is drawn), then the NPC's `weapon` if it has no weapon yet, then a
    card for each layout (a "+tech" card gives its tech instead, a "+layout" card two layouts;
    a layout that does not help goes to its engine). The designs follow. Returns the cards
    drawn (discarded)."""
    planet = planet_of(state, rules, npc.home)
    drawn: list[str] = []
    left = techs
    cap = techs + len(deck.cards)  # a run of "+tech" cards ends with the deck
    while left > 0 and len(drawn) < cap:
        got = _deal(state, 1)
        if not got:
            break
        drawn += got
        left -= 1
        card = deck.card(got[0])
        _gain(npc, deck, rules, card.tech, planet)
        if card.bonus == "+tech":
            left += rules.npc_design.plus_tech_for_tech - 1
    if weapon and not any(deck.techs[t].category == "weapon" for t in npc.techs if t in deck.techs):
        _gain(npc, deck, rules, weapon, planet)
    layout_cards = _deal(state, layouts)
    drawn += layout_cards
    for card_id in layout_cards:
        card = deck.card(card_id)
        if card.bonus == "+tech":
            _gain(npc, deck, rules, card.tech, planet)
            continue
        times = rules.npc_design.plus_layout_for_layout if card.bonus == "+layout" else 1
        for _ in range(times):
            _layout(npc, deck, rules, card.tech)
    _discard(state, drawn)
    redesign(npc, deck)
    return drawn


def _first_techs(npc: Npc, deck: Deck, row: NpcFriend | NpcEnemy) -> None:
    """The row's class and engine: every ship class up to its class level, and the engine of
    its engine level (the first engine when the seed names none; the best below it when the
    deck has none of that level)."""
    for klass in deck.of_category("class"):
        if deck.techs[klass].level <= row.design.class_level:
            npc.techs.setdefault(klass, 0)
    engines = deck.of_category("engine")
    engine = deck.best("engine", row.design.engine_level) if row.design.engine_level else None
    engine = engine or (engines[0] if engines else None)
    if engine is not None:
        npc.techs.setdefault(engine, 0)


# --- ships ---------------------------------------------------------------------------------------


def launch(state: State, npc: Npc, deck: Deck, klass: str, at: str) -> Ship:
    """A new ship of the NPC's design for `klass` at `at`."""
    parts = npc.designs.get(klass)
    if parts is None:
        parts = design(npc, deck, klass)
    return state.add_ship(npc.id, klass, parts, deck.techs[klass].structure, at)


def _build_sets(
    state: State, npc: Npc, deck: Deck, rules: Rules, count: int, at: str
) -> list[Ship]:
    """`count` ships at `at`, the classes of its DShips in turn."""
    classes = pattern(npc, deck, rules)
    out = []
    for _ in range(count if classes else 0):
        out.append(launch(state, npc, deck, classes[npc.built % len(classes)], at))
        npc.built += 1
    return out


def land_army(
    rules: Rules, row: NpcEnemy, players: int, planet: Planet | None
) -> tuple[int, dict[str, int]]:
    """An enemy's land tech and land army: Lsize x players (twice on an earthlike planet) of
    size, filled with the best units its land tech allows (its zone level, one more on an
    earthlike planet), each up to the unit limit; space cadets (unlimited for the A.I.) fill
    the rest (`land.npc_army`)."""
    tech = row.zone + (planet.land_tech if planet else 0)
    size = row.lsize * players * (planet.army_times if planet else 1)
    army = land.npc_army(
        size,
        tech,
        rules.land_units,
        rules.land_army.unit_limit,
        unlimited=(rules.land_army.ai_unlimited,),
    )
    return tech, army


# --- making NPCs ----------------------------------------------------------------------------------


def create_friend(state: State) -> Npc | None:
    """The friend of the current zone (zone 1: Jack's Spacebay): its row's techs, designs from
    cards, and SShips x players ships in its docks off the map (`fleet_shares` sends some
    out). None when the zone has its friend already or the table has no row for it."""
    rules, deck = _books(state)
    row = rules.friend_of_zone(state.zone)
    if row is None or row.id in state.npcs:
        return None
    if rules.npc.one_friend_per_zone and any(n.zone == state.zone for n in state.friends()):
        return None
    npc = Npc(
        id=row.id,
        name=row.name,
        friend=True,
        row=rules.npc_friends.index(row) + 1,
        zone=state.zone,
        table=row.id,
    )
    state.npcs[npc.id] = npc
    _first_techs(npc, deck, row)
    draw_design(
        state,
        npc,
        deck,
        rules,
        row.design.techs,
        row.design.layouts,
        weapon=rules.npc.friend_weapon,
    )
    classes = pattern(npc, deck, rules)
    npc.fleet_start = row.sships * state.players()
    for i in range(npc.fleet_start if classes else 0):
        klass = classes[i % len(classes)]
        npc.docked[klass] = npc.docked.get(klass, 0) + 1
    return npc


def create_enemy(state: State, home: str) -> Npc:
    """A new enemy whose base scouting found at `home` (the event table's 1): the enemy row of
    the current zone, its A.I. type from a card's number, its planet's bonus (earthlike: land
    tech +1 and a double army; arid: half as many ships again; cold: defence +50% in battle;
    vulcan: a layout more on every weapon), designs from cards, its starting fleet at its base
    (the rules' `enemy_sships` x players) and its land army (Lsize x players)."""
    rules, deck = _books(state)
    row = rules.enemy_of_zone(state.zone)
    n = 1 + sum(1 for e in state.enemies() if e.table == row.id)
    got = _deal(state, 1)
    number = deck.card(got[0]).number if got else 1
    _discard(state, got)
    ai = rules.ai_type(number)
    planet = planet_of(state, rules, home)
    npc = Npc(
        id=f"{row.id}-{n}",
        name=row.name if n == 1 else f"{row.name} {n}",
        friend=False,
        row=rules.npc_enemies.index(row) + 1,
        zone=state.zone,
        ai=ai.id,
        home=home,
        table=row.id,
        defence_percent=planet.defence_percent if planet else 0,
    )
    state.npcs[npc.id] = npc
    _first_techs(npc, deck, row)
    draw_design(state, npc, deck, rules, row.design.techs, row.design.layouts, weapon=ai.weapon)
    ships = rules.npc.enemy_sships * state.players()
    if planet is not None:
        ships = ships * (100 + planet.ships_percent) // 100
    npc.fleet_start = ships
    _build_sets(state, npc, deck, rules, ships, home)
    npc.land_tech, npc.land = land_army(rules, row, state.players(), planet)
    return npc


def enemy_presence(state: State, npc: Npc, at: str, ships: int) -> None:
    """`ships` ships of `npc` put at `at` (the event table's heavy enemy presence, 4X, and
    enemy presence, 2X): they hold that system."""
    rules, deck = _books(state)
    _build_sets(state, npc, deck, rules, ships, at)


def upgrade_enemies(state: State) -> None:
    """A new zone opened: every enemy made in an earlier zone whose base still stands draws 2
    tech cards and 5 layout cards (the rules' `new_zone`); all its ships are refitted to its
    new designs at once."""
    rules, deck = _books(state)
    for npc in state.enemies():
        if npc.conquered or npc.zone >= state.zone:
            continue
        draw_design(
            state,
            npc,
            deck,
            rules,
            rules.new_zone.enemy_tech_cards,
            rules.new_zone.enemy_layout_cards,
        )
        for ship in state.ships_of(npc.id):
            ship.parts = list(npc.designs.get(ship.klass, ship.parts))


# --- trust: the friends' fleet ---------------------------------------------------------------------


def fleet_shares(state: State, rules: Rules, fleet: int) -> tuple[int, int]:
    """(protecting, controlled): how many of a friend's `fleet` ships protect the captains'
    shipyards and how many are under the captains' control, by the captains' total trust (the
    highest threshold reached of each, times the players). Control comes first: the ships
    protecting are at most those left."""
    protect, control = rules.trust.shares(state.trust, state.players())
    controlled = fleet * control // 4
    return min(fleet - controlled, fleet * protect // 4), controlled


def controller(state: State, ship: Ship | int) -> str | None:
    """The captain a friend's ship obeys (their move orders move it), or None."""
    found = state.ships.get(ship) if isinstance(ship, int) else ship
    if found is None:
        return None
    npc = state.npcs.get(found.owner)
    if npc is None or not npc.friend:
        return None
    cid = npc.control.get(str(found.id))
    return cid if cid is not None and cid in state.active() else None


def _fleet(state: State, npc: Npc) -> list[Ship]:
    """A friend's ships on the map that are its fleet's (not a ship escorted for an event)."""
    return [s for s in state.ships_of(npc.id) if s.id != npc.escort]


def _dock(state: State, npc: Npc, ship: Ship, into: dict[str, int]) -> None:
    del state.ships[ship.id]
    npc.control.pop(str(ship.id), None)
    into[ship.klass] = into.get(ship.klass, 0) + 1


def _undock(state: State, npc: Npc, deck: Deck) -> Ship | None:
    """The largest class waiting in the friend's docks comes out at Earth."""
    waiting = [k for k, n in npc.docked.items() if n > 0]
    if not waiting:
        return None
    klass = max(waiting, key=lambda k: (deck.techs[k].level, k))
    npc.docked[klass] -= 1
    if not npc.docked[klass]:
        del npc.docked[klass]
    return launch(state, npc, deck, klass, EARTH)


def _friend_turn(state: State, npc: Npc, rules: Rules, deck: Deck) -> list[dict[str, Any]]:
    """Send ships: the ships repaired last turn back in the docks; damaged ships withdraw to
    the docks (repaired by the next turn); then the trust's shares: ships under control (each
    given to the captain with the fewest, by seat) and ships protecting the shipyards at
    Earth, taken from the docks or sent back to them. Get new ships: its points a turn, a set
    of its DShips for as many points as types, while its fleet is below its start."""
    out: list[dict[str, Any]] = []
    for klass, n in npc.repairing.items():
        npc.docked[klass] = npc.docked.get(klass, 0) + n
    npc.repairing = {}
    for ship in _fleet(state, npc):
        if ship.damage > 0:
            out.append({"npc": npc.id, "ship": ship.id, "did": "repairs", "at": ship.at})
            _dock(state, npc, ship, npc.repairing)
    captains = state.active()
    npc.control = {s: c for s, c in npc.control.items() if int(s) in state.ships and c in captains}
    out_now = _fleet(state, npc)
    fleet = len(out_now) + sum(npc.docked.values()) + sum(npc.repairing.values())
    protect_n, control_n = fleet_shares(state, rules, fleet)
    if not captains:
        protect_n, control_n = min(fleet, protect_n + control_n), 0
    controlled = [s for s in out_now if str(s.id) in npc.control]
    while len(controlled) > control_n:
        _dock(state, npc, controlled.pop(), npc.docked)
    while len(controlled) < control_n:
        spare = [s for s in _fleet(state, npc) if str(s.id) not in npc.control]
        taken = spare[0] if spare else _undock(state, npc, deck)
        if taken is None:
            break
        have = {c: 0 for c in captains}
        for c in npc.control.values():
            have[c] = have.get(c, 0) + 1
        cid = min(captains, key=lambda c: (have[c], state.captains[c].seat))
        npc.control[str(taken.id)] = cid
        controlled.append(taken)
        out.append({"npc": npc.id, "ship": taken.id, "did": "control", "captain": cid})
    guards = [s for s in _fleet(state, npc) if str(s.id) not in npc.control]
    while len(guards) > protect_n:
        _dock(state, npc, guards.pop(), npc.docked)
    while len(guards) < protect_n:
        guard = _undock(state, npc, deck)
        if guard is None:
            break
        guards.append(guard)
        out.append({"npc": npc.id, "ship": guard.id, "did": "protect", "at": EARTH})
    for ship in guards:
        if ship.at != EARTH:
            _move(state, npc, ship, EARTH)
    npc.ship_points += rules.npc.friend_points_per_turn
    classes = pattern(npc, deck, rules)
    while classes and npc.ship_points >= len(slots(npc, deck, rules)):
        total = len(_fleet(state, npc)) + sum(npc.docked.values()) + sum(npc.repairing.values())
        if total >= npc.fleet_start:
            break
        npc.ship_points -= len(slots(npc, deck, rules))
        for klass in classes[: npc.fleet_start - total]:
            npc.docked[klass] = npc.docked.get(klass, 0) + 1
            out.append({"npc": npc.id, "did": "built", "class": klass})
    npc.turns += 1
    return out


# --- the enemies' turn -----------------------------------------------------------------------------


def _move(state: State, npc: Npc, ship: Ship, to: str) -> None:
    ship.came_from, ship.at, ship.arrived = ship.at, to, state.turn + 1
    if to not in state.map.tiles:
        if to not in state.scouting:
            state.scouting.append(to)
        if to not in npc.scouting:
            npc.scouting.append(to)


class _Routes:
    """What moving costs, worked out once in an NPC's turn: the places a ship reaches from a
    place with its range, and the cheapest cost between each place and a destination."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._reach: dict[tuple[str, int], dict[str, int]] = {}
        self._to: dict[str, dict[str, int]] = {}

    def reach(self, npc: Npc, ship: Ship) -> dict[str, int]:
        key = (ship.at, window.engine_range(self.state, npc.techs, ship))
        if key not in self._reach:
            self._reach[key] = window.reach(self.state, ship)
        return self._reach[key]

    def to(self, place: str) -> dict[str, int]:
        if place not in self._to:
            self._to[place] = starmap.costs_from(self.state.map, self.state.map_rules, place)
        return self._to[place]


def _fly(state: State, npc: Npc, ship: Ship, out: list[dict[str, Any]], routes: _Routes) -> None:
    """The ship one turn's move towards where it is sent (the target dropped on arrival)."""
    to = npc.targets.get(str(ship.id))
    if to is None:
        return
    if ship.at != to:
        reach = routes.reach(npc, ship)
        nxt = to if to in reach else npc_ai.step(ship.at, to, reach, routes.to(to), state.map.tiles)
        if nxt != ship.at:
            out.append({"npc": npc.id, "ship": ship.id, "did": "move", "src": ship.at, "dst": nxt})
            _move(state, npc, ship, nxt)
    if ship.at == to:
        del npc.targets[str(ship.id)]


def _enemy_turn(state: State, npc: Npc, rules: Rules, deck: Deck) -> list[dict[str, Any]]:
    """Send ships, then get new ships (the module's doc and docs/RULES-CALDERA.md "NPCs")."""
    out: list[dict[str, Any]] = []
    ai = ai_of(rules, npc)
    home = npc.home
    if ai is None or home is None:
        return out
    npc.targets = {s: t for s, t in npc.targets.items() if int(s) in state.ships}
    repaired: set[int] = set()
    for ship in state.ships_of(npc.id):
        if ship.damage <= 0:
            continue
        if ship.at == home:
            ship.damage = 0
            repaired.add(ship.id)
            npc.targets.pop(str(ship.id), None)
            out.append({"npc": npc.id, "ship": ship.id, "did": "repaired", "at": home})
        else:
            npc.targets[str(ship.id)] = home
    routes = _Routes(state)
    for ship in state.ships_of(npc.id):
        _fly(state, npc, ship, out, routes)
    # send ships out: all but half its starting fleet (the Conquerors' first turn: half of it)
    reserve = -(-npc.fleet_start * rules.npc.base_share_percent // 100)
    idle = [
        s
        for s in state.ships_of(npc.id)
        if s.at == home and str(s.id) not in npc.targets and s.id not in repaired
    ]
    spare = idle[reserve:] if len(idle) > reserve else []
    opening = ai.opening_attack and npc.turns == 0
    if opening:
        spare = spare[: npc.fleet_start - reserve]
    limit = rules.fleet_limit(ai.id)
    while spare and (opening or len(spare) >= ai.group):
        group, spare = spare[: ai.group], spare[ai.group :]
        to = _destination(state, npc, ai, len(group), limit, routes.to(home))
        if to is None:
            break
        for ship in group:
            npc.targets[str(ship.id)] = to
        out.append({"npc": npc.id, "did": "send", "ships": [s.id for s in group], "to": to})
        for ship in group:
            _fly(state, npc, ship, out, routes)
    # get new ships
    gained = npc_ai.points_gained(state, npc, ai)
    if ai.points in npc_ai.CLAIMED:
        npc.claimed += npc_ai.claims(state, npc, ai)
        npc.claim_points += gained
    npc.scouting = [p for p in npc.scouting if p not in state.map.tiles]
    if ai.points == "destroyed-ships":
        npc.destroyed_seen = npc.destroyed
        built = _build_sets(state, npc, deck, rules, gained, home)
    else:
        npc.ship_points += gained
        types = len(slots(npc, deck, rules))
        built = []
        while types and npc.ship_points >= types:
            npc.ship_points -= types
            built += _build_sets(state, npc, deck, rules, len(pattern(npc, deck, rules)), home)
    for ship in built:
        out.append(
            {"npc": npc.id, "ship": ship.id, "did": "built", "class": ship.klass, "at": home}
        )
    npc.turns += 1
    return out


def _destination(
    state: State, npc: Npc, ai: EnemyAi, size: int, limit: int, from_home: dict[str, int]
) -> str | None:
    """Where the next group of `size` goes: the first of its type's places its ships can get
    to from its base (`from_home`) with room for the group (its ships there and on the way,
    plus the group, within the fleet limit); with no such place, the closest homeworld with
    room; None: nowhere (the group waits)."""
    going: dict[str, int] = {}
    for ship in state.ships_of(npc.id):
        going[ship.at] = going.get(ship.at, 0) + (0 if str(ship.id) in npc.targets else 1)
    for to in npc.targets.values():
        going[to] = going.get(to, 0) + 1
    taken = set(npc_ai.held(state, npc)) | set(npc.targets.values())
    for place in npc_ai.targets(state, npc, ai, taken) + npc_ai.homeworlds(state, npc):
        if place in from_home and going.get(place, 0) + size <= limit:
            return place
    return None


def npc_turn(state: State) -> list[dict[str, Any]]:
    """The NPCs' turn (the seed's part 4), each in `npc_ai.turn_order`: the friends send ships
    (the trust's shares) and get new ships, then each enemy sends ships and gets new ships.
    Returns what each did, in order (for the turn's report)."""
    rules, deck = _books(state)
    out: list[dict[str, Any]] = []
    for npc_id in npc_ai.turn_order(state):
        npc = state.npcs[npc_id]
        if npc.friend:
            out += _friend_turn(state, npc, rules, deck)
        else:
            out += _enemy_turn(state, npc, rules, deck)
    return out


__all__ = [
    "controller",
    "create_enemy",
    "create_friend",
    "draw_design",
    "enemy_presence",
    "fleet_shares",
    "npc_turn",
    "upgrade_enemies",
]


def event_started(state: State, card: str) -> None:
    """An event card came into play: the wingman and rare cargo events put a ship of the newest
    friend (a new one of its largest class, not from its fleet) at Earth, `protected` (the
    enemies hit every captain's ship before it): it stays there, under the shipyards' and
    the captains' protection, until the card ends."""
    if state.cards.event_card(card).effect not in ESCORT_EVENTS or not state.friends():
        return
    rules, deck = _books(state)
    npc = state.friends()[-1]
    classes = pattern(npc, deck, rules)
    if not classes:
        return
    klass = max(classes, key=lambda k: (deck.techs[k].level, k))
    ship = launch(state, npc, deck, klass, EARTH)
    ship.protected = True
    npc.escort = ship.id


def event_ended(state: State, card: str) -> None:
    """An event card's turns are over: an escorted ship still alive earns the captains the
    card's trust and each captain its `amount` x the zone in credits; then it leaves."""
    found = state.cards.event_card(card)
    for npc in state.friends():
        if npc.escort is None:
            continue
        ship = state.ships.pop(npc.escort, None)
        npc.control.pop(str(npc.escort), None)
        npc.escort = None
        if ship is not None and found.effect in ESCORT_EVENTS:
            state.trust += found.trust
            for cid in state.active():
                state.captains[cid].credits += found.amount * state.zone
