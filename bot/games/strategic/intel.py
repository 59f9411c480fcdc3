"""What a player may look at: the map, their status, units, cities and the nations; all of it
from their nation's view, never from the world."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import ClassVar

from bot import paging, parsing
from bot.actions import Actions
from bot.context import Button, Caller, Context, Embed, Reply, UserError
from bot.games.strategic import NAME as KIND
from bot.games.strategic import timing
from bot.preferences import MAP_COLOURS, map_colours
from bot.store import BotStore
from engine.host.realtime import RealClock
from engine.host.rows import GameRow
from engine.interface.summary import GameSummary
from engine.strategic.rules import load as load_rules
from engine.strategic.view import View
from renderers.encoding import png_bytes
from renderers.strategic import drawing
from renderers.strategic.mapimage import render_window
from renderers.strategic.region import focus_region

PAGE = 15
NATIONS_PAGE = 20  # nations a card of /nations (Discord shows 25 fields at most)


def _picture(view: View, title: str, frame: MapFrame, colours: str = "nation") -> bytes:
    """The map of `frame` as PNG bytes (runs in a drawing worker): the window round a square
    at 60 pixels a square (`/map at:`), or fitted to 550 pixels (the zoom's steps); the whole
    board as an overview made for 550 pixels, or at full size; else the part that matters to
    the nation (`render_focus`). The nations in their own colours, or by relation
    (`colours`: the player's choice)."""
    options = {"title": title, "colours": colours}
    if frame.centre is not None and frame.fitted:
        return png_bytes(
            render_window(view, frame.centre, frame.radius, title=title, colours=colours)
        )
    if frame.centre is not None:
        return drawing.draw_crop_bytes(view, frame.centre, frame.radius, options)
    if frame.full:
        return drawing.draw_map_bytes(view, options)
    if frame.whole:
        return drawing.draw_overview_bytes(view, options)
    return drawing.draw_focus_bytes(view, options)


RADII = (3, 6, 10, 15, 20)  # `/map at:`'s zoom steps, in squares round the centre
WINDOW_RADII = (3, 5, 8, 12, 17, 24, 32, 45)  # the zoom's steps between the focus and the board
HOME_RADIUS = 6  # "My capital": the squares round the first home city


@dataclass(frozen=True)
class MapFrame:
    """What a map shows: the nation's part of the board (`FOCUS`), the whole board (`WHOLE`,
    an overview; `FULL`, at full size), or the squares within `radius` of `centre`, at 60
    pixels a square (`/map at:`) or `fitted` to 550 pixels (the zoom's steps). Its buttons
    carry the next frames as text, short and the same for the same frame (`encode`)."""

    centre: int | None = None
    radius: int = 0
    whole: bool = False
    full: bool = False
    fitted: bool = False

    FOCUS: ClassVar[MapFrame]
    WHOLE: ClassVar[MapFrame]
    FULL: ClassVar[MapFrame]

    @classmethod
    def crop(cls, centre: int, radius: int) -> MapFrame:
        return cls(centre=centre, radius=radius)

    @classmethod
    def window(cls, centre: int, radius: int) -> MapFrame:
        return cls(centre=centre, radius=radius, fitted=True)

    def encode(self, game_id: int) -> str:
        if self.centre is not None:
            return f"{game_id}:{'v' if self.fitted else 'c'}{self.centre}.{self.radius}"
        return f"{game_id}:{'r' if self.full else 'w' if self.whole else 'f'}"

    @classmethod
    def parse(cls, text: str) -> tuple[int, MapFrame]:
        m = re.fullmatch(r"(\d{1,12}):(?:([fwr])|([cv])(\d{1,9})\.(\d{1,2}))", text)
        if m is None:
            raise UserError("This button is no longer valid: run /map again.")
        game = int(m.group(1))
        if m.group(2):
            return game, {"f": cls.FOCUS, "w": cls.WHOLE, "r": cls.FULL}[m.group(2)]
        centre, radius = int(m.group(4)), int(m.group(5))
        if m.group(3) == "v":
            return game, cls.window(centre, max(1, min(WINDOW_RADII[-1], radius)))
        return game, cls.crop(centre, max(1, min(20, radius)))

    def buttons(self, game_id: int, view: View) -> list[Button]:
        """Zoom in, zoom out, the four ways to pan, the capital, the whole board at full size
        (or back to its overview), and the same again (refresh)."""
        out: list[Button] = []
        inner, outer = self._zoomed(view)
        if inner is not None:
            out.append(Button("Zoom in", "map", inner.encode(game_id)))
        if outer is not None:
            out.append(Button("Zoom out", "map", outer.encode(game_id)))
        for label, frame in self._panned(view):
            out.append(Button(label, "map", frame.encode(game_id)))
        if view.home is not None:
            home = MapFrame.window(view.home, HOME_RADIUS)
            out.append(Button("My capital", "map", home.encode(game_id)))
        if self.whole and not self.full:
            out.append(Button("Full size", "map", MapFrame.FULL.encode(game_id)))
        elif self.full:
            out.append(Button("Overview", "map", MapFrame.WHOLE.encode(game_id)))
        out.append(Button("Refresh", "map", self.encode(game_id)))
        # one button per frame (Discord refuses two with the same id): at the capital already,
        # "My capital" is the refresh
        seen: set[str] = set()
        unique = []
        for b in reversed(out):
            if b.args not in seen:
                seen.add(b.args)
                unique.append(b)
        return unique[::-1]

    def _middle(self, view: View) -> tuple[int, int]:
        """The square in the middle of what the frame shows, and its half-width in squares."""
        if self.centre is not None:
            return self.centre, self.radius
        cols, rows = focus_region(view)
        centre = rows[len(rows) // 2] * view.width + cols[len(cols) // 2]
        return centre, max(len(cols), len(rows)) // 2

    def _zoomed(self, view: View) -> tuple[MapFrame | None, MapFrame | None]:
        board = max(view.width, view.height)
        if self.whole or self.full:  # in: the biggest window smaller than the board
            middle = view.home if view.home is not None else self._middle(view)[0]
            steps = [r for r in WINDOW_RADII if 2 * r + 1 < board]
            return (MapFrame.window(middle, steps[-1]) if steps else MapFrame.FOCUS), None
        centre, span = self._middle(view)
        if self.centre is not None and not self.fitted:  # `/map at:`: its own steps
            smaller = [r for r in RADII if r < self.radius]
            larger = [r for r in RADII if r > self.radius]
            inner = MapFrame.crop(centre, smaller[-1]) if smaller else None
            outer = MapFrame.crop(centre, larger[0]) if larger else MapFrame.WHOLE
            return inner, outer
        smaller = [r for r in WINDOW_RADII if r < span]
        larger = [r for r in WINDOW_RADII if r > span and 2 * r + 1 < board]
        inner = MapFrame.window(centre, smaller[-1]) if smaller else None
        outer = MapFrame.window(centre, larger[0]) if larger else MapFrame.WHOLE
        return inner, outer

    def _panned(self, view: View) -> list[tuple[str, MapFrame]]:
        """North, South, West, East: the same window moved by half its width (round the
        torus); none along a side the window already shows whole."""
        if self.whole or self.full:
            return []
        centre, span = self._middle(view)
        step = max(1, span)
        x, y = centre % view.width, centre // view.width
        make = MapFrame.crop if self.centre is not None and not self.fitted else MapFrame.window
        out = []
        if 2 * span + 1 < view.height:
            out.append(("North", make(((y - step) % view.height) * view.width + x, span)))
            out.append(("South", make(((y + step) % view.height) * view.width + x, span)))
        if 2 * span + 1 < view.width:
            out.append(("West", make(y * view.width + (x - step) % view.width, span)))
            out.append(("East", make(y * view.width + (x + step) % view.width, span)))
        return out


MapFrame.FOCUS = MapFrame()
MapFrame.WHOLE = MapFrame(whole=True)
MapFrame.FULL = MapFrame(whole=True, full=True)


class Intel:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx
        actions.button("map", self.pressed_map)
        actions.pages("nations", self.nations)

    async def map(
        self,
        caller: Caller,
        at: str | None = None,
        radius: int = 6,
        full: bool = False,
        colours: str | None = None,
    ) -> Reply:
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        view: View = await self.ctx.view(seat.game.id, nation)
        if not 1 <= radius <= 20:
            raise UserError("The radius of a zoomed map is 1 to 20 squares.")
        if colours is not None and colours not in MAP_COLOURS:
            raise UserError(f"Maps colour nations by {' or '.join(MAP_COLOURS)}, not {colours!r}.")
        frame = MapFrame.WHOLE if full else MapFrame.FOCUS  # the whole board: its overview
        if at:
            x, y = parsing.square(at, view.width, view.height)
            frame = MapFrame.crop(y * view.width + x, radius)
        store = BotStore.of(self.ctx.service.store)
        before = await map_colours(store, caller.user_id)
        chosen = before if colours is None else await map_colours(store, caller.user_id, colours)
        reply = await self._map_reply(seat.game, nation, view, frame, chosen)
        if chosen != before:
            reply.text += (
                f" Your maps now colour nations {MAP_COLOURS[chosen]}, here and in your DMs "
                f"(`/map colours:` to change it)."
            )
        return reply

    async def pressed_map(self, caller: Caller, args: str) -> Reply:
        """A button under a map: the same map zoomed, moved to the capital, or drawn again."""
        game_id, frame = MapFrame.parse(args)
        seat, nation = await self.ctx.playing(
            caller, game_id, kind=KIND
        )  # the button's game, checked
        view: View = await self.ctx.view(seat.game.id, nation)
        colours = await map_colours(BotStore.of(self.ctx.service.store), caller.user_id)
        return await self._map_reply(seat.game, nation, view, frame, colours)

    async def _map_reply(
        self, game: GameRow, nation: str, view: View, frame: MapFrame, colours: str
    ) -> Reply:
        title = f"{game.name} (game {game.id})"
        # the view is a copy: it is drawn in a worker process while the bot goes on
        data = await drawing.run(_picture, view, title, frame, colours)
        if frame.centre is not None:
            where = f" around {view.label(frame.centre)}"
        elif frame.full:
            where = ", the whole board at full size,"
        elif frame.whole:
            where = ", the whole board (Full size: every square readable),"
        else:
            where = ""
        name = f"map-{game.id}-{nation}-t{view.tick}.png"
        return Reply(
            text=f"Your map{where} at {view.clock}.",
            files=[(name, data)],
            buttons=frame.buttons(game.id, view),
        )

    async def status(self, caller: Caller) -> Reply:
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        view: View = await self.ctx.view(seat.game.id, nation)
        game = await self.ctx.service.summary(seat.game.id)
        s = view.status
        me = view.nations[nation]
        paused = " (paused)" if seat.game.clock.get("paused") else ""
        if game.ended:
            # its result as recorded at the end for the server's standings (public)
            result = await BotStore.of(self.ctx.service.store).result(seat.game.id)
            won = [p["nation"] for p in result.places[0]] if result and result.places else None
            return self._ended_status(seat.game.name, view, game, won)
        fields = [
            ("Tech", f"{s.tech:.2f}"),
            ("Command points", f"{s.cp} (+{s.cp_regen} an hour)" + _wasted(view)),
            ("Power", f"{s.power} of {s.power_limit}"),
            ("Cities", str(s.cities)),
            ("Units", str(s.units)),
        ]
        if view.ecology is not None and view.collapse_at is not None:
            fields.append(
                (
                    "Ecological meter",
                    f"{view.ecology} of {view.collapse_at}: each wasteland adds to it; at "
                    f"{view.collapse_at} society collapses and every nation loses",
                )
            )
        nxt = _next_update(view, load_rules(view.ruleset).ticks_per_unit_update)
        if nxt is not None:
            when = self._real_time(seat.game, game, nxt)
            fields.append(
                (
                    "Next unit update",
                    f"{game.clock(nxt)}"
                    + (f" (<t:{int(when)}:R>)" if when else "")
                    + ": mobility and healing",
                )
            )
        end_when = self._real_time(seat.game, game, game.end_tick)
        fields.append(
            (
                "The game ends",
                game.clock(game.end_tick) + (f" (<t:{int(end_when)}:R>)" if end_when else ""),
            )
        )
        lines = []
        for p in view.pending:
            other = p.other if p.nation == nation else p.nation
            name = view.nations[other].styled if other in view.nations else other
            who = "You" if p.nation == nation else name
            towards = name if p.nation == nation else "you"
            lines.append(
                f"Pending: {who} become {p.level} towards {towards} at {game.clock(p.due_tick)}."
            )
        problem = await self._dm_problem(caller.user_id)
        if problem:
            lines.append(problem)
        return Reply(
            embed=Embed(
                title=f"{me.name} in {seat.game.name} - {view.clock}{paused}",
                description="\n".join(lines),
                fields=tuple(fields),
                colour=_colour(me.colour),
            )
        )

    def _ended_status(
        self, name: str, view: View, game: GameSummary, won: list[str] | None
    ) -> Reply:
        """`/status` once the game is over: no clock running nor paused, but when it ended,
        who won (`won`: the nations of its first place, None when its result is not recorded
        yet) and the cities each nation held at the end (what decided it)."""
        s = view.status
        me = view.nations[view.nation]

        def called(nation: str) -> str:
            return "you" if nation == view.nation else view.nations[nation].styled

        board = sorted(game.nations.values(), key=lambda n: (-n.score, n.name))
        result = ", ".join(f"{called(n.id)} {n.score}" for n in board)
        if won == []:  # an empty first place: nobody won (total-war's collapse)
            verdict = "Nobody won: society collapsed, and every nation lost."
        elif won:
            names = [called(n) for n in won]
            winners = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verdict = f"Won by {winners}: the team of mutual allies with the most cities wins."
        else:
            verdict = (
                "The team of mutual allies with the most cities wins; the game-over report "
                "(`/news`) names the winners."
            )
        return Reply(
            embed=Embed(
                title=f"{me.name} in {name} - ended",
                description=(
                    f"The game ended at {game.clock(min(game.tick, game.end_tick))}. {verdict} "
                    f"Cities at the end: {result}."
                ),
                fields=(
                    ("Tech", f"{s.tech:.2f}"),
                    ("Cities", str(s.cities)),
                    ("Units", str(s.units)),
                ),
                colour=_colour(me.colour),
            )
        )

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
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        view: View = await self.ctx.view(seat.game.id, nation)
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
        game = await self.ctx.service.summary(seat.game.id)
        period = rules.ticks_per_unit_update
        lines: list[str] = []
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
            mobility = f"mob {u.mobility}/{most}"
            nxt = timing.next_update(u, view.tick, period)
            if nxt is not None and (u.mobility or 0) < most:  # when the next ones come
                gain = min(ut.mobility, most - (u.mobility or 0))
                mobility += f" (+{gain} at {game.clock(nxt)})"
            bits.append(mobility)
            if ut.ammo:
                bits.append(f"ammo {u.ammo}")
            if ut.needs_fuel:
                bits.append(f"fuel {u.fuel}")
            if u.carried_by is not None:
                bits.append(f"aboard {u.carried_by}")
            if u.order is not None:
                bits.append(f"{'attacks' if u.strike else '->'} {view.label(u.order)}")
            lines.append(" - ".join(bits))
        more = ""
        if page < pages:
            more = f"More: /units page:{page + 1}{''.join(' ' + a for a in again)}"
        return Reply(
            embed=Embed(
                title=f"Your units{filters} ({len(own)}) - page {page}/{pages}",
                description="\n".join(lines),
                colour=_colour(view.nations[nation].colour),
                footer=" - ".join(
                    part
                    for part in (
                        f"{view.clock}; mobility comes every {_span(period * game.minutes_per_tick)}",
                        more,
                    )
                    if part
                ),
            )
        )

    async def cities(self, caller: Caller, page: int = 1) -> Reply:
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        view: View = await self.ctx.view(seat.game.id, nation)
        game = await self.ctx.service.summary(seat.game.id)
        rules = load_rules(view.ruleset)
        own = sorted(view.own_cities(), key=lambda c: c.sq)
        if not own:
            return Reply(text="You have no cities.")
        pages = math.ceil(len(own) / PAGE)
        page = max(1, min(page, pages))
        lines = []
        for c in own[(page - 1) * PAGE : page * PAGE]:
            ct = rules.city[c.designation]
            if c.build:
                ut = rules.unit[c.build]
                ticks = ut.cost_hours * rules.ticks_per_hour
                left = max(1, ticks - (c.progress or 0))
                building = (
                    f"{ut.title}, ready {game.clock(view.tick + left)} "
                    f"({_span(left * game.minutes_per_tick)} left)"
                )
                if c.skipped:  # it will be skipped again unless power allows it by then
                    building += (
                        f"; **skipped** last time for lack of power ({view.status.power} of "
                        f"{view.status.power_limit}: more cities raise the limit, fewer units "
                        "lower the power)"
                    )
            else:
                building = "**nothing** (give it a build with /build)"
            nxt = f", then {rules.unit[c.next_build].title}" if c.next_build else ""
            if c.waypoint is not None:
                nxt += f"; new units go to {view.label(c.waypoint)}"
            lines.append(f"`{view.label(c.sq):>7}` {ct.title} - {building}{nxt}")
        if page < pages:
            lines.append(f"More: `/cities page:{page + 1}`")
        return Reply(
            embed=Embed(
                title=f"Your cities ({len(own)}) - page {page}/{pages}",
                description="\n".join(lines),
                colour=_colour(view.nations[nation].colour),
                footer=f"{view.clock}; power {view.status.power} of {view.status.power_limit}",
            )
        )

    async def nations(self, caller: Caller, *, page: int = 1, game_id: int | None = None) -> Reply:
        """The scoreboard: every nation's cities (public: they decide the game), your team of
        mutual allies, and the relations both ways; `NATIONS_PAGE` nations a card, the next
        ones behind its Next button (`game_id`: a page button's game)."""
        seat, nation = await self.ctx.playing(caller, game_id, kind=KIND)
        view: View = await self.ctx.view(seat.game.id, nation)
        game = await self.ctx.service.summary(seat.game.id)
        public = game.nations
        team = [nation] + [
            n.id
            for n in view.nations.values()
            if n.id != nation and n.relation_to == "allied" and n.relation_from == "allied"
        ]
        mine = sum(public[n].score for n in team if n in public)
        ranked = sorted(
            view.nations.values(),
            key=lambda n: (-(public[n.id].score if n.id in public else 0), n.out, n.name),
        )
        fields = []
        for n in ranked:
            info = public.get(n.id)
            cities = info.score if info else 0
            bits = [f"**{cities}** {'city' if cities == 1 else 'cities'}"]
            if n.id == nation:
                name = f"{n.name} (you)"
            else:
                name = n.styled
                bits.append(f"you: {n.relation_to}, they: {n.relation_from}")
            if info is not None and info.player == "ai":
                bits.append("AI")
            if n.out:
                bits.append("out of the game")
            fields.append((name, "\n".join(bits)))
        end = self._real_time(seat.game, game, game.end_tick)
        when = game.clock(game.end_tick) + (f" (<t:{int(end)}:R>)" if end else "")
        who = "you alone" if len(team) == 1 else "you and your mutual allies"
        description = (
            f"When time runs out ({when}) the team of mutual allies with the most cities "
            f"wins. Your team ({who}) holds **{mine}** "
            f"{'city' if mine == 1 else 'cities'}."
        )
        me = view.nations[nation]
        page, pages, first = paging.window(len(fields), NATIONS_PAGE, page)
        shown = fields[first : first + NATIONS_PAGE]
        left = len(fields) - first - len(shown)
        return Reply(
            embed=Embed(
                title=f"Nations in {seat.game.name} - {view.clock}"
                + (f" (page {page}/{pages})" if pages > 1 else ""),
                description=description,
                fields=tuple(shown),
                colour=_colour(me.colour),
                footer=f"… and {paging.more(left, 'nation')} (page {page}/{pages}: {paging.NEXT})"
                if left
                else "",
            ),
            buttons=paging.page_buttons(f"nations:{seat.game.id}", page, pages),
        )


def _span(minutes: int) -> str:
    """90 -> '1 h 30 min'; 2 days and more in days and hours."""
    hours, mins = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {mins} min" if mins else f"{hours} h"
    return f"{mins} min"


def _wasted(view: View) -> str:
    """Command points at the ruleset's most: what comes is lost until some are spent."""
    cap = load_rules(view.ruleset).command_points.max
    if view.status.cp < cap:
        return ""
    return f"; at the most ({cap}): what comes is wasted; spend some"


def _colour(text: str) -> int | None:
    """'#c0392b' -> 0xC0392B (None when it is not a colour)."""
    try:
        return int(text.lstrip("#"), 16) if len(text.lstrip("#")) == 6 else None
    except ValueError:
        return None


def _next_update(view: View, period: int) -> int | None:
    """The next tick at which one of the nation's units gets its 4-hourly update."""
    ahead = [t for u in view.own_units() if (t := timing.next_update(u, view.tick, period))]
    return min(ahead) if ahead else None
