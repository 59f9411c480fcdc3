"""/captain: a Caldera captain's window of a turn, Discord-free (the cogs, the card menus and
the sandbox call it): the character and starting bonuses, card choices, research, designs,
building, the shipyard, repairs, refits, scrapping, move and retreat orders, submitting; the
captain's own standing and the star map; the moderator's `/mod turn`.

Everything is the engine's command (`engine.caldera.commands`), checked there: a refusal is
the engine's reason, said as a sentence, and changes nothing. Every reply is the caller's
alone, built from their own view (their hand, credits and fleet are nobody else's)."""

from __future__ import annotations

import re
from typing import Any

from bot.actions import Actions
from bot.context import GAME_OVER, Caller, Context, Reply, Seat, UserError, sentence
from bot.games.caldera import NAME as KIND
from bot.games.caldera import words
from bot.moderation import announce
from bot.turnbased import set_deadline
from engine.caldera.commands import (
    Build,
    BuyBonus,
    Choose,
    Fund,
    Move,
    Recruit,
    Refit,
    Repair,
    Scrap,
    SetRetreat,
    SetStats,
    Submit,
    Upgrade,
)
from engine.caldera.rules import STATS
from engine.caldera.state import TICKS_PER_HOUR
from engine.caldera.view import View
from engine.errors import CommandError, GameError
from engine.host.realtime import RealClock

LIMIT = 25  # Discord's autocomplete limit
MOST_PARTS = 60  # parts named in one command (the engine's own limit)
HAND_CHOICES = ("research", "design", "mission", "reward", "tech", "zone")
NONE = "none"  # the card value that takes none of a hand (where the rules allow it)


