"""What sets the AI's styles apart, and the numbers it plays by: one frozen `Profile` per style
(in the spirit of the original game's `BotWeights`). The yes/no fields are what a style does
at all; the numbers are tuning, the same for every style that plays (only `every_hours`
differs). The code reads these fields, never the style's name."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Profile:
    """One AI style. The defaults are the `normal` AI."""

    # --- what the style does ---------------------------------------------------------------
    every_hours: int = 2  # game hours between two decisions (units on standing orders walk on)
    gives_orders: bool = True  # False: no orders at all
    founds_cities: bool = True  # engineers found cities near home
    expands: bool = True  # idle land units go next to the cities to take on their island
    goes_abroad: bool = True  # transports carry idle land units to overseas targets
    scouts: bool = True  # zeppelins and idle land units head for squares never seen
    makes_alliances: bool = True  # offers alliances, leaves an ally grown too big (all accept)
    starts_wars: bool = True  # prepares and declares war (every style answers war with war)
    waits_to_assault: bool = True  # assaults a garrisoned city only when the odds are good
    builds_tanks: bool = True  # forts build tanks as well as infantry
    builds_warships: bool = True  # ports build warships once they have the transports wanted
    warships_for_war: bool = True  # ports build battleships while it prepares or makes war
    builds_bombers: bool = True  # airports build heavy bombers as well as fighters
    builds_airport: bool = True  # designates an airport once it has enough cities
    builds_engineers: bool = True  # the tech centre builds engineers (city founders)
    launches_icbms: bool = True  # two-part ICBMs (ruleset total-war): builds and launches them
    more_ports: bool = True  # more than one port once many units wait for a ship
    naive_loading: bool = False  # transports load in port only and go back to the nearest port
    sends_builds_to_front: bool = True  # at war, builds go to the front by a city's waypoint

    # --- fight -----------------------------------------------------------------------------
    assault_odds: float = 0.8  # expected damage / defenders' hp at which a city is assaulted
    assault_group: int = 4  # units ready next to a city that assault it whatever the odds
    bomber_percent: int = 25  # bomb percent from which an aircraft is sent as a bomber

    # --- diplomacy and war -----------------------------------------------------------------
    alliance_from_day: int = 2  # game day from which it offers an alliance
    leave_ally_from_day: int = 6  # game day from which it leaves an ally grown too big
    leave_ally_ratio: int = 2  # ...an ally with more than this many times its cities
    war_from_day: int = 2  # game day before which it prepares no war
    war_by_day: int = 4  # ...nor before this day while neutral cities are left to take
    neutral_left: int = 2  # neutral cities known at most for "none left to take"
    target_measured_from: int = 3  # own cities (lowest squares) a target's distance counts from
    war_ready_per_city: int = 2  # units ready next to the target's cities per city to declare
    war_ready_min: int = 4  # ...but at least this many
    war_ready_max: int = 12  # ...and at most this many
    staging_hours: int = 12  # game hours of staging after which it declares war anyway

    # --- garrisons -------------------------------------------------------------------------
    garrison: int = 1  # land units held in every city
    garrison_threat_extra: int = 2  # at most this many more, one per hostile land unit near
    threat_radius: int = 2  # distance at which a hostile land unit threatens a city
    garrison_frontline: int = 2  # land units held in a city near an enemy city
    frontline_radius: int = 6  # distance of an enemy city that makes a city frontline
    garrison_call_radius: int = 12  # a city short of its garrison calls idle units this near

    # --- expansion and new cities ----------------------------------------------------------
    expand_radius: int = 40  # farthest city an idle land unit sets out for
    expand_choices: int = 12  # nearest cities weighed for each idle land unit
    per_neutral_city: int = 3  # land units sent next to a neutral city
    per_enemy_city: int = 6  # land units sent next to an enemy city
    site_spacing: int = 2  # a new city stands farther than this from any known city
    home_radius: int = 6  # engineers found cities within this distance of an own city first
    site_choices: int = 3  # nearest sites an engineer tries to move to
    engineers_max: int = 3  # engineers kept at most
    cities_per_engineer: int = 8  # one engineer more (beyond the first) per this many cities

    # --- builds ----------------------------------------------------------------------------
    tank_share: float = 0.6  # chance a fort builds a tank rather than infantry
    transports_extra: int = 2  # transports beyond the first for waiting units: at most this
    cities_per_transport: int = 3  # ...plus one per this many cities
    transports_per_battleship: int = 2  # a battleship for war per this many transports
    airport_cities: int = 4  # cities it has before it designates an airport
    zeppelins: int = 2  # zeppelins it keeps while its tech is low
    zeppelin_tech: float = 2  # tech level from which it builds no more zeppelins
    port_loads_waiting: int = 2  # shiploads of units waiting before it wants more ports
    cities_per_port: int = 6  # ...then one port more per this many cities

    # --- two-part ICBMs and wastelands (ruleset total-war) ------------------------------------
    icbm_pairs: int = 2  # missile bases (and as many warheads) it keeps at most
    icbm_min_chance: int = 75  # chance to hit (its own ICBM defence as the target's) to launch
    icbm_min_cities: int = 1  # enemy cities a launch must turn into wasteland
    invest_reserve: int = 256  # command points it keeps when it invests in a recovering city
    # --- sealift ---------------------------------------------------------------------------
    loading_hours: int = 6  # game hours a part-loaded transport waits for units on their way
    port_pull: int = 3  # squares of detour a port is worth per idle unit that can walk to it
    pickup_choices: int = 3  # nearest pick-up spots an empty transport tries
    landing_range: int = 2  # distance to its target from which a transport lands its cargo
    dock_choices: int = 4  # water squares next to a target a transport tries to reach

    # --- scouting and memory ---------------------------------------------------------------
    scout_reach: int = 30  # farthest unknown square a land unit or ship scouts
    scout_choices: int = 8  # nearest unknown squares a scout picks one from at random
    retry_days: int = 1  # game days before a rejected move is tried again
    islands_every_hours: int = 4  # game hours between two workings out of the islands


NORMAL = Profile()
PROFILES: dict[str, Profile] = {
    "normal": NORMAL,
    # slower and milder: no new cities, no alliances offered, no battleships or bombers
    "easy": replace(
        NORMAL,
        every_hours=3,
        founds_cities=False,
        makes_alliances=False,
        warships_for_war=False,
        builds_bombers=False,
    ),
    # a player's nation while they are away: defence first, every hour
    "caretaker": replace(
        NORMAL,
        every_hours=1,
        founds_cities=False,
        expands=False,
        goes_abroad=False,
        scouts=False,
        makes_alliances=False,
        starts_wars=False,
        waits_to_assault=False,
        warships_for_war=False,
        builds_bombers=False,
        sends_builds_to_front=False,
        launches_icbms=False,
    ),
    # the naive expander the AI is measured against
    "expand": replace(
        NORMAL,
        every_hours=1,
        founds_cities=False,
        makes_alliances=False,
        starts_wars=False,
        builds_tanks=False,
        builds_warships=False,
        warships_for_war=False,
        builds_bombers=False,
        builds_airport=False,
        builds_engineers=False,
        launches_icbms=False,
        more_ports=False,
        naive_loading=True,
        sends_builds_to_front=False,
    ),
    "passive": replace(NORMAL, every_hours=1, gives_orders=False),
}
STYLES = tuple(PROFILES)
# Game hours between two decisions of a style. An hour is four ticks: a unit on a standing
# order walks on meanwhile, and deciding every second hour halves what the AI costs.
EVERY_HOURS = {style: p.every_hours for style, p in PROFILES.items()}
