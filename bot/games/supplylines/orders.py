"""/orders: a Supply Lines player's orders for the turn (add, list, clear, submit), the answer
to a supply question, and the board as text. The orders are written as the seed writes them
("C2 > C3"); the engine checks them (`engine.supplylines.orders`) and its refusals are the
replies. Orders stay secret until the turn resolves."""

from __future__ import annotations

import re
from collections import OrderedDict

from bot.actions import Actions
from bot.context import GAME_OVER, Caller, Context, Reply, Seat, UserError
from bot.games.supplylines import NAME as KIND
from bot.moderation import announce
from bot.paging import Listing
from bot.turnbased import set_deadline
from engine.errors import CommandError, GameError
from engine.host.realtime import RealClock
from engine.supplylines.commands import MOST_ORDERS
from engine.supplylines.events import OrdersCleared
from engine.supplylines.kind import (
    ChooseSupply,
    ClearOrders,
    GiveOrder,
    SubmitOrders,
)
from engine.supplylines.state import TICKS_PER_HOUR
from engine.supplylines.view import View

# a supply question of several menus: each player's choice in each menu (by game, turn, nation),
# so a choice in one menu keeps those of the others (`supply_part_chosen`); the latest few
_SUPPLY_PARTS: OrderedDict[tuple[int, int, str], dict[int, list[int]]] = OrderedDict()
LIMIT = 25  # Discord's autocomplete limit
BEFORE = 240  # room on every page of the orders for the line before it ("Order kept: `...`.")
MOST_SUPPLIED = 200  # units one supply answer may name (`ChooseSupply`'s own limit)


