"""Autocomplete: at most 25 suggestions, from the caller's own view only (their units and cities,
nations they know of, unit types their tech allows). Never raises: no game, no suggestions."""

from __future__ import annotations

from collections.abc import Callable

from bot.context import Caller, Context, UserError
from bot.games.strategic import NAME as KIND
from bot.games.strategic import selectors
from engine.strategic.rules import load as load_rules
from engine.strategic.rules.models import UnitType

LIMIT = 25
Choice = tuple[str, str]  # (what the player reads, the value filled in)


class Choices:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def _own_view(self, caller: Caller):
        try:
            seat, nation = await self.ctx.playing(caller, kind=KIND)
        except UserError:
            return None
        return await self.ctx.view(seat.game.id, nation)

    async def choose_units(self, caller: Caller, current: str) -> list[Choice]:
        """Own units and selectors of them (`all at 12,7 (3 units: ...)`, `tanks at 12,7`,
        `all tanks`, `idle tanks`); the part being typed is completed, earlier ones kept."""
        view = await self._own_view(caller)
        if view is None:
            return []
        return selectors.suggest(current, view, load_rules(view.ruleset), LIMIT)

    async def _own_units_that(
        self, caller: Caller, current: str, can: Callable[[UnitType], bool]
    ) -> list[Choice]:
        """Own units of the types that can do something (one id: /launch, /engineer, a
        carrier for /board)."""
        view = await self._own_view(caller)
        if view is None:
            return []
        rules = load_rules(view.ruleset)
        typed = str(current or "").strip().lstrip("#")
        out: list[Choice] = []
        for u in view.own_units():
            ut = rules.unit[u.type]
            if not can(ut) or not str(u.id).startswith(typed):
                continue
            label = f"{u.id} - {ut.title} at {view.label(u.sq)}, {u.hp} hp, mob {u.mobility}"
            out.append((label[:100], str(u.id)))
            if len(out) == LIMIT:
                break
        return out

    async def choose_launchable(self, caller: Caller, current: str) -> list[Choice]:
        return await self._own_units_that(
            caller, current, lambda ut: ut.launchable or ut.blast_radius is not None
        )

    async def choose_engineers(self, caller: Caller, current: str) -> list[Choice]:
        return await self._own_units_that(
            caller, current, lambda ut: ut.builds_cities or ut.switches_terrain
        )

    async def choose_carriers(self, caller: Caller, current: str) -> list[Choice]:
        return await self._own_units_that(caller, current, lambda ut: ut.capacity > 0)

    async def choose_unit(self, caller: Caller, current: str) -> list[Choice]:
        last = current.strip().split(" ")[-1] if current else ""
        return [c for c in await self.choose_units(caller, last) if c[1].isdigit()]

    async def choose_unit_squares(self, caller: Caller, current: str) -> list[Choice]:
        """Squares where the caller's units are, the most crowded first."""
        view = await self._own_view(caller)
        if view is None:
            return []
        typed = current.strip().replace(" ", "")
        counts: dict[int, int] = {}
        for u in view.own_units():
            counts[u.sq] = counts.get(u.sq, 0) + 1
        out: list[Choice] = []
        for sq, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            label = view.label(sq)
            if label.startswith(typed):
                out.append((f"{label} - {n} unit{'s' if n != 1 else ''}", label))
        return out[:LIMIT]

    async def choose_cities(self, caller: Caller, current: str) -> list[Choice]:
        view = await self._own_view(caller)
        if view is None:
            return []
        rules = load_rules(view.ruleset)
        typed = current.strip().replace(" ", "")
        out: list[Choice] = []
        for c in sorted(view.own_cities(), key=lambda c: c.sq):
            label = view.label(c.sq)
            if typed and not label.startswith(typed):
                continue
            build = rules.unit[c.build].title if c.build else "nothing"
            out.append((f"{label} - {rules.city[c.designation].title}, building {build}", label))
            if len(out) == LIMIT:
                break
        return out

    async def choose_nations(self, caller: Caller, current: str) -> list[Choice]:
        view = await self._own_view(caller)
        if view is None:
            return []
        typed = current.strip().lower()
        return [
            (f"{n.name} (you: {n.relation_to}, they: {n.relation_from})", n.id)
            for n in view.nations.values()
            if n.id != view.nation and typed in n.name.lower()
        ][:LIMIT]

    async def choose_unit_types(self, caller: Caller, current: str) -> list[Choice]:
        view = await self._own_view(caller)
        if view is None:
            return []
        rules = load_rules(view.ruleset)
        typed = current.strip().lower()
        out = []
        for ut in rules.units:
            if ut.tech > view.status.tech + 1e-9:
                continue
            if typed and typed not in ut.name and typed not in ut.title.lower():
                continue
            out.append((f"{ut.title} - {ut.cost_hours} h, built in {ut.built_in}", ut.name))
        return out[:LIMIT]

    async def choose_designations(self, caller: Caller, current: str) -> list[Choice]:
        view = await self._own_view(caller)
        if view is None:
            return []
        rules = load_rules(view.ruleset)
        typed = current.strip().lower()
        return [
            (c.title, c.name)
            for c in rules.cities
            if c.designatable and (not typed or typed in c.name or typed in c.title.lower())
        ][:LIMIT]

    async def choose_levels(self, caller: Caller, current: str) -> list[Choice]:
        view = await self._own_view(caller)
        if view is None:
            return []
        rules = load_rules(view.ruleset)
        typed = current.strip().lower()
        return [(lv.replace("_", " "), lv) for lv in rules.diplomacy.levels if typed in lv][:LIMIT]
