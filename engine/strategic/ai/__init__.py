"""AI nations: they play through the same commands and the same fog-filtered view as humans.

`decide(view, memory, style)` (`brain`) is pure given its inputs (its dice are seeded from the
view's tick and nation). It never reads the world: it knows only what its nation may know.

The policy, in the order commands are issued (command points are spent on what matters most):
1. Diplomacy (`war`): answer war with war; accept an alliance when allied-free and the proposer
   is not its target; offer one to the strongest other nation it knows. Once the neutral cities
   it knows are nearly gone (or from day 4), and unless it is ahead of everyone it knows put
   together, it picks the weakest nation whose cities it knows, moves its army next to those
   cities while still at peace, and declares war once enough units stand ready (or after half
   a day), so the first blow falls on many cities at once.
2. Garrisons (`land`): one land unit per city, up to three where hostile land units stand near,
   two in cities close to an enemy city; they stay, and only fight from the city.
3. Fight (`fight`): aircraft and warships strike first (cities its land units stand next to,
   bombers the biggest stack, warships as often as their ammunition allows); then everything
   next to a hostile square attacks it in one command, so land units walk into a city the
   moment its garrison is down. A garrisoned city is assaulted only when the attack is expected
   to clear it (or four units stand ready); an empty enemy or neutral city is simply taken.
4. Cities (`builds`): designate and build by need (infantry and tanks in forts, transports as
   many as the units waiting for a ship need, battleships once it prepares war, fighters and
   heavy bombers in an airport, engineers and research in the tech centre), never wasting
   progress. At war, a city building land units whose garrison is whole sends them next to
   the nearest enemy city on its island by a waypoint (`/waypoint`: one city order, and each
   new unit sets out at once; cleared when no enemy city is left there or the garrison is
   short).
5. Engineers found cities on open land near home: idle command points become cities (`land`).
6. Expand (`land`): idle land units go next to the nearest city to take on their island (a few
   per neutral city, more per enemy city), working out islands from the known map (`known`).
7. Across the water (`sealift`): transports take idle units aboard in port or off a beach, sail
   to a landing next to an overseas target they can reach, and put their cargo ashore (or take
   an empty city straight from the ship).
8. Scout (`land`): zeppelins and idle units head for the nearest squares never seen (land units
   only where they can walk).

Styles (`profile.PROFILES`: what each does, and the numbers above, are fields of its profile):
`normal` (orders every second game hour); `easy` (the same, but orders only every third game
hour, founds no cities, offers no alliances, builds no battleships for war and no heavy
bombers); `caretaker` (defence first, every hour: builds, garrisons, fights back without
waiting for the odds, starts no war, sends nobody abroad or to the front, neither expands
nor scouts);
`expand` (the naive expander the AI is measured against: infantry and transports only, one
port, loads in port only, never starts a war); `passive` (no orders).
"""

from engine.strategic.ai.brain import (
    EVERY_HOURS,
    LEVELS,
    STYLES,
    Decision,
    Memory,
    decide,
    failed,
    resting,
)
from engine.strategic.ai.profile import PROFILES, Profile

__all__ = [
    "EVERY_HOURS",
    "LEVELS",
    "PROFILES",
    "STYLES",
    "Decision",
    "Memory",
    "Profile",
    "decide",
    "failed",
    "resting",
]