class Orders:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx
        actions.pages("orders", self.orders_list)
        actions.pages("board", self.orders_board_page)

    async def _seat(self, caller: Caller, game_id: int | None = None) -> tuple[Seat, str]:
        seat, nation = await self.ctx.playing(caller, game_id, kind=KIND)
        if seat.game.status not in ("running", "paused", "ended"):  # (ended: read it still)
            raise UserError(f"{seat.game.name} has not started yet: orders come once it has.")
        return seat, nation

    async def _command(self, caller: Caller, command) -> tuple[Seat, str, list]:
        seat, nation = await self._seat(caller)
        if seat.game.status == "ended":
            raise UserError(GAME_OVER.format(game=seat.game.id))
        try:
            result = await self.ctx.service.submit(seat.game.id, nation, command)
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        return seat, nation, result.events

    async def _board(self, seat: Seat, nation: str) -> View:
        view: View = await self.ctx.service.view(seat.game.id, nation)
        return view

    async def orders_add(self, caller: Caller, text: str) -> Reply:
        from bot.parsing import readable

        order = text.strip()[:200]
        if not order or not readable(order):
            raise UserError(
                f"{order!r} is not an order: write one as the rules do, like `C2 > C3` (or "
                "`A C2 - C3`), `Build 1 Tank@M1`, `Hold@R2` or `Concede`."
            )
        seat, nation, _ = await self._command(caller, GiveOrder(text=order))
        view = await self._board(seat, nation)
        listed = view.orders.get(nation, [])
        if not listed:
            return Reply(text="Order kept.")
        return _listing(seat, view, nation).reply(before=f"Order kept: `{listed[-1]}`.")

    async def orders_list(
        self, caller: Caller, *, page: int = 1, game_id: int | None = None
    ) -> Reply:
        """The caller's orders for the turn, a page at a time (`game_id`: a page button's)."""
        seat, nation = await self._seat(caller, game_id)
        return _listing(seat, await self._board(seat, nation), nation).reply(page)

    async def orders_clear(self, caller: Caller, number: int | None = None) -> Reply:
        """All of this turn's orders back, or the one of this number (`/orders list`'s). The
        reply names what the engine took back (its event), whatever else the player did
        meanwhile."""
        if number is not None and not 1 <= number <= MOST_ORDERS:
            raise UserError(
                f"An order's number is the one `/orders list` shows: 1 to {MOST_ORDERS} at most."
            )
        seat, nation, events = await self._command(caller, ClearOrders(number=number))
        cleared = next((e for e in events if isinstance(e, OrdersCleared)), None)
        if number is None:
            return Reply(text="Your orders for this turn are cleared: every unit holds.")
        view = await self._board(seat, nation)
        taken = f": `{cleared.orders[0]}`" if cleared is not None and cleared.orders else ""
        return _listing(seat, view, nation).reply(before=f"Order taken back{taken}.")

    async def orders_submit(self, caller: Caller) -> Reply:
        seat, nation, events = await self._command(caller, SubmitOrders())
        view = await self._board(seat, nation)
        moved = next((e for e in events if e.kind == "TurnMoved"), None)
        if moved is not None:  # the last one in: the turn resolved (its moves, at least)
            turn = getattr(moved, "turn", view.turn)
            text = (
                f"Submitted: turn {turn}'s moves have resolved; it ends once the supply "
                "questions are answered. Your report comes by DM."
                if view.phase == "supply" and view.turn == turn
                else f"Submitted: turn {turn} has resolved. Your report comes by DM."
            )
            return Reply(text=text, refresh_game=seat.game.id)
        waiting = [p.name for p in view.players.values() if not p.out and not p.submitted]
        return Reply(
            text="Submitted. "
            + (f"Waiting for {', '.join(waiting)}." if waiting else "")
            + f" The turn resolves {_due(view)}. Adding or clearing orders takes it back.",
            refresh_game=seat.game.id,  # the status board counts who has submitted
        )

    async def orders_supply(self, caller: Caller, units: str) -> Reply:
        numbers = re.findall(r"\d+", units)
        odd = next((x for x in numbers if len(x) > 9), None)
        if odd is not None:
            raise UserError(f"{odd[:12]}... is not a unit's number: name yours, e.g. `2, 5`.")
        ids = list(dict.fromkeys(int(x) for x in numbers))  # each once
        if not ids:
            raise UserError("Name the units to supply by their numbers, e.g. `2, 5`.")
        if len(ids) > MOST_SUPPLIED:
            raise UserError(f"Name at most {MOST_SUPPLIED} units to supply (you named {len(ids)}).")
        await self._command(caller, ChooseSupply(units=ids))
        return Reply(text=f"Supply goes to units {', '.join(map(str, sorted(set(ids))))}.")

    async def orders_supply_chosen(
        self, caller: Caller, game_id: int, turn: int, units: list[int], *, part: int | None = None
    ) -> Reply:
        """The player chose in a supply question's menu (a DM: the game is the menu's); `part`:
        in which of several menus (the answer adds what they chose in the others)."""
        odd = not 0 <= turn < 10**6 or any(not 0 < u < 10**9 for u in units)
        if odd or len(units) > MOST_SUPPLIED:
            raise UserError("That menu is not a supply question's: use `/orders supply`.")
        seat, nation = await self.ctx.playing(caller, game_id, kind=KIND)
        view = await self._board(seat, nation)
        if view.turn != turn or view.phase != "supply" or not view.questions:
            raise UserError(
                f"The supply question of turn {turn} is over: an answer or the default was taken."
            )
        if part is not None:
            units = supply_part_chosen(game_id, turn, nation, view, part, units)
        try:
            await self.ctx.service.submit(game_id, nation, ChooseSupply(units=units))
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        chosen = ", ".join(map(str, sorted(set(units)))) or "none"
        return Reply(text=f"Supply for turn {turn} goes to units {chosen} (and any line left).")

    async def orders_board(self, caller: Caller) -> Reply:
        """The board as text and as a picture (with the caller's orders as arrows)."""
        from renderers.supplylines import draw_board_in_pool

        seat, nation = await self._seat(caller)
        view = await self._board(seat, nation)
        png = await draw_board_in_pool(view, title=seat.game.name)
        reply = board_listing(seat, view, nation).reply()
        reply.files = [("board.png", png)]
        return reply

    async def orders_board_page(
        self, caller: Caller, *, page: int = 1, game_id: int | None = None
    ) -> Reply:
        """Another page of the board's text (its buttons): the picture stays as it was."""
        seat, nation = await self._seat(caller, game_id)
        return board_listing(seat, await self._board(seat, nation), nation).reply(page)

    async def choose_orders(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """Autocomplete: the orders the caller could give now, those matching what is typed."""
        try:
            seat, nation = await self._seat(caller)
        except UserError:
            return []
        view = await self._board(seat, nation)
        typed = current.strip().lower()
        out = [(o, o) for o in suggestions(view, nation) if typed in o.lower()]
        if current.strip() and all(current.strip() != o for o, _ in out):
            out.insert(0, (current.strip()[:100], current.strip()[:100]))
        return out[:LIMIT]

    async def mod_deadline(self, caller: Caller, now: bool = False, hours: float = 0.0) -> Reply:
        """`/mod deadline`: resolve the turn (or the supply question) now, or give more time."""
        game = await set_deadline(
            self.ctx, caller, KIND, now, hours, TICKS_PER_HOUR, refused=lambda why: why
        )
        if now:
            return announce(game, f"A moderator resolved the current phase of {game.name} now.")
        after = await self.ctx.service.summary(game.id)
        due = ""
        if after.turn is not None and after.turn.deadline_tick is not None:
            row = await self.ctx.service.game(game.id)
            at = RealClock.of_row(row, after.ticks_per_hour).real_time_of(after.turn.deadline_tick)
            due = f": the deadline is now {after.clock(after.turn.deadline_tick)}" + (
                f" (<t:{int(at)}:R>)" if at is not None else ""
            )
        return announce(game, f"A moderator gave {game.name} {hours:g} more hours{due}.")


def supply_part_chosen(
    game_id: int, turn: int, nation: str, view: View, part: int, units: list[int]
) -> list[int]:
    """The whole answer of a choice in menu `part` of a supply question of several menus:
    the units chosen there, and those chosen before in the others (kept in memory: after a
    restart a menu keeps only its own choice)."""
    from bot.games.supplylines.notices import merged_supply, supply_parts

    parts = supply_parts(i for ids, _, _ in view.questions for i in ids)
    if not 0 <= part < len(parts):
        raise UserError("That menu is not one of this supply question's: use `/orders supply`.")
    key = (game_id, turn, nation)
    earlier = _SUPPLY_PARTS.pop(key, {})
    earlier[part] = [i for i in units if i in set(parts[part])]
    _SUPPLY_PARTS[key] = earlier
    while len(_SUPPLY_PARTS) > 1000:
        _SUPPLY_PARTS.popitem(last=False)
    return merged_supply(parts, part, units, earlier)


def suggestions(view: View, nation: str) -> list[str]:
    """Moves of every unit group to each neighbour, builds at the player's bases, holds."""
    from engine.supplylines.rules import load

    rules = load(view.ruleset)
    out: list[str] = []
    mine: dict[str, int] = {}
    for u in view.units:
        if u.owner == nation and u.marks < rules.marks.immobile_at:
            mine[u.at] = mine.get(u.at, 0) + 1
    for place in sorted(mine):
        for n in view.board.neighbours(place):
            out.append(f"{place} > {n}")
    for place, owner in sorted(view.owners.items()):
        if owner == nation and rules.structures[view.board.kind_of(place, rules)].builds:
            out += [f"Build 1 {t.title()}@{place}" for t in rules.units]
    out += [f"Hold@{place}" for place in sorted(mine)]
    out.append("Concede")
    return out


def _listing(seat: Seat, view: View, nation: str) -> Listing:
    """The caller's orders, numbered, then their PopCap, submission and the deadline."""
    orders = view.orders.get(nation, [])
    head = f"**Your orders for turn {view.turn}** (every other unit holds):"
    items = [f"{i}. `{o}`" for i, o in enumerate(orders, 1)] or ["none yet"]
    lines = []
    me = view.players.get(nation)
    if me is not None:
        ordered = _popcap_ordered(view, nation)
        lines.append(
            f"PopCap {me.popcap_used}/{me.popcap}"
            + (f", and {ordered} more in the builds ordered" if ordered else "")
            + ". "
            + ("Submitted." if me.submitted else "Not submitted: `/orders submit` when done.")
        )
        lines += _disbanding(view, nation)
    lines.append(f"The turn resolves {_due(view)}.")
    return Listing(
        head,
        items,
        "order",
        f"orders:{seat.game.id}",
        tail="\n".join(lines),
        reserve=BEFORE,
    )


def _popcap_ordered(view: View, nation: str) -> int:
    """The PopCap the player's build orders of this turn will use (the order check counts
    them: a build beyond the PopCap left after them is refused). Orders are written back as
    `Build 2 Infantry@M1`."""
    from engine.supplylines.rules import load

    rules = load(view.ruleset)
    total = 0
    for text in view.orders.get(nation, []):
        found = re.match(r"^Build (\d+) (\w+)@", text)
        type_ = rules.unit_named(found.group(2)) if found else None
        if found and type_ is not None:
            total += int(found.group(1)) * rules.units[type_].popcap
    return total


def _disbanding(view: View, nation: str) -> list[str]:
    """A player over their PopCap: which units the turn's first stage disbands."""
    me = view.players.get(nation)
    if me is None or not me.disbanding:
        return []
    by_id = {u.id: u for u in view.units}
    units = ", ".join(f"{by_id[i].type} {i} at {by_id[i].at}" for i in me.disbanding if i in by_id)
    return [
        f"Over your PopCap: the turn begins by disbanding {units} (the most marked first, "
        "then the farthest from your supply, the weakest, the newest); orders for them do "
        "nothing."
    ]


def _due(view: View) -> str:
    if view.deadline is None:
        return "once everyone has submitted (the game has no turn deadline)"
    ticks = max(view.deadline - view.tick, 0)
    minutes = ticks * 60 // TICKS_PER_HOUR
    if minutes % 60:
        return f"in {minutes} minutes at the latest"
    return f"in {minutes // 60} hours at the latest"


def board_listing(seat: Seat, view: View, nation: str) -> Listing:
    """The board as text: each structure, its owner and the units in it, a page at a time (a
    large map's is longer than a message), then the units the turn begins by disbanding."""
    head, *structures = _board_lines(view, nation)
    tail = "\n".join(_disbanding(view, nation))
    return Listing(head, structures, "structure", f"board:{seat.game.id}", tail=tail)


def _board_lines(view: View, nation: str) -> list[str]:
    """The board's heading, then a line for each structure: who holds it, the units there by
    owner and type with their ids (supply questions and `/orders supply` name units by id) and
    marks ("4 (2 marks)"; immobile ones said so), and its roads."""
    from engine.supplylines.rules import load

    immobile_at = load(view.ruleset).marks.immobile_at
    names = {p.id: p.name for p in view.players.values()}
    lines = [
        f"**Turn {view.turn}**, {view.phase} phase. Units by their ids; a mark is a turn out "
        f"of supply ({immobile_at}: immobile)."
    ]
    for place in view.board.labels():
        owner = view.owners.get(place)
        who = "you" if owner == nation else names.get(owner or "", "neutral")
        here: dict[tuple[str, str], list[str]] = {}
        for u in sorted(view.units, key=lambda u: u.id):
            if u.at == place:
                # the holder's own units need no name (it is the line's); others' are named
                whose = (
                    "your"
                    if u.owner == nation
                    else ""
                    if u.owner == owner
                    else f"{names.get(u.owner, u.owner)}'s"
                )
                marks = ""
                if u.marks >= immobile_at:
                    marks = f" ({u.marks} marks, immobile)"
                elif u.marks:
                    marks = f" ({u.marks} mark{'s' if u.marks > 1 else ''})"
                here.setdefault((whose, u.type), []).append(f"{u.id}{marks}")
        units = "; ".join(
            f"{whose} {type_} {', '.join(ids)}".strip() for (whose, type_), ids in here.items()
        )
        roads = ", ".join(view.board.neighbours(place))
        lines.append(f"`{place}` {who}" + (f": {units}" if units else "") + f" (to {roads})")
    return lines
