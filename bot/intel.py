"""What a player may look at: the map, their status, units, cities and the nations; all of it
from their nation's view, never from the world."""

from __future__ import annotations

import math

from bot import parsing
from bot.context import Caller, Context, Reply, UserError
from bot.store import BotStore
from engine.host.realtime import RealClock
from engine.host.store import GameRow
from engine.interface.summary import GameSummary
from engine.strategic.rules import load as load_rules
from engine.strategic.view import View
from renderers import pool as drawing

PAGE = 15


def _picture(view: View, title: str, at: int | None, radius: int, full: bool = False) -> bytes:
    """The map as PNG bytes: the window round `at`, else the whole board when `full`, else
    the part that matters to the nation (`render_focus`); runs in a drawing worker."""
    if at is not None:
        return drawing.draw_crop_bytes(view, at, radius, {"title": title})
    if full:
        return drawing.draw_map_bytes(view, {"title": title})
    return drawing.draw_focus_bytes(view, {"title": title})


class Intel:
    ctx: Context

    async def map(
        self, caller: Caller, at: str | None = None, radius: int = 6, full: bool = False
    ) -> Reply:
        seat, nation = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, nation)
        centre = None
        if at:
            x, y = parsing.square(at, view.width, view.height)
            centre = y * view.width + x
        if not 1 <= radius <= 20:
            raise UserError("The radius of a zoomed map is 1 to 20 squares.")
        title = f"{seat.game.name} (game {seat.game.id})"
        # the view is a copy: it is drawn in a worker process while the bot goes on
        whole = full and centre is None
        extra = (True,) if whole else ()  # the whole board; else what matters, or round `at`
        data = await drawing.run(_picture, view, title, centre, radius, *extra)
        name = f"map-{seat.game.id}-{nation}-t{view.tick}.png"
        where = f" around {at}" if at else (", the whole board," if whole else "")
        return Reply(text=f"Your map{where} at {view.clock}.", files=[(name, data)])

    async def status(self, caller: Caller) -> Reply:
        seat, nation = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, nation)
        game = await self.ctx.service.summary(seat.game.id)
        s = view.status
        me = view.nations[nation]
        lines = [
            f"**{me.name}** in {seat.game.name} - {view.clock}"
            + (" (paused)" if seat.game.clock.get("paused") else ""),
            f"Tech **{s.tech:.2f}** - command points **{s.cp}** (+{s.cp_regen} an hour)"
            f" - power {s.power}/{s.power_limit}",
            f"{s.cities} cities, {s.units} units",
        ]
        nxt = _next_update(view, load_rules(view.ruleset).ticks_per_unit_update)
        when = self._real_time(seat.game, game, nxt) if nxt is not None else None
        if nxt is not None:
            lines.append(
                f"Next unit update (mobility, healing): {game.clock(nxt)}"
                + (f" (<t:{int(when)}:R>)" if when else "")
            )
        end_when = self._real_time(seat.game, game, game.end_tick)
        lines.append(
            f"The game ends {game.clock(game.end_tick)}"
            + (f" (<t:{int(end_when)}:R>)" if end_when else "")
        )
        for p in view.pending:
            other = p.other if p.nation == nation else p.nation
            name = view.nations[other].name if other in view.nations else other
            who = "You" if p.nation == nation else name
            towards = name if p.nation == nation else "you"
            lines.append(
                f"Pending: {who} become {p.level} towards {towards} at {game.clock(p.due_tick)}."
            )
        problem = await self._dm_problem(caller.user_id)
        if problem:
            lines.append(problem)
        return Reply(text="\n".join(lines))

    async def _dm_problem(self, user_id: str) -> str | None:
        status = await BotStore.of(self.ctx.service.store).get_dm_status(user_id)
        if not status or status[0] == "ok":
            return None
        if status[0] == "closed":
            return (
                "**I cannot DM you**: your DMs are closed to this server's members. Open them "
                "(Privacy settings) to get reports and maps."
            )
        return "Some of your DMs failed recently; I will keep trying."

    def _real_time(self, game: GameRow, summary: GameSummary, tick: int) -> float | None:
        """When `tick` is due in real time (None: the game's time stands still)."""
        return RealClock.of_row(game, summary.ticks_per_hour).real_time_of(tick)

    async def units(
        self,
        caller: Caller,
        page: int = 1,
        kind: str | None = None,
        *,
        group: str | None = None,
        ready: bool | None = None,
        orders: str | None = None,
        at: str | None = None,
    ) -> Reply:
        """Own units, a page at a time: filtered by type, square (`at`), mobility left
        (`ready`) and standing orders (`orders`: with or without), listed by id or grouped by
        square; mobility shown as now/most (the type's mobility times the ruleset's cap)."""
        seat, nation = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, nation)
        rules = load_rules(view.ruleset)
        own = view.own_units()
        wanted: list[str] = []  # the filters, in words: "of type Tank at 12,7"
        again: list[str] = []  # and as options, for the next page's hint
        if kind:
            name = parsing.choice(kind, [u.name for u in rules.units], "unit type")
            own = [u for u in own if u.type == name]
            wanted.append(f"of type {rules.unit[name].title}")
            again.append(f"type:{name}")
        if at:
            x, y = parsing.square(at, view.width, view.height)
            own = [u for u in own if u.sq == y * view.width + x]
            wanted.append(f"at {x},{y}")
            again.append(f"at:{x},{y}")
        if ready is not None:
            own = [u for u in own if ((u.mobility or 0) > 0) == ready]
            wanted.append("with mobility left" if ready else "with no mobility left")
            again.append(f"ready:{str(ready).lower()}")
        if orders:
            having = parsing.choice(orders, ["with", "without"], "orders filter") == "with"
            own = [u for u in own if (u.order is not None) == having]
            wanted.append("on standing orders" if having else "without standing orders")
            again.append(f"orders:{'with' if having else 'without'}")
        by_square = bool(group)
        if group:
            parsing.choice(group.removeprefix("by").strip(), ["square"], "grouping")
            again.append("group:square")
        filters = "".join(f" {w}" for w in wanted)
        if not own:
            return Reply(text=f"You have no units{filters}.")
        if by_square:
            own = sorted(own, key=lambda u: (u.sq, u.id))
        per_square: dict[int, int] = {}
        for u in own:
            per_square[u.sq] = per_square.get(u.sq, 0) + 1
        pages = math.ceil(len(own) / PAGE)
        page = max(1, min(page, pages))
        lines = [f"**Your units**{filters} ({len(own)}) - page {page}/{pages}"]
        last_sq = None
        for u in own[(page - 1) * PAGE : page * PAGE]:
            ut = rules.unit[u.type]
            if by_square and u.sq != last_sq:
                n = per_square[u.sq]
                lines.append(f"**{view.label(u.sq)}** - {n} unit{'s' if n != 1 else ''}")
                last_sq = u.sq
            where = "" if by_square else f" at {view.label(u.sq)}"
            most = ut.mobility * rules.mobility.cap_multiple
            bits = [f"`{u.id:>4}` {ut.title}{where}", f"{u.hp}/{ut.hp} hp"]
            bits.append(f"mob {u.mobility}/{most}")
            if ut.ammo:
                bits.append(f"ammo {u.ammo}")
            if ut.needs_fuel:
                bits.append(f"fuel {u.fuel}")
            if u.carried_by is not None:
                bits.append(f"aboard {u.carried_by}")
            if u.order is not None:
                bits.append(f"-> {view.label(u.order)}")
            lines.append(" - ".join(bits))
        if page < pages:
            lines.append(f"More: `/units page:{page + 1}{''.join(' ' + a for a in again)}`")
        return Reply(text="\n".join(lines))

    async def cities(self, caller: Caller, page: int = 1) -> Reply:
        seat, nation = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, nation)
        rules = load_rules(view.ruleset)
        own = sorted(view.own_cities(), key=lambda c: c.sq)
        if not own:
            return Reply(text="You have no cities.")
        pages = math.ceil(len(own) / PAGE)
        page = max(1, min(page, pages))
        lines = [f"**Your cities** ({len(own)}) - page {page}/{pages}"]
        for c in own[(page - 1) * PAGE : page * PAGE]:
            ct = rules.city[c.designation]
            if c.build:
                ut = rules.unit[c.build]
                ticks = ut.cost_hours * rules.ticks_per_hour
                building = f"building {ut.title} ({100 * (c.progress or 0) // max(1, ticks)}%)"
            else:
                building = "building nothing"
            nxt = f", then {rules.unit[c.next_build].title}" if c.next_build else ""
            lines.append(f"`{view.label(c.sq):>7}` {ct.title} - {building}{nxt}")
        if page < pages:
            lines.append(f"More: `/cities page:{page + 1}`")
        return Reply(text="\n".join(lines))

    async def nations(self, caller: Caller) -> Reply:
        seat, nation = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, nation)
        lines = [f"**Nations in {seat.game.name}**"]
        for n in view.nations.values():
            if n.id == nation:
                lines.append(f"- **{n.name}** (you)")
                continue
            rel = f"you: {n.relation_to}, they: {n.relation_from}"
            lines.append(f"- **{n.name}** - {rel}" + (" - out" if n.out else ""))
        return Reply(text="\n".join(lines))


def _next_update(view: View, period: int) -> int | None:
    """The next tick at which one of the nation's units gets its 4-hourly update (counted from
    each unit's build tick)."""
    ahead = [
        (u.built_tick - view.tick - 1) % period + 1
        for u in view.own_units()
        if u.built_tick is not None
    ]
    return view.tick + min(ahead) if ahead else None
