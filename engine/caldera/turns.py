"""The game around the turns: the lobby, the captains' windows, the deadlines and each turn's
resolution in the seed's order.

A turn is a window in which the captains spend and give move orders (`window.py`: applied at
once, privately), then its resolution, at the deadline (`turn_ticks` after the window opened)
or, with `early`, as soon as every captain still in has submitted:

  1. the moves ordered (part 3), fleets over the limit sending their newest arrivals back,
  2. the NPCs' turn (part 4),
  3. the battles, nearest Earth first, then north, clockwise (part 1a),
  4. scouting the unexplored places the captains' ships entered, in the same order: a card
     drawn for the event table places a tile (enemy base, heavy enemy presence, enemy
     presence, a loyalty mission, or an empty system) (part 1b),
  5. the zone counter less one; at 0 a new zone opens (part 1c); the event card's turns,
  6. the income of every mining ship and shipyard (part 2),
  7. the end of the campaign (won, lost, or its length), else the next window.

The first window is the setup (the seed: "start the first turn at part 3"): the captains set
their stats, buy starting bonuses, choose their first research and design and the zone
mission, build and give moves. Everything here is a pure function of the state and the entry.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.caldera import captain as stats_
from engine.caldera import clashes, deck, hands, hexes, missions, npcs, starmap, window
from engine.caldera import events as ev
from engine.caldera.captain import Stats
from engine.caldera.rules import STATS
from engine.caldera.state import EARTH, TICKS_PER_HOUR, Captain, EventInPlay, Shipyard, State
from engine.errors import CommandError, GameError
from engine.interface.turnbased import deadlines, lobby
from engine.interface.turnbased.deadlines import reminder, resolves_early


def everyone(state: State) -> list[str]:
    return sorted(state.captains)


# --- the lobby -----------------------------------------------------------------------------------


def join(state: State, nation: str, name: str, colour: str, user: str | None) -> list[ev.Event]:
    seat = lobby.free_seat(state.started, state.captains, nation, state.seats, "captain")
    state.captains[nation] = Captain(
        id=nation,
        name=name,
        seat=seat,
        colour=colour,
        user=user,
        shipyard=Shipyard(klass=_first_class(state)),
    )
    return [ev.Joined(tick=state.tick, to=everyone(state), captain=nation, name=name, seat=seat)]


def leave(state: State, nation: str) -> list[ev.Event]:
    lobby.leave(state.started, state.captains, nation, "captain")
    return [ev.Left(tick=state.tick, to=everyone(state) + [nation], captain=nation)]


def start(state: State) -> list[ev.Event]:
    """The decks shuffled, Earth placed, the first friend (Jack's Spacebay), a starting event;
    each captain's credits and starting techs; the setup window opens."""
    if state.started:
        raise GameError("the game has already started")
    if not state.captains:
        raise GameError("a game needs a captain to start")
    rules = state.rules
    tile_set = state.tile_set
    state.decks = deck.new_decks(state.cards, state, {k: tile_set.deck(k) for k in ("A", "B", "C")})
    for c in state.captains.values():
        c.credits = rules.start.credits
        c.techs = dict.fromkeys(rules.start.techs, 0)
    npcs.create_friend(state)
    _next_event(state)
    state.started = True
    state.phase = "setup"
    state.deadline = state.next_deadline()
    return [
        ev.Started(
            tick=state.tick,
            to=everyone(state),
            captains=state.active(),
            deadline=state.deadline,
            early=state.early,
            event=state.event.card if state.event else None,
        )
    ]


def resign(state: State, nation: str) -> list[ev.Event]:
    if state.ended:
        raise GameError("the game is over")
    c = state.captains.get(nation)
    if c is None or c.out:
        raise GameError(f"{nation!r} is not in the game")
    c.out = True
    for ship in state.ships_of(nation):
        del state.ships[ship.id]
    out: list[ev.Event] = []
    if state.started and not state.active():
        return out + end_game(state, "lost")
    if state.started and resolves_early(state.early, state.active(), _submitted(state)):
        out += resolve(state)
    return out


def substitute(state: State, nation: str, user: str | None) -> list[ev.Event]:
    lobby.substitute(state.ended, state.captains, nation, user, "captain")
    return []


def _first_class(state: State) -> str:
    """The ship class the captains start with (their shipyard's size)."""
    techs = state.cards.techs
    return next(t for t in state.rules.start.techs if techs[t].category == "class")


def default_stats(state: State) -> Stats:
    """A captain's stats when they set none by the setup's deadline: every stat its least,
    the points left handed out one at a time in the seed's order."""
    stats = state.rules.stats
    points = dict(stats.minimum)
    left = stats.points - sum(points.values())
    while left > 0:
        for name in STATS:
            if left > 0:
                points[name] += 1
                left -= 1
    return Stats(**points)


def _mining(state: State, techs: dict[str, int]) -> int:
    """What one set of mining bots mines in a turn, at the owner's layout."""
    return state.cards.techs["mining-bots"].value(techs.get("mining-bots", 0))


# --- the window ----------------------------------------------------------------------------------


def submit(state: State, nation: str) -> list[ev.Event]:
    """The captain is done with the window; with `early`, the last one resolves the turn."""
    c = window.captain_of(state, nation)
    if state.phase == "setup" and c.stats is None:
        raise CommandError("set your stats before you submit the first turn")
    c.submitted = True
    if resolves_early(state.early, state.active(), _submitted(state)):
        return resolve(state)
    return []


def _submitted(state: State) -> Callable[[str], bool]:
    """Whether a captain is done with the window."""
    return lambda cid: state.captains[cid].submitted


# --- time ----------------------------------------------------------------------------------------


def advance(state: State, ticks: int) -> list[ev.Event]:
    """Time moves on: a window whose deadline comes resolves; the game ends at its length."""
    out: list[ev.Event] = []
    for _ in range(ticks):
        if state.ended:
            break
        state.tick += 1
        out += _remind(state)
        if state.started and state.deadline is not None and state.tick >= state.deadline:
            out += resolve(state)
        if state.started and not _over(state) and state.tick >= state.end_tick:
            out += end_game(state, "time")
    return out


def _over(state: State) -> bool:
    return state.ended


def reminder_ticks(state: State) -> int:
    """Captains who have not submitted are reminded an hour before the deadline (a quarter
    of a shorter window)."""
    return min(TICKS_PER_HOUR, state.turn_ticks // 4)


def _remind(state: State) -> list[ev.Event]:
    if not state.started:
        return []
    return reminder(
        state,
        reminder_ticks(state),
        lambda: [o for o in state.active() if not state.captains[o].submitted],
    )


def set_deadline(state: State, *, now: bool, extend: int) -> list[ev.Event]:
    """A moderator resolves the window now, or moves its deadline `extend` ticks later."""
    return deadlines.set_deadline(
        state, now=now, extend=extend, resolve=lambda: resolve(state), everyone=everyone(state)
    )


# --- the resolution ------------------------------------------------------------------------------


def _finish_setup(state: State) -> list[ev.Event]:
    """What the setup window leaves undone gets the defaults: the rules' stats, the first
    research card, the first zone mission card."""
    out: list[ev.Event] = []
    for cid in state.active():
        c = state.captains[cid]
        if c.stats is None:
            c.stats = default_stats(state)
            out += window.deal_first_hands(state, c)
    for cid in state.active():
        c = state.captains[cid]
        hand = next((h for h in c.hand if h.kind == "research"), None)
        if hand is not None and c.research is None:
            pick = next((k for k in hand.cards if state.cards.card(k).tech not in c.techs), None)
            if pick is not None:
                out += window.choose(state, cid, "research", pick)
    if state.zone_mission is None and not state.zone_hand and state.active():
        out += window.start_zone(state)  # (the last captain without stats resigned)
    if state.zone_hand:
        window.set_zone_mission(state, state.cards.card(state.zone_hand[0]).number)
        deck.discard(state.decks.main, state.zone_hand)
        state.zone_hand = []
    return out


def resolve(state: State) -> list[ev.Event]:
    """The turn's resolution (the module's steps 1-7)."""
    out: list[ev.Event] = []
    if state.phase == "setup":
        out += _finish_setup(state)
    turn = state.turn + 1
    farthest_before = state.farthest
    moved, returned = _moves(state, turn)
    npcs_before = set(state.npcs)
    # what each NPC did, with its name and A.I. type (the captains' DMs tell it by them)
    npc_turn = [
        {**did, "name": state.npcs[did["npc"]].name, "ai": state.npcs[did["npc"]].ai}
        if did.get("npc") in state.npcs
        else did
        for did in npcs.npc_turn(state)
    ]
    battles: list[dict[str, object]] = []
    for at in clashes.places(state):
        out += clashes.fight_at(state, at)
        battles.append({"at": at})
    state.battles = [str(b["at"]) for b in battles]
    out += clashes.conquests(state)
    out += missions.after_battles(state)
    scouted_all: list[dict[str, object]] = []
    for place in hexes.sorted_places(set(state.scouting)):
        scouted = _scout(state, place)
        if scouted is not None:
            scouted_all.append(scouted)
            by, placed = scouted["by"], scouted["placed"]
            assert by is None or isinstance(by, str)
            assert isinstance(placed, list)
            out += missions.on_scout(state, by, placed, farthest_before)
            out += _scouted_mission(state, scouted)
    state.scouting = []
    out += missions.check_zone(state)
    state.zone_counter -= state.rules.zone_counter.per_turn
    if state.zone_counter == state.rules.zone_counter.until:
        out += missions.check_zone(state)
    zone_changed = state.zone_counter <= 0
    if zone_changed:
        out += _new_zone(state, scouted_all)
    _event_turn(state)
    out += _income(state)
    state.turn = turn
    _end_check(state)
    if not state.ended:
        out += _open_window(state)
    report = ev.TurnResolved(
        tick=state.tick,
        to=everyone(state),
        turn=turn,
        moved=moved,
        returned=returned,
        battles=battles,
        scouted=scouted_all,
        npcs=sorted(set(state.npcs) - npcs_before),
        npc_turn=npc_turn,
        zone=state.zone,
        zone_counter=state.zone_counter,
        zone_changed=zone_changed,
        event=state.event.card if state.event else None,
        missions=[
            {"captain": e.captain, "mission": e.mission}
            for e in out
            if isinstance(e, ev.MissionDone)
        ],
        trust=state.trust,
        deadline=state.deadline,
        ended=state.ended,
    )
    out.insert(0, report)
    if state.ended:
        out.append(_game_over(state))
    return out


def _moves(state: State, turn: int) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Every move order carried out; then, where an owner has more ships than the fleet limit
    at one place (not at a homeworld), the ships that arrived this turn go back."""
    moved: list[dict[str, object]] = []
    arrivals: dict[str, list[int]] = {}
    for ship in sorted(state.ships.values(), key=lambda s: s.id):
        if ship.move is None:
            continue
        src, dst = ship.at, ship.move
        ship.came_from, ship.at, ship.move, ship.arrived = src, dst, None, turn
        moved.append({"ship": ship.id, "owner": ship.owner, "src": src, "dst": dst})
        if state.is_captain(ship.owner):
            arrivals.setdefault(dst, []).append(ship.id)
            if dst not in state.map.tiles and dst not in state.scouting:
                state.scouting.append(dst)
    returned: list[dict[str, object]] = []
    homes = {n.home for n in state.npcs.values() if n.home}
    limit = state.rules.fleet.per_place
    for at in hexes.sorted_places({s.at for s in state.ships.values()}):
        if at in homes:
            continue
        by_owner: dict[str, list[int]] = {}
        for s in state.ships_at(at):
            by_owner.setdefault(s.owner, []).append(s.id)
        for owner, ids in by_owner.items():
            if len(ids) <= limit or (at == EARTH and state.is_captain(owner)):
                continue
            for sid in ids:
                ship = state.ships[sid]
                if ship.arrived == turn and ship.came_from is not None:
                    ship.at, ship.came_from = ship.came_from, ship.at
                    returned.append({"ship": sid, "owner": owner, "src": at, "dst": ship.at})
                    if sid in arrivals.get(at, []):
                        arrivals[at].remove(sid)
    state.scouting = [p for p in state.scouting if any(s.at == p for s in state.ships.values())]
    missions.on_moves(state, {at: ids for at, ids in arrivals.items() if ids})
    return moved, returned


def _scout(state: State, place: str) -> dict[str, object] | None:
    """A card drawn for the event table, and the tile it calls for placed at `place`."""
    if place in state.map.tiles:
        return None
    ships = state.ships_at(place)
    here = [s for s in ships if state.is_captain(s.owner)]
    by = min((s.owner for s in here), key=lambda o: state.captains[o].seat, default=None)
    if by is None:  # an NPC's ship scouts it (the Explorers' points)
        order = list(state.npcs)
        npc_ships = [s.owner for s in ships if s.owner in state.npcs]
        by = min(npc_ships, key=order.index, default=None)
    return scout_with(state, place, _event_number(state), by)


def _event_number(state: State) -> int:
    """A card drawn for the event table: its number (the last row when the deck is out)."""
    card = deck.deal(state.decks.main, 1, state)
    deck.discard(state.decks.main, card)
    return state.cards.card(card[0]).number if card else len(state.rules.events)


def scout_with(state: State, place: str, number: int, by: str | None) -> dict[str, object]:
    """The event table's row `number` at `place` (scouted by a captain, or revealed by a new
    zone when `by` is None)."""
    row = state.rules.event(number)
    in_zone = [n for n in state.enemies() if n.zone == state.zone and not n.conquered]
    if row.enemy_ships and not in_zone:
        row = next(r for r in state.rules.events if r.outcome == "enemy-base")
    result = row.outcome

    def draw(tile_set: str) -> str:
        card = deck.draw_one(state.decks.tiles[tile_set], state)
        if card is None:
            raise starmap.MapError(f"the {tile_set} tiles are all on the map")
        return card

    try:
        scouted = starmap.scout(
            state.map,
            state.map_rules,
            place,
            row.tiles,
            draw,
            state.tile_set,
            zone=state.zone,
            turn=state.turn + 1,
            by=by,
        )
    except starmap.MapError:
        return {"at": place, "result": "none", "by": by, "placed": []}
    if scouted.unplaced is not None:
        deck.discard(state.decks.tiles[row.tiles], [scouted.unplaced])
    placed = scouted.placed
    state.farthest = max(state.farthest, *(hexes.layer(hexes.parse(p)) for p in placed))
    at = scouted.at or place
    done: dict[str, object] = {"at": place, "result": result, "by": by, "placed": placed}
    if scouted.at is None and result != "mission":
        result = done["result"] = "empty"
    if result == "enemy-base":
        npc = npcs.create_enemy(state, at)
        state.map.tiles[at].base = npc.id
        done["npc"] = npc.id
    elif row.enemy_ships:
        near = min(
            in_zone,
            key=lambda n: (
                hexes.distance(hexes.parse(n.home or EARTH), hexes.parse(at)),
                -list(state.npcs).index(n.id),
            ),
        )
        count = row.enemy_ships * state.players()
        npcs.enemy_presence(state, near, at, count)
        done["npc"] = near.id
    return done


def _scouted_mission(state: State, scouted: dict[str, object]) -> list[ev.Event]:
    """The event table's loyalty mission: the captain who scouted it draws mission cards
    (one for every 2 points of Cha), unless a mission or a mission hand is theirs already."""
    by = scouted.get("by")
    if scouted["result"] != "mission" or not isinstance(by, str) or by not in state.captains:
        return []
    c = state.captains[by]
    if c.mission is not None or any(h.kind == "mission" for h in c.hand):
        return []
    count = stats_.mission_choices(hands.stats_of(c), state.rules)
    return hands.deal_hand(state, c, "mission", count)


def _new_zone(state: State, scouted: list[dict[str, object]]) -> list[ev.Event]:
    """The zone counter reached 0: a new zone, its friend, the old enemies upgraded, X x zone
    tiles revealed nearest Earth (the event table), a new zone mission card; the counter
    starts again from its first value."""
    state.zone += 1
    state.zone_counter = state.zone_mark.get("start", state.rules.zone_counter.base)
    npcs.create_friend(state)
    npcs.upgrade_enemies(state)
    revealed: list[str] = []
    for _ in range(state.rules.zone_counter.reveal_per_player * state.players() * state.zone):
        free = starmap.unexplored(state.map)
        if not free:
            break
        done = scout_with(state, free[0], _event_number(state), None)
        revealed.append(free[0])
        scouted.append(done)
    window.set_zone_mission(state, _event_number(state))
    return [
        ev.ZoneChanged(
            tick=state.tick,
            to=everyone(state),
            zone=state.zone,
            zone_counter=state.zone_counter,
            mission=state.zone_mission,
            revealed=revealed,
        )
    ]


def _next_event(state: State) -> None:
    card = deck.draw_one(state.decks.events, state)
    if card is None:
        state.event = None
        return
    found = state.cards.event_card(card)
    state.event = EventInPlay(card=card, turns_left=found.duration(state.zone))
    npcs.event_started(state, card)


def _event_turn(state: State) -> None:
    """The event card in play loses a turn; when it ends, the next is drawn (the event deck
    reshuffled when it runs out)."""
    if state.event is not None:
        state.event.turns_left -= 1
        if state.event.turns_left > 0:
            return
        npcs.event_ended(state, state.event.card)
        deck.discard(state.decks.events, [state.event.card])
    _next_event(state)


def _income(state: State) -> list[ev.Event]:
    """Every mining ship at a system mines up to its mining bots' capacity (the shipyard mines
    Earth), the system giving no more than its minerals of a turn in all; each captain's total
    raised by Eco. No mining where an enemy ship is."""
    left: dict[str, int] = {}
    mined: dict[str, dict[str, int]] = {cid: {} for cid in state.active()}
    enemy_at = {s.at for s in state.ships.values() if state.is_enemy(s.owner)}
    if window.forbidden(state, "no-mining"):
        return []
    veins = 0
    if window.forbidden(state, "rich-veins") and state.event is not None:
        veins = state.cards.event_card(state.event.card).amount

    def take(cid: str, at: str, capacity: int) -> None:
        tile = state.map.tiles.get(at)
        if tile is None or at in enemy_at or capacity <= 0:
            return
        if at not in left:
            left[at] = starmap.tile_minerals(tile, state.map_rules, state.players())
        got = min(capacity, left[at])
        if got <= 0:
            return
        left[at] -= got
        if missions.on_mined(state, at):
            got = 0
        mined[cid][at] = mined[cid].get(at, 0) + got

    for cid in state.active():
        c = state.captains[cid]
        if not c.shipyard.destroyed and state.rules.shipyard.mines_earth:
            take(cid, EARTH, _mining(state, c.techs))
    for ship in sorted(state.ships.values(), key=lambda s: s.id):
        owner = state.captains.get(ship.owner)
        if owner is None or owner.out:
            continue
        bots = ship.parts.count("mining-bots")
        if bots:
            take(owner.id, ship.at, bots * _mining(state, owner.techs))
    out: list[ev.Event] = []
    for cid, where in mined.items():
        c = state.captains[cid]
        earned = stats_.income(sum(where.values()), hands.stats_of(c), state.rules)
        if veins:
            earned += earned * veins // 100
        c.credits += earned
        out.append(
            ev.Income(
                tick=state.tick,
                to=[cid],
                captain=cid,
                mined=where,
                credits=earned,
                total=c.credits,
            )
        )
    return out


def _open_window(state: State) -> list[ev.Event]:
    """The next window: submissions, builds and this turn's design cards cleared; new design
    cards (one for every 2 points of Eng)."""
    state.phase = "orders"
    state.deadline = state.next_deadline()
    out: list[ev.Event] = []
    for cid in state.active():
        c = state.captains[cid]
        c.submitted, c.built = False, False
        out += hands.deal_hand(
            state,
            c,
            "design",
            stats_.design_choices(hands.stats_of(c), state.rules),
            optional=True,
        )
    return out


# --- the end --------------------------------------------------------------------------------------


def _end_check(state: State) -> None:
    """Won: the zone mission of the final zone done, or every enemy found so far conquered;
    lost: every captain's shipyard destroyed (or every captain out)."""
    final = state.rules.final_zone
    enemies = state.enemies()
    if (state.zone >= final and state.zone_mission_done) or (
        enemies and all(n.conquered for n in enemies)
    ):
        state.ended, state.result = True, "won"
    elif not state.active() or all(state.captains[o].shipyard.destroyed for o in state.active()):
        state.ended, state.result = True, "lost"


def standings(state: State) -> list[dict[str, object]]:
    """The captains, best first: missions completed, then trust earned, then ships destroyed."""
    ranked = sorted(
        state.captains.values(),
        key=lambda c: (-c.missions_done, -c.trust_earned, -c.destroyed, c.seat),
    )
    return [
        {
            "captain": c.id,
            "missions": c.missions_done,
            "trust": c.trust_earned,
            "destroyed": c.destroyed,
        }
        for c in ranked
    ]


def _game_over(state: State) -> ev.GameOver:
    return ev.GameOver(
        tick=state.tick,
        to=everyone(state),
        result=state.result or "time",
        standings=standings(state),
    )


def end_game(state: State, reason: str) -> list[ev.Event]:
    """The campaign ends now (its length, a moderator, or every captain out)."""
    state.ended, state.result = True, reason
    return [_game_over(state)]
