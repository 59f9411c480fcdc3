"""The game around the turns: the lobby, each player's orders for the turn (kept secret until it
resolves), the deadlines, and the supply questions between stages 4 and 5.

Time is the host's clock, in ticks (a quarter of a game hour, 4 a game hour, as in Strategic
Initiative; at real time a game hour is an hour). A turn resolves at its deadline
(`turn_ticks` after the last one) or, with `early`, as soon as every player still in the game
has submitted. If stages 1-4 leave supply questions, the players asked have `choice_ticks` to
answer (or until all have); then stages 5-8 run with the answers, and the defaults for the rest.
Orders not given are holds. Everything here is a pure function of the state and the entry."""

from __future__ import annotations

from typing import Any

from engine.errors import CommandError, GameError
from engine.interface.turnbased import deadlines, door, lobby
from engine.interface.turnbased.deadlines import reminder, resolves_early
from engine.supplylines import adjudicator, supply
from engine.supplylines import events as ev
from engine.supplylines.adjudicator import TurnReport
from engine.supplylines.orders import OrderList, Orders, parse
from engine.supplylines.state import TICKS_PER_HOUR, State, Unit


def everyone(state: State) -> list[str]:
    return sorted(state.players)


def _unit(u: Unit) -> dict[str, Any]:
    return {"id": u.id, "type": u.type, "owner": u.owner, "at": u.at}


# --- orders ----------------------------------------------------------------------------------------


def _playing(state: State, player: str) -> None:
    door.playing(state, state.players, player)


def add_order(state: State, player: str, text: str) -> list[ev.Event]:
    """One order for this turn (its text as the player wrote it), checked against the board
    and the player's orders so far. Giving an order takes back a submission."""
    _playing(state, player)
    if state.phase != "orders":
        raise CommandError("the turn is resolving: answer the supply question first")
    listed = OrderList.given(state, player)  # checked in time that does not grow with them
    listed.add(parse(text, state))
    state.orders[player] = listed.orders
    if player in state.submitted:
        state.submitted.remove(player)
    return []


def clear_orders(state: State, player: str, number: int | None = None) -> list[ev.Event]:
    """Take back the player's orders for this turn (all, or the `number`th given); takes back
    a submission too. The event says which orders were taken back (told to the player only)."""
    _playing(state, player)
    if state.phase != "orders":
        raise CommandError("the turn is resolving: its orders can no longer change")
    given = state.orders.get(player, [])
    if number is None:
        taken = list(given)
        state.orders.pop(player, None)
    else:
        if not 1 <= number <= len(given):
            raise CommandError(
                f"you have no order {number} (you have {len(given)} this turn)"
                if given
                else "you have no orders this turn"
            )
        # the others stand as they were checked: taking one back only frees units and PopCap
        # (and a later order that needed it gone could not have been given)
        taken = [given[number - 1]]
        state.orders[player] = Orders(o for i, o in enumerate(given, 1) if i != number)
    if player in state.submitted:
        state.submitted.remove(player)
    return [
        ev.OrdersCleared(
            tick=state.tick,
            to=[player],
            player=player,
            turn=state.turn + 1,
            number=number,
            orders=[o.text() for o in taken],
            left=len(state.orders.get(player, [])),
        )
    ]


def submit(state: State, player: str) -> list[ev.Event]:
    """The player is done with this turn's orders; with `early`, the last one to submit
    resolves the turn at once."""
    _playing(state, player)
    if state.phase != "orders":
        raise CommandError("the turn is resolving: answer the supply question if you have one")
    if player not in state.submitted:
        state.submitted.append(player)
    if resolves_early(state.early, state.active(), lambda p: p in state.submitted):
        return resolve_orders_phase(state)
    return []


def answer_supply(state: State, player: str, units: list[int]) -> list[ev.Event]:
    """A player's choice of the units to supply (for every network they were asked about)."""
    _playing(state, player)
    if state.phase != "supply" or player not in state.asked:
        raise CommandError("you have no supply question to answer now")
    mine = {i for q in supply.questions(state) if q.player == player for i in q.network.units}
    stray = sorted(set(units) - mine)
    if stray:
        raise CommandError(f"units {', '.join(map(str, stray))} are not among those asked about")
    for q in supply.questions(state):
        if q.player == player:
            try:
                supply.check_choice(state, q.network, [i for i in units if i in q.network.units])
            except ValueError as exc:
                raise CommandError(str(exc)) from None
    state.answers[player] = sorted(set(units))
    if all(p in state.answers for p in state.asked):
        return finish_turn(state)
    return []


# --- time ------------------------------------------------------------------------------------------


def advance(state: State, ticks: int) -> list[ev.Event]:
    """Time moves on: each phase whose deadline comes resolves, and the game ends at its
    length (standings decide)."""
    out: list[ev.Event] = []
    for _ in range(ticks):
        if _over(state):
            break
        state.tick += 1
        out += _remind(state)
        if state.deadline is not None and state.tick >= state.deadline:
            out += _resolve_phase(state)
        if not _over(state) and state.tick >= state.end_tick:
            out += end_game(state, "time")
    return out


