"""Caldera's events as short English lines for a captain's DM, from the captain's side, and the
select menus of their hands of cards. Pure functions but the picture, drawn in the pool.

What each event tells (the engine names who may learn of each: a captain's hand, credits and
income go to them alone; the star map, NPCs, trust and zone to everyone):

game
  Joined, Left, Started (big: the star map), GameOver (big): told.
  HandDrawn: the captain's own cards to choose from, with a select menu under the message
    (the choice answers it; `/captain choose` does the same).
  ZoneHand: the zone mission cards, to every captain, with a menu (any captain chooses).
  ResearchDone, Spent: the reply to the captain's own command told them: never by DM.
  Income: the captain's own mining and credits.
  MissionDone, ZoneChanged: told to everyone (a mission's trust, a new zone's mission).
  DeadlineMoved: told.
  DeadlineNear: to the captains who have not submitted (category "reminders").
combat
  TurnResolved: big (the star map after the turn): the moves, the battles' places, the
    scouting results, NPCs found, the zone counter, the event card, the next deadline.
  BattleReport: to the captains whose ships fought: round by round, every salvo and hit.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any

from bot import turnbased
from bot.dm.delivery import Menu
from bot.dm.text import DISCORD_LIMIT
from engine.caldera import events as ev
from engine.caldera.state import TICKS_PER_HOUR
from engine.host.rows import GameRow
from engine.interface.events import Event

log = logging.getLogger(__name__)

CATEGORY: dict[type[Event], str] = {
    ev.Joined: "game",
    ev.Left: "game",
    ev.Started: "game",
    ev.HandDrawn: "game",
    ev.ZoneHand: "game",
    ev.Spent: "game",
    ev.ResearchDone: "tech",
    ev.TurnResolved: "combat",
    ev.BattleReport: "combat",
    ev.LandReport: "combat",
    ev.Income: "builds",
    ev.MissionDone: "game",
    ev.ZoneChanged: "game",
    ev.DeadlineNear: "reminders",
    ev.DeadlineMoved: "game",
    ev.GameOver: "game",
}
MENU_OPTIONS = 25  # Discord: the options of one select menu
NONE = "none"  # a menu's value taking no card


def span(ticks: int) -> str:
    """Ticks (a quarter of a game hour each) as a duration: "24 hours", "45 minutes"."""
    return turnbased.span(ticks, TICKS_PER_HOUR)


class _Names:
    def __init__(self, nation: str, names: dict[str, str]) -> None:
        self.nation = nation
        self.names = names

    def who(self, owner: str | None) -> str:
        if owner is None:
            return "nobody"
        if owner == self.nation:
            return "you"
        return self.names.get(owner, owner)

    def Who(self, owner: str | None) -> str:  # noqa: N802 - a sentence's first word
        found = self.who(owner)
        return found[:1].upper() + found[1:]


def describe(event: Event, nation: str, names: dict[str, str]) -> list[str]:
    """The lines telling `nation` of one event (none: nothing for it)."""
    if nation not in event.to:
        return []
    n = _Names(nation, names)
    match event:
        case ev.Joined():
            if event.captain == nation:
                return [f"You joined as captain {event.name} (seat {event.seat})."]
            return [f"{event.name} joined (seat {event.seat})."]
        case ev.Left():
            return [f"{n.Who(event.captain)} left the game."]
        case ev.Started():
            due = (
                "it resolves once every captain has submitted"
                if event.deadline is None
                else f"it resolves in {span(event.deadline - event.tick)}"
                + (", or once every captain has submitted" if event.early else "")
            )
            return [
                "The campaign has started; turn 1 is your setup: `/captain character`, then "
                f"bonuses, cards (the menus), ships, `/captain submit`. Turn 1: {due}."
            ]
        case ev.HandDrawn():
            return [_hand(event)]
        case ev.ZoneHand():
            return [
                f"The zone mission is to choose ({len(event.cards)} card"
                f"{'s' if len(event.cards) != 1 else ''}, any captain "
                "chooses for everyone): the menu below, or `/captain choose hand:zone`."
            ]
        case ev.Income():
            where = ", ".join(f"{m} at {p}" for p, m in event.mined.items() if m)
            return [
                f"Income: {event.credits} credits"
                + (f" (mined {where})" if where else " (nothing mined)")
                + f"; you have {event.total}."
            ]
        case ev.TurnResolved():
            return _resolved(event, n)
        case ev.BattleReport():
            return _battle(event, n)
        case ev.LandReport():
            return _land(event, n)
        case ev.MissionDone():
            return [_mission(event, n)]
        case ev.ZoneChanged():
            revealed = (
                f" {len(event.revealed)} places revealed round the map." if event.revealed else ""
            )
            mission = f" Its zone mission is number {event.mission}." if event.mission else ""
            return [
                f"Zone {event.zone} has opened: a new friend, the enemies grow stronger."
                f"{revealed}{mission} The zone counter starts at {event.zone_counter}."
            ]
        case ev.DeadlineNear():
            return [
                f"Reminder: turn {event.turn} resolves in {span(event.deadline - event.tick)} "
                "and you have not submitted: `/captain submit` when done. "
                "`/notify mute:reminders` pings you in the game's channel instead."
            ]
        case ev.DeadlineMoved():
            return [
                f"A moderator gave more time: turn {event.turn} resolves in "
                f"{span(event.deadline - event.tick)}."
            ]
        case ev.GameOver():
            return [_over(event, n)]
    return []  # Spent, ResearchDone: the reply to the captain's own command told them


def _hand(e: ev.HandDrawn) -> str:
    what = {
        "research": "Choose your next research",
        "design": "Choose a design to buy this turn (or none)",
        "mission": "Choose your loyalty mission",
        "reward": "Choose your mission reward",
        "tech": "Choose a tech to buy at half price (or none)",
    }.get(e.hand, f"Choose a {e.hand} card")
    cards = f"{len(e.cards)} card{'s' if len(e.cards) != 1 else ''}"
    return f"{what}: {cards}, in the menu below (or `/captain choose hand:{e.hand}`)."


def _resolved(e: ev.TurnResolved, n: _Names) -> list[str]:
    me = n.nation
    lines = [f"Turn {e.turn} has resolved."]
    mine = [m for m in e.moved if m["owner"] == me]
    if mine:
        legs = ", ".join(f"ship {m['ship']} {m['src']} > {m['dst']}" for m in mine)
        lines.append(f"Your moves: {legs}.")
    others: dict[str, int] = {}
    for m in e.moved:
        if m["owner"] != me:
            others[m["owner"]] = others.get(m["owner"], 0) + 1
    if others:
        lines.append(
            "Also moving: "
            + ", ".join(f"{n.who(o)} {k} ship{'s' if k > 1 else ''}" for o, k in others.items())
            + "."
        )
    for r in e.returned:
        if r["owner"] == me:
            lines.append(
                f"Over the fleet limit at {r['src']}: your ship {r['ship']} went back to "
                f"{r['dst']}."
            )
    if e.battles:
        lines.append("Battles at " + ", ".join(b["at"] for b in e.battles) + ".")
    for s in e.scouted:
        who = "" if s.get("by") is None else f" ({n.who(s['by'])})"
        result = {
            "enemy-base": "an enemy base",
            "heavy-enemy": "heavy enemy presence",
            "enemy": "enemy presence",
            "mission": "a loyalty mission",
            "empty": "an empty system",
            "none": "nothing could be placed",
        }.get(str(s.get("result")), str(s.get("result")))
        lines.append(f"Scouted {s['at']}{who}: {result}.")
    if e.npcs:
        lines.append("New NPCs on the map: " + ", ".join(e.npcs) + ".")
    lines += npc_lines(e.npc_turn, n)
    for m in e.missions:
        if m["captain"] is None:
            lines.append("The zone mission is done!")
    lines.append(
        f"Zone {e.zone}, zone counter {e.zone_counter}"
        + (" (a new zone opened)" if e.zone_changed else "")
        + f", trust {e.trust}."
    )
    if e.ended:
        return lines
    if e.deadline is not None:
        lines.append(f"Turn {e.turn + 1} resolves in {span(e.deadline - e.tick)}.")
    else:
        lines.append(f"Turn {e.turn + 1} resolves once every captain has submitted.")
    return lines


def npc_lines(actions: list[dict[str, Any]], n: _Names) -> list[str]:
    """Each NPC's turn in a line, in the order they played (the map is shared: every
    captain sees their ships)."""
    by_npc: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_npc.setdefault(str(a.get("npc")), []).append(a)
    lines = []
    for acts in by_npc.values():
        first = acts[0]
        who = str(first.get("name") or first.get("npc"))
        if first.get("ai"):
            who += f" ({first['ai']})"
        did: list[str] = []
        moves = [a for a in acts if a.get("did") == "move"]
        if moves:
            legs = ", ".join(f"{a['src']} > {a['dst']}" for a in moves[:6])
            more = f" and {len(moves) - 6} more" if len(moves) > 6 else ""
            did.append(f"moved {len(moves)} ship{'s' if len(moves) > 1 else ''} ({legs}{more})")
        for a in acts:
            match a.get("did"):
                case "send":
                    did.append(f"sent {len(a.get('ships', []))} ships towards {a.get('to')}")
                case "built":
                    where = f" at {a['at']}" if a.get("at") else ""
                    klass = str(a.get("class"))
                    article = "an" if klass[:1] in "aeiou" else "a"
                    did.append(f"built {article} {klass}{where}")
                case "protect":
                    did.append(f"ship {a.get('ship')} guards Earth")
                case "control":
                    did.append(f"ship {a.get('ship')} follows {n.who(a.get('captain'))}")
                case "repairs" | "repaired":
                    did.append(f"ship {a.get('ship')} {a['did']}")
        if did:
            lines.append(f"{who}: {'; '.join(did)}."[:290])
    return lines


def _ship(ship: int) -> str:
    return "a shipyard" if ship < 0 else f"ship {ship}"


def _battle(e: ev.BattleReport, n: _Names) -> list[str]:
    outcome = {
        "captains": "the captains won",
        "enemy": "the enemy won",
        None: "nobody held the field",
    }.get(e.winner, str(e.winner))
    lines = [f"**Battle at {e.at}**: {outcome}."]
    for r in e.rounds:
        fired = [
            f"{n.who(s['side'])} {s['hits']}x {s['weapon']} ({s['damage']} each)"
            for s in r.get("salvos", [])
        ]
        hits = [
            f"{n.who(d['side'])}'s {_ship(d['ship'])} -{d['points']}"
            + (f" ({d['absorbed']} absorbed)" if d.get("absorbed") else "")
            + f", {max(0, d['structure'])} left"
            for d in r.get("damage", [])
        ]
        lines += _wrapped(f"Round {r['number']} fire: ", fired or ["none"])
        if hits:
            lines += _wrapped(f"Round {r['number']} hits: ", hits)
        gone = [_ship(i) for i in r.get("destroyed", [])]
        if gone:
            lines += _wrapped(f"Round {r['number']} destroyed: ", gone)
        left = [_ship(i) for i in r.get("left", [])]
        if left:
            lines += _wrapped(f"Round {r['number']} retreated: ", left)
    if e.destroyed:
        lines.append("Destroyed in all: " + ", ".join(_ship(i) for i in e.destroyed) + ".")
    if e.retreated:
        lines.append("Retreated: " + ", ".join(_ship(i) for i in e.retreated) + ".")
    return lines


def _land(e: ev.LandReport, n: _Names) -> list[str]:
    """A land battle for a homeworld, step by step (each side's stacks striking at once)."""
    outcome = "taken" if e.won else "held"
    lines = [
        f"**Land battle at {e.at}**: {n.who(e.captain)} against {e.npc}: the homeworld is {outcome}."
    ]
    for step in e.steps:
        strikes = [
            f"{n.who(s['side'])} {s['count']} {s['unit']} hit {s['target']} (killed {s['killed']})"
            for s in step.get("strikes", [])
        ]
        lines += _wrapped(f"Cycle {step['cycle']} step {step['number']}: ", strikes or ["none"])
    left = [
        f"{n.who(side)} " + ", ".join(f"{k} {unit}" for unit, k in army.items() if k)
        for side, army in e.armies.items()
    ]
    if left:
        lines += _wrapped("Left standing: ", left)
    return lines


def _wrapped(head: str, items: list[str], room: int = 280) -> list[str]:
    """`head` and the items joined by "; ", in lines of at most `room` characters (a DM's
    line is clipped beyond 300)."""
    lines: list[str] = []
    current = head
    for item in items:
        piece = item[: room - len(head)]
        if current != head and len(current) + 2 + len(piece) > room:
            lines.append(current + ";")
            current = head + piece
        else:
            current += ("" if current == head else "; ") + piece
    lines.append(current + ".")
    return lines


def _mission(e: ev.MissionDone, n: _Names) -> str:
    if e.captain is None:
        return f"The zone mission {e.mission} is done: the zone counter goes up. Trust {e.trust}."
    rewards = ", ".join(str(r) for r in e.rewards) or "none"
    who = "You" if e.captain == n.nation else n.who(e.captain)
    return (
        f"{who} completed loyalty mission {e.mission}: the captains' trust is {e.trust} "
        f"(reward cards {rewards})."
    )


def _over(e: ev.GameOver, n: _Names) -> str:
    result = {
        "won": "the captains have won",
        "lost": "the captains have lost: every shipyard is destroyed",
        "time": "its time is up",
        "moderator": "a moderator ended it",
    }.get(e.result, e.result)
    ranks = "; ".join(
        f"{i}. {n.who(s['captain'])} ({s['missions']} missions, {s['trust']} trust, "
        f"{s['destroyed']} ships destroyed)"
        for i, s in enumerate(e.standings, 1)
    )
    return f"The campaign is over: {result}." + (f" Standings: {ranks}." if ranks else "")


def card_menu_id(game_id: int, hand: str) -> str:
    """The custom id of a hand's menu (`bot.games.caldera.card_select` answers it)."""
    return f"cal:card:{game_id}:{hand}"


class CalderaTeller(turnbased.TurnTeller):
    kind = "caldera"
    title = "Caldera"
    urgent = frozenset({"Started", "GameOver"})

    def parse(self, data: dict[str, Any]) -> Event:
        return ev.event_from_dict(data)

    def category(self, event: Event, nation: str | None = None) -> str:
        return CATEGORY.get(type(event), "game")

    def is_big(self, event: Event, nation: str) -> bool:
        return nation in event.to and isinstance(event, ev.TurnResolved | ev.Started | ev.GameOver)

    def outdated(self, event: Event, view: Any) -> bool:
        """A reminder held back is not told once its turn has resolved or the captain has
        submitted meanwhile."""
        if not isinstance(event, ev.DeadlineNear):
            return False
        me = view.captains.get(view.nation)
        return view.turn != event.turn or me is None or me.submitted

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
        resolved = max((e.turn for e in events if isinstance(e, ev.TurnResolved)), default=0)
        kept = [
            e
            for e in turnbased.current(events, resolved)
            # the captain's own command's reply told them (but a hand: its menu comes here)
            if not (id(e) in answered and not isinstance(e, ev.HandDrawn | ev.ZoneHand))
        ]
        lines = [line for e in kept for line in describe(e, nation, names)]
        if not lines:
            return []
        return self.packed(lines, clock, limit)

    async def picture(
        self, view: Any, title: str, events: list[Event], *, colours: str = "nation"
    ) -> bytes | None:
        """The star map after the turn (the map is shared: everyone's is the same), with the
        turn's battles."""
        from bot.games.caldera.pictures import draw_in_pool, star_map_of

        battles = [b["at"] for e in events if isinstance(e, ev.TurnResolved) for b in e.battles]
        try:
            return await draw_in_pool(star_map_of(view, title=title, battles=battles))
        except Exception:
            log.exception("drawing the star map for %s failed", view.nation)
            return None

    def menus(
        self, events: list[Event], nation: str, game_id: int, *, game: GameRow | None = None
    ) -> list[Menu]:
        """A menu for each hand drawn for the captain (the latest of each), and one for the
        zone mission cards: choosing answers it. The cards' labels read the game's own deck
        and rules (`game`'s settings; the starter deck and the standard rules without it)."""
        from bot.games.caldera.words import menu_labels

        deck = str((game.settings if game else {}).get("deck") or "starter")
        ruleset = game.ruleset if game else "standard"
        hands: dict[str, tuple[list[str], bool]] = {}
        for e in events:
            if nation not in e.to:
                continue
            if isinstance(e, ev.HandDrawn) and e.captain == nation:
                hands[e.hand] = (e.cards, e.hand in ("design", "tech"))
            elif isinstance(e, ev.ZoneHand):
                hands["zone"] = (e.cards, False)
        menus = []
        for hand, (cards, optional) in list(hands.items())[:5]:
            labels = menu_labels(hand, cards, deck=deck, ruleset=ruleset)
            options = [(labels[c][:100], c, False) for c in cards[: MENU_OPTIONS - 1]]
            if optional:
                options.append(("None: take no card", NONE, False))
            menus.append(
                Menu(
                    custom_id=card_menu_id(game_id, hand),
                    placeholder=f"Choose: {hand}"[:150],
                    options=tuple(options),
                    min_values=1,
                    max_values=1,
                )
            )
        return menus

    async def welcome(
        self, service: Any, game: Any, summary: Any, nation: str, joined: Event
    ) -> str:
        raise AssertionError("a Caldera captain's joining is told in the digest")

    def sitrep(self, game_name: str, view: Any) -> str:
        raise AssertionError("Caldera has no daily situation report")


TELLER = CalderaTeller()
