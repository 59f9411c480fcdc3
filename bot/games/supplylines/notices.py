"""Supply Lines' events as short English lines for a player's DM, from the player's side ("You
took C4 from Bob", "Bob took C2 from you"). Pure functions but the picture, which is drawn in
the drawing pool.

What each event tells (the board has no fog, but a DM tells the player what concerns them;
the picture after each turn shows the whole board):

game
  Joined, Left, Started, GameOver: told; the start and the end are big (a picture).
  DeadlineNear: told to the players who have not submitted a turn's orders when its deadline
    is near (category "reminders": muted, they are pinged in the game's channel instead); a
    reminder of a turn that resolved since is left out.
  SupplyAsked: told to the player asked (which units, how many lines, the default, the
    deadline; the answer is given with `/orders supply`).
  TurnEnded: the player's units out of supply, immobile or mobile again; concessions, players
    out, the winner; when the next turn's orders are due.
combat
  TurnMoved: big (a picture after every turn): the player's builds and builds skipped, units
    disbanded over the PopCap, the conflicts the player was in (strengths, who won, where the
    player's units were bumped to, units destroyed), the structures the player took or lost;
    other players' captures in one line.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from typing import Any

from bot.dm.delivery import Menu
from bot.dm.text import DISCORD_LIMIT
from bot.turnbased import TurnTeller, current, span
from engine.host.rows import GameRow
from engine.interface.events import Event
from engine.supplylines import events as ev
from engine.supplylines.state import TICKS_PER_HOUR

log = logging.getLogger(__name__)

CATEGORY: dict[type[Event], str] = {
    ev.Joined: "game",
    ev.Left: "game",
    ev.Started: "game",
    ev.GameOver: "game",
    ev.SupplyAsked: "game",
    ev.TurnEnded: "game",
    ev.DeadlineMoved: "game",
    ev.DeadlineNear: "reminders",  # muted: the reminder is a ping in the game's channel instead
    ev.TurnMoved: "combat",
    ev.OrdersCleared: "game",  # told in the reply to the player's command, never by DM
}


class _Names:
    def __init__(self, nation: str, names: dict[str, str]) -> None:
        self.nation = nation
        self.names = names

    def who(self, player: str | None) -> str:
        if player is None:
            return "nobody"
        if player == self.nation:
            return "you"
        if player == "neutral":
            return "the neutrals"
        return self.names.get(player, player)

    def whose(self, player: str | None) -> str:
        return "your" if player == self.nation else f"{self.who(player)}'s"


def _units(items: list[dict[str, Any]]) -> str:
    """ "2 infantry and 1 tank at C2" (grouped by place)."""
    by_place: dict[str, dict[str, int]] = {}
    for u in items:
        by_place.setdefault(u["at"], {})
        by_place[u["at"]][u["type"]] = by_place[u["at"]].get(u["type"], 0) + 1
    parts = []
    for place, types in sorted(by_place.items()):
        what = " and ".join(
            f"{n} {t}{'s' if n > 1 and t != 'infantry' else ''}" for t, n in sorted(types.items())
        )
        parts.append(f"{what} at {place}")
    return ", ".join(parts)


def describe(event: Event, nation: str, names: dict[str, str]) -> list[str]:
    """The lines telling `nation` of one event (none: nothing for it)."""
    if nation not in event.to:
        return []
    n = _Names(nation, names)
    match event:
        case ev.Joined():
            if event.player == nation:
                return [f"You joined in seat {event.seat}: your home city is {event.home}."]
            return [f"{n.who(event.player)} joined (seat {event.seat}, home city {event.home})."]
        case ev.Left():
            return [f"{n.who(event.player)} left the game."]
        case ev.Started():
            if event.deadline is None:
                return [
                    "The game has started: give your orders with `/orders add`; turn 1 "
                    "resolves once everyone has submitted (the game has no turn deadline)."
                ]
            return [
                "The game has started: give your orders with `/orders add`; turn 1 resolves "
                f"in {_span(event.deadline - event.tick)}"
                + (", or once everyone has submitted." if event.early else ".")
            ]
        case ev.SupplyAsked():
            return [_asked(event)]
        case ev.TurnMoved():
            return _moved(event, n)
        case ev.TurnEnded():
            return _ended(event, n)
        case ev.DeadlineNear():
            return [
                f"Reminder: turn {event.turn}'s orders are due in "
                f"{_span(event.deadline - event.tick)} and you have not submitted them: "
                "`/orders submit` when done (orders not given are holds). "
                "`/notify mute:reminders` pings you in the game's channel instead."
            ]
        case ev.DeadlineMoved():
            what = "supply answers" if event.phase == "supply" else f"turn {event.turn}'s orders"
            return [
                f"A moderator gave more time: {what} are due in {_span(event.deadline - event.tick)}."
            ]
        case ev.GameOver():
            if event.winner is None:
                return [f"The game is over ({event.reason}): nobody won."]
            won = "You won" if event.winner == nation else f"{n.who(event.winner)} won"
            return [f"The game is over: {won} ({event.reason})."]
    return []


def _asked(e: ev.SupplyAsked) -> str:
    units = ", ".join(f"{u['type']} {u['id']} at {u['at']} ({u['marks']} marks)" for u in e.units)
    default = ", ".join(str(i) for i in e.default) or "none"
    return (
        f"Supply for turn {e.turn}: your network {', '.join(e.structures)} has {e.lines} "
        f"line{'s' if e.lines != 1 else ''} for {units}. Choose the units to supply with "
        f"`/orders supply` within {_span(e.deadline - e.tick)}; without an answer, units "
        f"{default} are supplied."
    )


def _moved(e: ev.TurnMoved, n: _Names) -> list[str]:
    me = n.nation
    lines = [f"Turn {e.turn}:"]
    mine_built = [u for u in e.built if u["owner"] == me]
    if mine_built:
        lines.append(f"You built {_units(mine_built)}.")
    for s in e.skipped:
        if s["player"] == me:
            lines.append(f"Build not done: `{s['order']}` ({s['why']}).")
    gone = [u for u in e.disbanded if u["owner"] == me]
    if gone:
        lines.append(f"Over your PopCap: {_units(gone)} disbanded.")
    for c in e.conflicts:
        if me not in c["strengths"]:
            continue
        sides = ", ".join(f"{n.who(p)} {s}" for p, s in c["strengths"].items())
        where = f"on the road {c['place']}" if c["round"] == 0 else f"at {c['place']}"
        if c["round"] >= 2:  # units bumped back into another conflict
            where += f" (round {c['round']}: units bumped back made it)"
        if c["winner"] is None:
            outcome = "a tie"
        else:
            outcome = "you won" if c["winner"] == me else f"{n.who(c['winner'])} won"
        owners = c.get("owners", {})  # (not in events stored before it was added)
        back: dict[str, list[str]] = {}
        for uid, to in c["bumped"].items():
            if owners.get(uid) == me:
                back.setdefault(to, []).append(uid)
        told = "".join(
            f" Your units {', '.join(ids)} bumped back to {to}."
            if len(ids) > 1
            else f" Your unit {ids[0]} bumped back to {to}."
            for to, ids in sorted(back.items())
        )
        lines.append(f"Conflict {where} ({sides}): {outcome}.{told}")
    lost = [u for u in e.destroyed if u["owner"] == me]
    if lost:
        lines.append(f"Destroyed: {_units(lost)}.")
    killed = [u for u in e.destroyed if u["owner"] != me]
    for c in e.captured:
        if c["after"] == me:
            before = f" from {n.who(c['before'])}" if c["before"] else ""
            lines.append(f"You took {c['at']}{before}.")
        elif c["before"] == me:
            lines.append(f"{n.who(c['after'])} took {c['at']} from you.")
    others = [c for c in e.captured if me not in (c["after"], c["before"])]
    if others:
        lines.append(
            "Elsewhere: " + ", ".join(f"{n.who(c['after'])} took {c['at']}" for c in others) + "."
        )
    if killed and any(me in c["strengths"] for c in e.conflicts):
        lines.append(f"Enemy losses: {_units(killed)}.")
    return lines if len(lines) > 1 else []


def _ended(e: ev.TurnEnded, n: _Names) -> list[str]:
    me = n.nation
    lines = []

    def own(ids: list[int]) -> list[int]:  # the player's own (an older event: all it names)
        return [i for i in ids if e.owners.get(i, me) == me] if e.owners else ids

    immobilised, restored = own(e.immobilised), own(e.restored)
    if immobilised:
        lines.append(f"Out of supply for 3 turns, now immobile: units {_ids(immobilised)}.")
    if restored:
        lines.append(f"Supplied again, mobile again: units {_ids(restored)}.")
    for p in e.conceded:
        lines.append("You conceded." if p == me else f"{n.who(p)} conceded.")
    for p in e.defeated:
        lines.append("You hold no structure: you are out." if p == me else f"{n.who(p)} is out.")
    gone = e.disbanding.get(me or "", [])
    if gone:
        lines.append(
            f"Over your PopCap: turn {e.turn + 1} begins by disbanding units {_ids(gone)} "
            "(orders for them do nothing)."
        )
    if e.ended or e.winner is not None:
        return lines
    if e.deadline is not None:
        lines.append(f"Orders for turn {e.turn + 1} are due in {_span(e.deadline - e.tick)}.")
    elif e.no_deadline:
        lines.append(
            f"Orders for turn {e.turn + 1}: the turn resolves once everyone has submitted."
        )
    return lines


def _current(events: list[Event]) -> list[Event]:
    """The events but reminders of a turn that has resolved since (its stages 1-4 told)."""
    return current(events, max((e.turn for e in events if isinstance(e, ev.TurnMoved)), default=0))


def _menus_note(events: list[Event], nation: str) -> list[str]:
    """How to answer a supply question of more units than one menu holds."""
    asked = [e for e in events if isinstance(e, ev.SupplyAsked) and e.player == nation]
    if not asked:
        return []
    turn = asked[-1].turn
    units = {u["id"] for e in asked if e.turn == turn for u in e.units}
    shown = sum(len(p) for p in supply_parts(units))
    lines = []
    if len(units) > MENU_OPTIONS:
        lines.append(
            f"Your {len(units)} units are in {-(-shown // MENU_OPTIONS)} menus below, by number. "
            "A choice in one menu is your answer at once, with what you chose in the others "
            "before (the lines left go by the default); to choose across menus in one go, use "
            "`/orders supply` with all the numbers."
        )
    if shown < len(units):
        lines.append(
            f"{len(units) - shown} units (numbers above {max(max(p) for p in supply_parts(units))}) "
            "do not fit in the menus: to supply them, answer with `/orders supply` and the numbers."
        )
    return lines


def _span(ticks: int) -> str:
    """Ticks (a quarter of a game hour each) as a duration: "24 hours", "45 minutes"."""
    return span(ticks, TICKS_PER_HOUR)


def _ids(ids: list[int]) -> str:
    return ", ".join(str(i) for i in ids)


class SupplyLinesTeller(TurnTeller):
    kind = "supply-lines"
    title = "Supply Lines"
    # sent even in quiet hours: the game's start and end, and a question with a short deadline
    urgent = frozenset({"Started", "GameOver", "SupplyAsked"})

    def parse(self, data: dict[str, Any]) -> Event:
        return ev.event_from_dict(data)

    def category(self, event: Event, nation: str | None = None) -> str:
        return CATEGORY[type(event)]

    def is_big(self, event: Event, nation: str) -> bool:
        return nation in event.to and isinstance(event, ev.TurnMoved | ev.Started | ev.GameOver)

    def outdated(self, event: Event, view: Any) -> bool:
        """A reminder held back (quiet hours) is not told once its turn has resolved or the
        player has submitted its orders meanwhile."""
        if not isinstance(event, ev.DeadlineNear):
            return False
        me = view.players.get(view.nation)
        return view.turn != event.turn or view.phase != "orders" or me is None or me.submitted

    def digest(
        self,
        events: list[Event],
        nation: str,
        names: dict[str, str],
        *,
        clock: str | None,
        limit: int = DISCORD_LIMIT,
        answered: Collection[int] = (),
    ) -> list[str]:
        events = _current(events)
        lines = [line for e in events for line in describe(e, nation, names)]
        if not lines:
            return []
        lines.extend(_menus_note(events, nation))
        return self.packed(lines, clock, limit)

    async def picture(
        self, view: Any, title: str, events: list[Event], *, colours: str = "nation"
    ) -> bytes | None:  # (the board draws each player in their colour: `colours` is not its)
        """The whole board (the game has no fog) with the last turn's moves, conflicts,
        bump-backs and captures, drawn in the drawing pool."""
        from renderers.supplylines import draw_board_in_pool

        moved = [e for e in events if isinstance(e, ev.TurnMoved)]
        try:
            return await draw_board_in_pool(
                view, title=title, turn_report=moved[-1] if moved else None
            )
        except Exception:
            log.exception("drawing the board for %s failed", view.nation)
            return None

    async def welcome(
        self, service: Any, game: Any, summary: Any, nation: str, joined: Event
    ) -> str:
        raise AssertionError("a Supply Lines player's joining is told in the digest")

    def sitrep(self, game_name: str, view: Any) -> str:
        raise AssertionError("Supply Lines has no daily situation report")

    def menus(
        self, events: list[Event], nation: str, game_id: int, *, game: GameRow | None = None
    ) -> list[Menu]:
        """A supply question's select menus: every unit asked about (of all the player's
        networks short of lines this turn), by number, 25 a menu (Discord's most options) in
        up to 5 menus (its most rows), the defaults chosen; choosing answers it. With several
        menus each one's custom id names its part (`supply_parts`): the desk adds what the
        player chose in the others (`merged_supply`)."""
        asked = [e for e in events if isinstance(e, ev.SupplyAsked) and e.player == nation]
        if not asked:
            return []
        turn = asked[-1].turn
        units = {u["id"]: (e, u) for e in asked if e.turn == turn for u in e.units}
        parts = supply_parts(units)
        menus = []
        for number, part in enumerate(parts):
            options = []
            for i in part:
                e, u = units[i]
                label = (
                    f"{u['type']} {u['id']} at {u['at']} ({u['marks']} marks, needs {u['need']})"
                )
                options.append((label, str(i), i in e.default))
            placeholder = "The units to supply"
            if len(parts) > 1:
                placeholder = (
                    f"Units to supply: {part[0]}-{part[-1]} (menu {number + 1} of {len(parts)})"
                )
            menus.append(
                Menu(
                    custom_id=supply_menu_id(game_id, turn, number if len(parts) > 1 else None),
                    placeholder=placeholder,
                    options=tuple(options),
                    min_values=0,
                    max_values=len(options),
                )
            )
        return menus


MENU_OPTIONS = 25  # Discord: the options of one select menu
MENU_ROWS = 5  # Discord: the action rows of a message (a select menu fills one)


def supply_parts(unit_ids: Iterable[int]) -> list[list[int]]:
    """The units of a supply question as its menus show them: by number, 25 a menu, at most 5
    menus (the rest are answered with `/orders supply`). The desk splits them the same way
    to read an answer of one menu."""
    ids = sorted(set(unit_ids))[: MENU_OPTIONS * MENU_ROWS]
    return [ids[i : i + MENU_OPTIONS] for i in range(0, len(ids), MENU_OPTIONS)]


def merged_supply(
    parts: list[list[int]], part: int, chosen: Iterable[int], earlier: dict[int, list[int]]
) -> list[int]:
    """The whole answer when the player chose `chosen` in menu `part`: those (of that menu's
    units), and what they chose before in each other menu (`earlier`, by menu); the lines
    left go to the other units in the default's order (the engine's rule)."""
    mine = set(parts[part]) if 0 <= part < len(parts) else set()
    answer = {i for i in chosen if i in mine}
    for other, units in earlier.items():
        if other != part and 0 <= other < len(parts):
            answer |= set(units) & set(parts[other])
    return sorted(answer)


def supply_menu_id(game_id: int, turn: int, part: int | None = None) -> str:
    """The custom id of a supply question's menu (bot/discord_io.py answers it); `part`: which
    of several menus."""
    return f"sl:supply:{game_id}:{turn}" + ("" if part is None else f":{part}")


TELLER = SupplyLinesTeller()
