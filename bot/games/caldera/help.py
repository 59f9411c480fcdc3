"""/help in a Caldera game: its rules, a topic a page, every number read from its ruleset
(data/rulesets/caldera/*.toml) and the starter deck (data/caldera/decks/starter.toml): the
seed's tables, as the game plays them. The topics are /help's own list (Discord keeps one list
of choices for every game): Caldera's pages are `start`, `captain`, `techs`, `starmap`,
`combat`, `missions`, `npcs` and `commands`."""

from __future__ import annotations

from engine.caldera.rules import Deck, Rules

# /help's topics -> their titles in Caldera
TITLES: dict[str, str] = {
    "start": "first steps",
    "captain": "Caldera: the captain, stats and starting bonuses",
    "techs": "Caldera: techs, cards and designs",
    "starmap": "Caldera: the star map, scouting and mining",
    "combat": "space battles",
    "missions": "Caldera: missions, trust and zones",
    "npcs": "Caldera: NPC friends and enemies",
    "commands": "the commands",
}


def _captain(rules: Rules) -> list[str]:
    s, e = rules.stats, rules.stats.effects
    least = ", ".join(f"{s.names[k]} {n}" for k, n in s.minimum.items() if n)
    bonuses = [f"- **{b.name}** ({b.id}): {b.cost} credits" for b in rules.bonuses]
    return [
        f"You share {s.points} points between six stats (at least: {least}), with "
        "`/captain character` in the first turn:",
        f"- **Charisma**: a mission and zone mission card for every {e.choice_points} points; "
        f"the zone counter starts {e.zone_time_per_cha} higher per point (the average).",
        f"- **Intelligence**: a research card for every {e.choice_points} points; research "
        f"{e.research_discount_percent}% cheaper per point (at most {e.most_discount_percent}%).",
        f"- **Engineering**: a design card for every {e.choice_points} points each turn; "
        f"building {e.build_discount_percent}% cheaper per point.",
        f"- **Rearmament**: +{e.damage_points_per_arm} damage per point on every hit (or "
        f"+{e.damage_percent_per_arm}%, the larger), defences +{e.defence_percent_per_arm}%.",
        f"- **Compaction**: +{e.space_percent_per_com}% space in ships, land army limit "
        f"+{e.land_limit_percent_per_com}%.",
        f"- **Economy**: +{e.income_percent_per_eco}% income and "
        f"+{e.reward_percent_per_eco}% mission credits per point.",
        f"You start with {rules.start.credits} credits, the techs "
        f"{', '.join(rules.start.techs)}, and a shipyard at Earth. Starting bonuses "
        "(`/captain bonus`, first turn only, as often as you pay):",
        *bonuses,
    ]


def _techs(rules: Rules, deck: Deck) -> list[str]:
    rows = []
    for category in ("class", "engine", "weapon", "defence", "utility"):
        for tech_id in deck.of_category(category):
            t = deck.techs[tech_id]
            extra = f" {t.weapon}" if t.weapon else ""
            if t.covers:
                extra = f" vs {'/'.join(t.covers)}"
            if t.structure:
                extra = f" {t.structure} SP"
            values = "/".join(str(v) for v in [t.base, *t.layouts])
            rows.append(
                f"- **{t.name}** ({category}{extra}) L{t.level}: research {t.research_cost}, "
                f"size {t.size}, build {t.build_cost}, values {values}"
            )
    return [
        "Each card has a number (1-6) and a tech. Research: choose a card "
        "(`/captain choose hand:research`), fund it (`/captain fund`); done, you draw the "
        "next. Each turn you draw design cards: buy one layout (a design step, "
        f"{rules.design.layouts} at most) for research cost / {rules.design.cost_divisor}.",
        "Values by layout 0-5 (a class: its space; an engine: its range; a weapon: its "
        "damage; a defence: what it stops; mining bots: minerals a turn):",
        *rows,
    ]


def _starmap(rules: Rules) -> list[str]:
    dist = "; ".join(
        f"layer {d.layer}: {d.step} (from Earth {d.from_earth}, half nebula {d.half_nebula}, "
        f"full {d.full_nebula})"
        for d in rules.map.distances
    )
    minerals = "; ".join(
        f"zone {m.zone}: small {m.small}, average {m.average}, huge {m.huge}, planet {m.planet}"
        for m in rules.map.minerals
    )
    events = "; ".join(f"{r.number} {r.title}" for r in rules.events)
    return [
        "Hexagonal tiles round Earth (`0,0`) in layers; places are written `q,r`. A ship "
        "moving into unexplored space (grey on the map) scouts it when the turn resolves: a "
        f"card is drawn for the event table ({events}) and a tile placed there.",
        f"Moving costs (an engine's range pays for it): {dist}.",
        f"Minerals a system gives a turn (times the number of captains): {minerals}. Mining "
        "ships (mining bots) mine where they stand, your shipyard mines Earth; no mining "
        "where an enemy ship is.",
        f"At most {rules.fleet.per_place} ships of one owner at a place (the newest arrivals "
        f"go back); at most {rules.fleet.move_group} move from one place to another a turn.",
    ]