def reminder_ticks(state: State) -> int:
    """How long before a turn's deadline the players who have not submitted are reminded
    (the rules' `reminders`: an hour, or a part of a short turn); 0: never (a one-tick turn)."""
    rules = state.rules.reminders
    return min(
        round(rules.hours_before * TICKS_PER_HOUR), int(state.turn_ticks * rules.short_turn_part)
    )


def _remind(state: State) -> list[ev.Event]:
    """The reminder of this turn's orders' deadline (none for a supply question's), to the
    players who have not submitted."""
    if state.phase != "orders":
        return []
    return reminder(
        state,
        reminder_ticks(state),
        lambda: [p for p in state.active() if p not in state.submitted],
    )


def set_deadline(state: State, *, now: bool, extend: int) -> list[ev.Event]:
    """A moderator resolves the current phase now, or moves its deadline `extend` ticks later."""
    return deadlines.set_deadline(
        state,
        now=now,
        extend=extend,
        resolve=lambda: _resolve_phase(state),
        everyone=everyone(state),
    )


def _resolve_phase(state: State) -> list[ev.Event]:
    """The current phase resolves: the orders (stages 1-4), or the supply answers (5-8)."""
    return resolve_orders_phase(state) if state.phase == "orders" else finish_turn(state)


def _over(state: State) -> bool:
    return state.ended


def resolve_orders_phase(state: State) -> list[ev.Event]:
    """Stages 1-4 with the orders given (the rest hold), then the supply questions or, with
    none, stages 5-8 at once."""
    report = adjudicator.resolve_orders(state, state.orders)
    out: list[ev.Event] = [_moved(state, report)]
    questions = supply.questions(state, skip=conceding(state))
    if not questions:
        return out + finish_turn(state)
    state.phase = "supply"
    state.deadline = state.tick + state.choice_ticks
    state.asked = sorted({q.player for q in questions})
    state.answers = {}
    rules = state.rules
    for q in questions:
        out.append(
            ev.SupplyAsked(
                tick=state.tick,
                to=[q.player],
                player=q.player,
                turn=state.turn + 1,
                structures=list(q.network.structures),
                lines=q.network.lines,
                units=[
                    {
                        **_unit(state.units[i]),
                        "marks": state.units[i].marks,
                        "need": rules.units[state.units[i].type].supply,
                    }
                    for i in q.network.units
                ],
                default=list(q.default),
                deadline=state.deadline,
            )
        )
    return out


def would_ask(state: State) -> set[str]:
    """The players the board gives a supply question now, a player conceding this turn too
    (who is asked nothing): what everyone may know of who is asked."""
    return {q.player for q in supply.questions(state)}


def conceding(state: State) -> set[str]:
    """The players whose orders this turn concede (at stage 8: they are asked nothing)."""
    return {p for p, orders in state.orders.items() if any(o.kind == "concede" for o in orders)}


def finish_turn(state: State) -> list[ev.Event]:
    """Stages 5-8, then the next turn (or the end)."""
    report = TurnReport(turn=state.turn + 1)
    adjudicator.finish_turn(state, report, state.orders, state.answers)
    state.orders, state.submitted, state.answers, state.asked = {}, [], {}, []
    state.phase = "orders"
    state.deadline = state.next_deadline()
    out: list[ev.Event] = [
        ev.TurnEnded(
            tick=state.tick,
            to=everyone(state),
            turn=report.turn,
            unsupplied=report.unsupplied,
            marks=report.marked,
            immobilised=report.immobilised,
            restored=report.restored,
            conceded=report.conceded,
            defeated=report.defeated,
            winner=report.winner,
            deadline=None if state.ended else state.deadline,
            ended=state.ended,
            no_deadline=not state.ended and state.deadline is None,
            disbanding={}
            if state.ended
            else {p: gone for p in state.active() if (gone := adjudicator.disbanding(state, p))},
            owners={
                i: state.units[i].owner
                for i in sorted({*report.unsupplied, *report.immobilised, *report.restored})
                if i in state.units
            },
        )
    ]
    if state.ended:
        reason = "everyone out"
        if report.winner is not None:
            needed = [s for s, k in _kinds(state).items() if state.rules.structures[k].victory]
            won = all(state.owners[s] == report.winner for s in needed)
            reason = "victory" if won else "last standing"
        out.append(_game_over(state, reason))
    return out


def end_game(state: State, reason: str) -> list[ev.Event]:
    """The game ends now (its length reached, or a moderator): the player holding the most
    cities and home cities wins, if one holds more than every other."""
    rules = state.rules
    held = {
        p: sum(1 for s in state.structures_of(p) if rules.structures[state.kind(s)].victory)
        for p in state.active()
    }
    best = max(held.values(), default=0)
    leaders = [p for p, n in held.items() if n == best]
    state.winner = leaders[0] if len(leaders) == 1 and best > 0 else None
    state.ended = True
    return [_game_over(state, reason)]