class Captains:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx  # (no buttons or list pages: its long texts go as pages of their own)

    # --- the caller and their commands ------------------------------------------------------

    async def _seat(self, caller: Caller, game_id: int | None = None) -> tuple[Seat, str]:
        seat, nation = await self.ctx.playing(caller, game_id, kind=KIND)
        if seat.game.status not in ("running", "paused", "ended"):
            raise UserError(
                f"{seat.game.name} has not started yet: the captains' commands come once it has."
            )
        return seat, nation

    async def _view(self, seat: Seat, nation: str) -> View:
        view: View = await self.ctx.service.view(seat.game.id, nation)
        return view

    async def _command(
        self, caller: Caller, command: Any, game_id: int | None = None
    ) -> tuple[Seat, str, list]:
        seat, nation = await self._seat(caller, game_id)
        if seat.game.status == "ended":
            raise UserError(GAME_OVER.format(game=seat.game.id))
        try:
            result = await self.ctx.service.submit(seat.game.id, nation, command)
        except (CommandError, GameError) as exc:
            raise UserError(sentence(str(exc)) + " Nothing changed.") from None
        return seat, nation, result.events

    async def _credits(self, seat: Seat, nation: str) -> int:
        view = await self._view(seat, nation)
        return view.own[nation].credits

    # --- the setup ---------------------------------------------------------------------------

    async def character(self, caller: Caller, points: dict[str, int]) -> Reply:
        """The captain's stats (the first turn): the rules' points over the six stats."""
        odd = [s for s, n in points.items() if s not in STATS or not 0 <= n <= 99]
        if odd:
            raise UserError("Each stat takes 0 to 15 points (the first three at least 2).")
        seat, nation, events = await self._command(caller, SetStats(stats=points))
        view = await self._view(seat, nation)
        rules = words.rules_of(view)
        told = ", ".join(f"{rules.stats.names[s]} {points.get(s, 0)}" for s in STATS)
        hands = [e for e in events if e.kind == "HandDrawn"]
        drawn = "".join(
            f"\nYour {words.HANDS[h.hand]} cards: "
            + "; ".join(words.card_label(view, h.hand, c) for c in h.cards)
            for h in hands
        )
        return Reply(
            text=f"Your captain: {told}.{drawn}\nChoose with `/captain choose` (or the menus "
            "in your DMs); buy starting bonuses with `/captain bonus`.",
            refresh_game=seat.game.id,
        )

    async def bonus(
        self, caller: Caller, bonus: str, tech: str | None = None, stat: str | None = None
    ) -> Reply:
        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        found = next((b for b in words.rules_of(view).bonuses if b.id == bonus), None)
        if found is None:
            known = ", ".join(b.id for b in words.rules_of(view).bonuses)
            raise UserError(f"There is no starting bonus {bonus!r}: the bonuses are {known}.")
        tech_id = _tech_id(view, tech) if tech else None
        _, _, events = await self._command(
            caller, BuyBonus(bonus=bonus, tech=tech_id, stat=(stat or None))
        )
        spent = next((e for e in events if e.kind == "Spent"), None)
        got = ""
        if spent is not None:
            if "ship" in spent.detail:
                got = f": ship {spent.detail['ship']} waits at Earth"
            elif "tech" in spent.detail:
                got = f": you know {words.tech_name(words.deck_of(view), spent.detail['tech'])}"
        credits = spent.credits if spent is not None else await self._credits(seat, nation)
        return Reply(text=f"Bought {found.name}{got}. You have {credits} credits left.")

    # --- cards -------------------------------------------------------------------------------

    async def choose(self, caller: Caller, hand: str, card: str | None) -> Reply:
        """A card of the caller's hand (`card` "none" or empty: none, where the hand allows)."""
        if hand not in HAND_CHOICES:
            raise UserError(f"The hands are {', '.join(HAND_CHOICES)}.")
        chosen = (card or "").strip() or None
        if chosen is not None and chosen.lower() == NONE:
            chosen = None
        return await self._choose(caller, hand, chosen, None)

    async def chosen(self, caller: Caller, game_id: int, hand: str, value: str) -> Reply:
        """A choice in a hand's menu under a DM (the game and the hand are the menu's; a hand
        chosen from since, or drawn again, refuses a card that is no longer in it)."""
        if hand not in HAND_CHOICES:
            raise UserError("That menu is not a hand of cards: use `/captain choose`.")
        return await self._choose(caller, hand, None if value == NONE else value, game_id)

    async def _choose(
        self, caller: Caller, hand: str, card: str | None, game_id: int | None
    ) -> Reply:
        seat, nation = await self._seat(caller, game_id)
        before = await self._view(seat, nation)
        choice = Choose.model_validate({"hand": hand, "card": card})
        _, _, events = await self._command(caller, choice, game_id)
        view = await self._view(seat, nation)
        label = words.HANDS[hand]
        if card is None:
            text = f"You take no {label} card."
        else:
            text = f"Chosen for your {label}: {words.card_label(before, hand, card)}."
        spent = next((e for e in events if e.kind == "Spent"), None)
        if spent is not None and hand in ("design", "tech"):
            text += f" You have {spent.credits} credits left."
        for e in events:
            if e.kind == "MissionDone" and e.captain == nation:
                text += f" Mission {e.mission} is done!"
        if hand == "research" and card is not None:
            me = view.own[nation]
            cost = _research_cost(view, nation)
            text += f" Fund it with `/captain fund` ({me.research_paid}/{cost} credits paid)."
        return Reply(text=text)

    async def cards(self, caller: Caller, hand: str, current: str) -> list[tuple[str, str]]:
        """Autocomplete: the cards of the caller's hand (of `hand`, or every hand)."""
        try:
            seat, nation = await self._seat(caller)
        except UserError:
            return []
        view = await self._view(seat, nation)
        me = view.own.get(nation)
        if me is None:
            return []
        out: list[tuple[str, str]] = []
        for h in me.hand:
            if hand and h.kind != hand:
                continue
            out += [(words.card_label(view, h.kind, c)[:100], c) for c in h.cards]
            if h.optional:
                out.append((f"none (take no {words.HANDS[h.kind]} card)", NONE))
        if hand in ("", "zone"):
            out += [(words.card_label(view, "zone", c)[:100], c) for c in view.zone_hand]
        typed = current.strip().lower()
        return [(n, v) for n, v in out if typed in n.lower() or typed in v][:LIMIT]

    # --- spending ------------------------------------------------------------------------------

    async def fund(self, caller: Caller, amount: int) -> Reply:
        if not 1 <= amount <= 10**9:
            raise UserError("Fund 1 credit or more.")
        seat, nation, events = await self._command(caller, Fund(amount=amount))
        view = await self._view(seat, nation)
        deck = words.deck_of(view)
        done = next((e for e in events if e.kind == "ResearchDone"), None)
        spent = next((e for e in events if e.kind == "Spent"), None)
        credits = view.own[nation].credits
        if done is not None:
            return Reply(
                text=f"Research done: you know {words.tech_name(deck, done.tech)}. Choose your "
                f"next research (`/captain choose hand:research`). You have {credits} credits."
            )
        paid = spent.detail.get("paid", 0) if spent is not None else 0
        tech = view.own[nation].research or ""
        return Reply(
            text=f"{words.tech_name(deck, tech)}: {paid}/{_research_cost(view, nation)} credits "
            f"paid. You have {credits} credits left."
        )

    async def build(self, caller: Caller, klass: str, parts: str) -> Reply:
        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        klass_id, part_ids = _tech_id(view, klass), _parts(view, parts)
        _, _, events = await self._command(caller, Build(klass=klass_id, parts=part_ids))
        spent = next(e for e in events if e.kind == "Spent")
        after = await self._view(seat, nation)
        ship = next(s for s in after.fleets[nation] if s.id == spent.detail["ship"])
        return Reply(
            text=f"Built {words.ship_line(after, ship)} for {spent.detail['cost']} credits. "
            f"You have {spent.credits} credits left."
        )

    async def shipyard(self, caller: Caller, klass: str | None, parts: str | None) -> Reply:
        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        klass_id = _tech_id(view, klass) if klass else None
        part_ids = _parts(view, parts) if parts else []
        _, _, events = await self._command(caller, Upgrade(klass=klass_id, parts=part_ids))
        spent = next(e for e in events if e.kind == "Spent")
        deck = words.deck_of(view)
        fitted = ", ".join(words.tech_name(deck, p) for p in spent.detail["parts"]) or "nothing"
        return Reply(
            text=f"Your shipyard is of the {words.tech_name(deck, spent.detail['klass'])} "
            f"class, fitted with {fitted}, for {spent.detail['cost']} credits. You have "
            f"{spent.credits} credits left."
        )

    async def repair(self, caller: Caller, ship: int | None, points: int | None) -> Reply:
        if points is not None and not 1 <= points <= 10**9:
            raise UserError("Repair 1 structure point or more (or leave `points` out: all).")
        _, _, events = await self._command(caller, Repair(ship=ship, points=points))
        spent = next(e for e in events if e.kind == "Spent")
        what = "your shipyard" if ship is None else f"ship {ship}"
        return Reply(
            text=f"Repaired {spent.detail['points']} structure points of {what} for "
            f"{spent.detail['cost']} credits. You have {spent.credits} credits left."
        )

    async def refit(self, caller: Caller, ship: int, parts: str) -> Reply:
        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        _, _, events = await self._command(caller, Refit(ship=ship, parts=_parts(view, parts)))
        spent = next(e for e in events if e.kind == "Spent")
        after = await self._view(seat, nation)
        found = next(s for s in after.fleets[nation] if s.id == ship)
        return Reply(
            text=f"Refitted {words.ship_line(after, found)} for {spent.detail['cost']} credits. "
            f"You have {spent.credits} credits left."
        )

    async def scrap(self, caller: Caller, ship: int) -> Reply:
        await self._command(caller, Scrap(ship=ship))
        return Reply(text=f"Ship {ship} is scrapped.")

    async def recruit(self, caller: Caller, units: str) -> Reply:
        """Land units bought at the shipyard: "7 space-cadet, 1 humvee" (ids or names)."""
        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        wanted = _land_units(view, units)
        _, _, events = await self._command(caller, Recruit(units=wanted))
        spent = next(e for e in events if e.kind == "Spent")
        table = words.rules_of(view).land_units
        army = ", ".join(
            f"{n} {table[u].name if u in table else u}" for u, n in spent.detail["army"].items()
        )
        return Reply(
            text=f"Recruited for {spent.detail['cost']} credits: your land army is {army} "
            f"(size {spent.detail['size']}). You have {spent.credits} credits left."
        )

    # --- orders --------------------------------------------------------------------------------

    async def move(self, caller: Caller, ships: str, to: str) -> Reply:
        ids = _ship_ids(ships)
        target = to.strip().lower()
        back = target in ("stay", "none", "cancel", "")
        if not back and not re.fullmatch(r"-?\d{1,3}\s*,\s*-?\d{1,3}", target):
            raise UserError(
                f"{to[:20]!r} is not a place: write it as the map does, `q,r` (like `1,-2`), "
                "or `stay` to take the orders back."
            )
        place = None if back else target.replace(" ", "")
        seat, nation, _ = await self._command(caller, Move(ships=ids, to=place))
        names = ", ".join(str(i) for i in ids)
        if place is None:
            return Reply(text=f"Ships {names} stay where they are.")
        return Reply(
            text=f"Ships {names} will move to {place} when the turn resolves "
            "(an unexplored place is scouted there).",
            refresh_game=seat.game.id,
        )

    async def retreat(self, caller: Caller, ship: int, on: bool) -> Reply:
        await self._command(caller, SetRetreat(ship=ship, on=on))
        if on:
            return Reply(text=f"Ship {ship} leaves its next battle after one round.")
        return Reply(text=f"Ship {ship} stays and fights in its next battle.")

    async def submit(self, caller: Caller) -> Reply:
        seat, nation, events = await self._command(caller, Submit())
        resolved = next((e for e in events if e.kind == "TurnResolved"), None)
        if resolved is not None:
            return Reply(
                text=f"Submitted: turn {resolved.turn} has resolved. Your report comes by DM.",
                refresh_game=seat.game.id,
            )
        view = await self._view(seat, nation)
        waiting = [c.name for c in view.captains.values() if not c.out and not c.submitted]
        return Reply(
            text="Submitted."
            + (f" Waiting for {', '.join(waiting)}." if waiting else "")
            + f" The turn resolves {await self._due(seat, view)}. Any command of yours "
            "before then takes the submission back.",
            refresh_game=seat.game.id,
        )

    async def _due(self, seat: Seat, view: View) -> str:
        if view.deadline is None:
            return "once every captain has submitted"
        row = await self.ctx.service.game(seat.game.id)
        at = RealClock.of_row(row, TICKS_PER_HOUR).real_time_of(view.deadline)
        if at is not None:
            return f"<t:{int(at)}:R> (or once every captain has submitted)"
        from bot.games.caldera.notices import span

        return f"in {span(view.deadline - view.tick)} of game time (or once every captain has submitted)"

    # --- reading -------------------------------------------------------------------------------

    async def status(self, caller: Caller) -> Reply:
        """The caller's own standing: credits, research, techs, hand, mission, shipyard,
        ships; and the shared zone, trust and event."""
        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        return Reply(text="\n".join(status_lines(view, nation)))

    async def starmap(self, caller: Caller) -> Reply:
        """The star map as everyone sees it (a picture), and the places in words."""
        from bot.games.caldera.pictures import draw_in_pool, star_map_of

        seat, nation = await self._seat(caller)
        view = await self._view(seat, nation)
        png = await draw_in_pool(star_map_of(view, title=seat.game.name))
        return Reply(text="\n".join(map_lines(view)), files=[("star-map.png", png)])

    async def ships(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """Autocomplete: the caller's ships."""
        try:
            seat, nation = await self._seat(caller)
        except UserError:
            return []
        view = await self._view(seat, nation)
        out = [(words.ship_line(view, s)[:100], str(s.id)) for s in view.fleets.get(nation, [])]
        typed = current.strip().lower()
        return [(n, v) for n, v in out if typed in n.lower()][:LIMIT]

    async def techs(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """Autocomplete: the caller's techs (for ship classes and parts)."""
        try:
            seat, nation = await self._seat(caller)
        except UserError:
            return []
        view = await self._view(seat, nation)
        deck = words.deck_of(view)
        mine = view.own[nation].techs
        head, _, last = current.rpartition(",")
        typed = last.strip().lower()
        out = []
        for tech in sorted(mine):
            name = words.tech_name(deck, tech)
            if typed in tech or typed in name.lower():
                value = f"{head}, {tech}" if head.strip() else tech
                out.append((value[:100], value[:100]))
        return out[:LIMIT]

    async def places(self, caller: Caller, current: str) -> list[tuple[str, str]]:
        """Autocomplete: where the caller's ships can go (with what it costs)."""
        try:
            seat, nation = await self._seat(caller)
        except UserError:
            return []
        view = await self._view(seat, nation)
        return reachable_places(view, nation, current)[:LIMIT]

    # --- the moderator -------------------------------------------------------------------------

    async def mod_turn(self, caller: Caller, now: bool = False, hours: float = 0.0) -> Reply:
        """`/mod turn`: resolve Caldera's turn now, or give the captains more time."""
        game = await set_deadline(
            self.ctx,
            caller,
            KIND,
            now,
            hours,
            TICKS_PER_HOUR,
            refused=lambda why: sentence(why) + " Nothing changed.",
        )
        if now:
            return announce(game, f"A moderator resolved the turn of {game.name} now.")
        return announce(game, f"A moderator gave the captains of {game.name} {hours:g} more hours.")


# --- words of a view -------------------------------------------------------------------------


def _research_cost(view: View, nation: str) -> int:
    from engine.caldera import captain as stats_

    me = view.own[nation]
    if me.research is None or me.stats is None:
        return 0
    tech = words.deck_of(view).techs[me.research]
    return stats_.research_cost(tech.research_cost, me.stats, words.rules_of(view))


def status_lines(view: View, nation: str) -> list[str]:
    me = view.own[nation]
    rules, deck = words.rules_of(view), words.deck_of(view)
    lines = [f"**Captain {view.captains[nation].name}**, turn {view.turn} ({view.phase})"]
    if me.stats is None:
        lines.append(
            f"Your stats are not set: `/captain character` ({rules.stats.points} points, "
            "Cha, Int and Eng at least 2)."
        )
    else:
        lines.append(
            "Stats: " + ", ".join(f"{rules.stats.names[s]} {me.stats.get(s)}" for s in STATS)
        )
    lines.append(f"Credits: {me.credits}.")
    if me.research:
        lines.append(
            f"Researching {words.tech_name(deck, me.research)}: {me.research_paid}/"
            f"{_research_cost(view, nation)} credits paid (`/captain fund`)."
        )
    lines.append("Techs: " + "; ".join(words.tech_line(view, t, n) for t, n in me.techs.items()))
    for h in me.hand:
        cards = "; ".join(words.card_label(view, h.kind, c) for c in h.cards)
        none = " (or none)" if h.optional else ""
        lines.append(f"Your {words.HANDS[h.kind]} cards{none}: {cards}.")
    if view.zone_hand:
        cards = "; ".join(words.card_label(view, "zone", c) for c in view.zone_hand)
        lines.append(f"Zone mission cards (any captain chooses, for all): {cards}.")
    if me.mission is not None:
        mission = rules.missions[me.mission - 1]
        lines.append(f"Your loyalty mission {mission.number}: {mission.text}.")
    lines.append(f"Missions done: {me.missions_done}; trust earned: {me.trust_earned}.")
    yard = me.shipyard
    fitted = ", ".join(words.tech_name(deck, p) for p in yard.parts) or "no weapons"
    lines.append(
        "Shipyard: destroyed."
        if yard.destroyed
        else f"Shipyard: {words.tech_name(deck, yard.klass)} class ({fitted}), "
        f"{yard.damage} damage; built this turn: {'yes' if me.built else 'no'}."
    )
    if me.land:
        table = rules.land_units
        army = ", ".join(
            f"{n} {table[u].name if u in table else u}" for u, n in me.land.items() if n
        )
        lines.append(f"Land army at the shipyard: {army}.")
    ships = view.fleets.get(nation, [])
    lines += [words.ship_line(view, s) for s in ships] or ["No ships yet (`/captain build`)."]
    lines.append(words.zone_line(view))
    event = words.event_line(view)
    if event:
        lines.append(event)
    lines.append("Submitted." if me.submitted else "Not submitted: `/captain submit` when done.")
    return lines


def map_lines(view: View) -> list[str]:
    """The star map in words: each known place with what is there (as everyone sees it)."""
    from engine.caldera import hexes

    lines = [f"**The star map**, turn {view.turn}. " + words.zone_line(view)]
    ships: dict[str, dict[str, int]] = {}
    for s in view.ships:
        here = ships.setdefault(s.at, {})
        here[s.owner] = here.get(s.owner, 0) + 1
    for place in hexes.sorted_places(set(view.map.tiles) | set(ships)):
        tile = view.map.tiles.get(place)
        what = "unexplored" if tile is None else _tile_words(tile)
        who = ", ".join(
            f"{words.owner_name(view, o)} {n}" for o, n in sorted(ships.get(place, {}).items())
        )
        lines.append(f"`{place}` {what}" + (f"; ships: {who}" if who else ""))
    return lines


def _tile_words(tile: object) -> str:
    kind = getattr(tile, "kind", None)
    text = getattr(kind, "value", str(kind))
    planet = getattr(tile, "planet", None)
    if planet is not None:
        text += f" ({getattr(planet, 'value', planet)})"
    rocks = getattr(tile, "asteroids", ())
    if rocks:
        text += f" ({', '.join(getattr(r, 'value', str(r)) for r in rocks)})"
    base = getattr(tile, "base", None)
    if base:
        text += f", base of {base}"
    return text


def reachable_places(view: View, nation: str, current: str) -> list[tuple[str, str]]:
    from engine.caldera import starmap
    from engine.caldera.ai import state_of
    from engine.caldera.window import engine_range

    state = state_of(view)
    me = view.own[nation]
    best: dict[str, int] = {}
    for ship in view.fleets.get(nation, []):
        reach = starmap.reachable(
            state.map, state.map_rules, ship.at, engine_range(state, me.techs, ship)
        )
        for place, cost in reach.items():
            best[place] = min(cost, best.get(place, cost))
    typed = current.strip()
    out = []
    for place in sorted(best, key=lambda p: (best[p], p)):
        known = "unexplored" if place not in view.map.tiles else "known"
        if typed in place:
            out.append((f"{place} ({known}, move cost {best[place]})", place))
    return out


def _tech_id(view: View, name: str | None) -> str:
    """A tech's id from its id or name as typed ("Laser cannon", "laser-cannon")."""
    deck = words.deck_of(view)
    typed = (name or "").strip().lower()
    for tech_id, tech in deck.techs.items():
        if typed in (tech_id, tech.name.lower(), tech.name.lower().replace(" ", "-")):
            return tech_id
    mine = ", ".join(sorted(view.own[view.nation or ""].techs)) if view.nation else ""
    raise UserError(f"There is no tech {(name or '')[:40]!r}: yours are {mine}.")


def _parts(view: View, text: str) -> list[str]:
    """Parts as typed: "nuclear-engine, 2 laser-cannon, plating" (a number: that many)."""
    out: list[str] = []
    for piece in re.split(r"[,;+]", text or ""):
        piece = piece.strip()
        if not piece:
            continue
        count = 1
        found = re.match(r"^(\d{1,2})\s*[x×]?\s+(.+)$", piece)
        if found:
            count, piece = int(found.group(1)), found.group(2)
        out += [_tech_id(view, piece)] * count
        if len(out) > MOST_PARTS:
            raise UserError(f"Name at most {MOST_PARTS} parts.")
    return out


def _land_units(view: View, text: str) -> dict[str, int]:
    """Land units as typed: "7 space-cadet, 1 Humvee" (a count, then an id or a name)."""
    table = words.rules_of(view).land_units
    out: dict[str, int] = {}
    for piece in re.split(r"[,;+]", text or ""):
        piece = piece.strip().lower()
        if not piece:
            continue
        found = re.match(r"^(\d{1,3})\s*[x×]?\s+(.+)$", piece)
        count, name = (int(found.group(1)), found.group(2)) if found else (1, piece)
        unit = next(
            (
                u
                for u, s in table.items()
                if name in (u, s.name.lower(), s.name.lower().replace(" ", "-"))
            ),
            None,
        )
        if unit is None:
            raise UserError(f"There is no land unit {name[:40]!r}: they are {', '.join(table)}.")
        out[unit] = out.get(unit, 0) + count
    if not out:
        raise UserError("Name the land units to recruit: `7 space-cadet, 1 humvee`.")
    return out


def _ship_ids(text: str) -> list[int]:
    numbers = re.findall(r"\d+", text or "")
    if not numbers or any(len(n) > 9 for n in numbers):
        raise UserError("Name your ships by their numbers (`/captain status` lists them): `3 4`.")
    ids = list(dict.fromkeys(int(n) for n in numbers))
    if len(ids) > 200:
        raise UserError("Name at most 200 ships.")
    return ids