def _combat(rules: Rules) -> list[str]:
    order = ", ".join(rules.battle.get("weapon_order", ()))
    return [
        "Ships of the captains and of an enemy at one place after the moves fight, nearest "
        "Earth first. Round 1 is interceptors, each round the next class joins; the shipyard "
        "joins last. Damage is simultaneous; defences stop the weapon types they cover.",
        f"A ship fires as many weapons a round as its class number; the AI picks the weapons "
        f"that deal most (ties: {order}).",
        "`/captain retreat ship:` makes a ship leave its next battle after one round, back "
        "where it came from. Each captain who fought gets the battle by DM, round by round.",
        f"Repairs at Earth cost {rules.repair.ship_per_sp} credits a structure point "
        f"({rules.repair.shipyard_per_sp} for the shipyard): `/captain repair`.",
        "**Land battle**: ships at an enemy homeworld with none of its ships left land your "
        "army (`/captain recruit` at the shipyard). Land units:",
        *(
            f"- **{u.name}** ({key}) L{u.level}: {u.hp} HP, {u.damage} damage, "
            f"{u.targets} targets, size {u.size}, {u.cost} credits"
            for key, u in rules.land_units.items()
        ),
    ]


def _missions(rules: Rules) -> list[str]:
    missions = [f"- {m.number} ({m.difficulty}): {m.text}" for m in rules.missions]
    rewards = [f"- {r.number} {r.grade} {r.text}" for r in rules.rewards]
    zones = [f"- {z.number} **{z.name}**: {z.text}" for z in rules.zone_missions]
    z = rules.zone_counter
    return [
        "**Loyalty missions** (scouting may offer one; by the card's number):",
        *missions,
        f"Each done: +{rules.trust.per_mission} trust, and reward cards:",
        *rewards,
        f"**The zone counter** starts at {z.base} + the average Charisma and falls by "
        f"{z.per_turn} a turn; at 0 a new zone opens (a new friend, stronger enemies, places "
        f"revealed). A zone mission done adds {z.per_zone_mission}. Zone missions:",
        *zones,
        f"The campaign is won with the zone mission of zone {rules.final_zone}, or every "
        "enemy found conquered; lost when every shipyard is destroyed.",
    ]


def _npcs(rules: Rules) -> list[str]:
    ais = [f"- {a.number} **{a.name}**: {a.text}" for a in rules.enemy_ai]
    friends = ", ".join(f"{f.name} (zone {f.zone})" for f in rules.npc_friends)
    return [
        f"Friends (one a zone): {friends}. Trust makes their fleets protect your shipyards "
        "and, higher, follow your control.",
        "Enemies are found by scouting; a card's number gives their AI type:",
        *ais,
    ]


COMMANDS = [
    "`/captain character` your stats (first turn), `/captain bonus` starting bonuses.",
    "`/captain choose hand: card:` a card of your hand (or the menus in your DMs); "
    "`/captain fund` research; `/captain build class: parts:` one ship a turn; "
    "`/captain shipyard` a larger yard or weapons in it; `/captain repair`, `refit`, `scrap`.",
    "`/captain recruit` land units for a homeworld's conquest. "
    "`/captain move ships: to:` orders carried out when the turn resolves; `/captain "
    "retreat`; `/captain submit` when done (any command after it takes it back).",
    "`/captain status` your credits, research, hand and ships (only you see them); "
    "`/captain map` the star map. A moderator: `/mod turn now:True` resolves the turn.",
]


def page(rules: Rules, deck: Deck, topic: str) -> str:
    """One help page (a /help topic; another game's topic says what Caldera has)."""
    title = TITLES.get(topic)
    if title is None:
        topics = ", ".join(f"`{k}`" for k in TITLES)
        return f"Caldera has no page on {topic}: its topics are {topics}."
    head = f"**Help: {title}** ({rules.title})"
    if topic == "start":
        body = [
            "Caldera is co-operative: the captains of Earth research, design and build "
            "starships, explore the star map tile by tile, mine it, take missions for the "
            "NPC factions' trust and fight the NPC enemies.",
            "Each turn you spend at once, privately (research, designs, a ship, the "
            "shipyard), give move orders, then `/captain submit`; the turn resolves at its "
            "deadline or once everyone has submitted: moves, the NPCs' turn, battles, "
            "scouting, the zone counter, income. You get a DM with the star map.",
            "More: `/help topic:captain`, `techs`, `starmap`, `combat`, `missions`, `npcs`, "
            "`commands`.",
        ]
    elif topic == "captain":
        body = _captain(rules)
    elif topic == "techs":
        body = _techs(rules, deck)
    elif topic == "starmap":
        body = _starmap(rules)
    elif topic == "combat":
        body = _combat(rules)
    elif topic == "missions":
        body = _missions(rules)
    elif topic == "npcs":
        body = _npcs(rules)
    else:
        body = COMMANDS
    return "\n".join([head, *body])