def _kinds(state: State) -> dict[str, str]:
    return {s: state.kind(s) for s in state.owners}


def _game_over(state: State, reason: str) -> ev.GameOver:
    return ev.GameOver(
        tick=state.tick,
        to=everyone(state),
        winner=state.winner,
        structures={p: len(state.structures_of(p)) for p in sorted(state.players)},
        reason=reason,
    )


def _moved(state: State, report: TurnReport) -> ev.TurnMoved:
    owner_of = {u.id: u.owner for u in report.disbanded + report.destroyed}
    owner_of.update({u.id: u.owner for u in state.units.values()})
    type_of = {u.id: u.type for u in report.disbanded + report.destroyed}
    type_of.update({u.id: u.type for u in state.units.values()})
    return ev.TurnMoved(
        tick=state.tick,
        to=everyone(state),
        turn=report.turn,
        disbanded=[_unit(u) for u in report.disbanded],
        built=[_unit(u) for u in report.built],
        skipped=[{"player": p, "order": o.text(), "why": why} for p, o, why in report.skipped],
        moved=[
            {"id": i, "owner": owner_of.get(i), "type": type_of.get(i), "src": a, "dst": b}
            for i, a, b in report.moved
        ],
        conflicts=[
            {
                "place": c.place,
                "round": c.round,
                "strengths": c.strengths,
                "winner": c.winner,
                "stayed": c.stayed,
                "bumped": {str(k): v for k, v in c.bumped.items()},
                "destroyed": c.destroyed,
                # whose each unit of the conflict is (the stayed, bumped and destroyed)
                "owners": {
                    str(i): owner_of.get(i) for i in sorted({*c.stayed, *c.bumped, *c.destroyed})
                },
            }
            for c in report.conflicts
        ],
        captured=[{"at": at, "before": a, "after": b} for at, a, b in report.captured],
        destroyed=[_unit(u) for u in report.destroyed],
    )


# --- the lobby -----------------------------------------------------------------------------------


def join(state: State, nation: str, name: str, colour: str, user: str | None) -> list[ev.Event]:
    from engine.supplylines.state import Player

    seat = lobby.free_seat(state.started, state.players, nation, state.board.seats, "player")
    state.players[nation] = Player(id=nation, name=name, seat=seat, colour=colour, user=user)
    home = state.board.home_of(seat)
    return [
        ev.Joined(
            tick=state.tick, to=everyone(state), player=nation, name=name, seat=seat, home=home
        )
    ]


def leave(state: State, nation: str) -> list[ev.Event]:
    lobby.leave(state.started, state.players, nation, "player")
    return [ev.Left(tick=state.tick, to=everyone(state) + [nation], player=nation)]


def start(state: State) -> list[ev.Event]:
    """The players' home cities are theirs, with the rules' starting units; empty seats'
    home cities stay neutral and empty."""
    if state.started:
        raise GameError("the game has already started")
    if len(state.players) < 2:
        raise GameError("a game needs two players to start")
    rules = state.rules
    for p in sorted(state.players.values(), key=lambda p: p.seat):
        home = state.board.home_of(p.seat)
        state.owners[home] = p.id
        for type_ in rules.start_units:
            state.add_unit(type_, p.id, home)
    state.started = True
    state.deadline = state.next_deadline()
    return [
        ev.Started(
            tick=state.tick,
            to=everyone(state),
            players=state.active(),
            deadline=state.deadline,
            early=state.early,
        )
    ]


def resign(state: State, nation: str) -> list[ev.Event]:
    """A player gives up the game: as a concession, at once (everything of theirs neutral)."""
    if state.ended:  # an ended game's result is final
        raise GameError("the game is over")
    if nation not in state.players or state.players[nation].out:
        raise GameError(f"{nation!r} is not in the game")
    adjudicator.concede(state, nation)
    out: list[ev.Event] = [
        ev.TurnEnded(
            tick=state.tick, to=everyone(state), turn=state.turn, conceded=[nation], deadline=None
        )
    ]
    state.orders.pop(nation, None)
    if nation in state.submitted:
        state.submitted.remove(nation)
    state.answers.pop(nation, None)
    if nation in state.asked:
        state.asked.remove(nation)
    left = state.active()
    if len(left) == 1 and state.started:
        state.winner, state.ended = left[0], True
        out.append(_game_over(state, "last standing"))
    elif (
        state.started
        and state.phase == "orders"
        and resolves_early(state.early, left, lambda p: p in state.submitted)
    ):
        out += resolve_orders_phase(state)
    elif state.phase == "supply" and all(p in state.answers for p in state.asked):
        out += finish_turn(state)  # the others asked have answered: no need to wait
    return out


def substitute(state: State, nation: str, user: str | None) -> list[ev.Event]:
    lobby.substitute(state.ended, state.players, nation, user, "player")
    return []
