"""Pictures of a Supply Lines game (`engine.supplylines`): the whole board, as every player sees
it (the game has no fog), for DMs and the game's channel.

    data = draw_board(view, title="Duel", turn_report=moved)        # PNG bytes
    data = await draw_board_in_pool(view, title="Duel")             # the same, in a worker

A picture is `size` pixels square (900 by default: Discord shows it at about 550, where its
smallest text is still about 9 pixels high). It shows:

- a header: the title, the turn and the phase, whose view it is (a player's, or a moderator's),
  the winner when the game is over, and a supply choice the viewer has to make;
- the roads, and each player's supply lines: a road between two structures of one player is
  drawn thick in their colour (their networks, `engine.supplylines.supply.networks`; a network
  with no refinery or home city in it sends no lines, and its roads stay thin);
- each structure as a shape by type (city: a circle, home city: a house, refinery: a diamond,
  military base: a square) filled in its owner's colour (grey: nobody's), with its label;
- the units in each structure as badges in their owner's colour ("3i", "1T"), one per type and
  number of marks, each mark a pip; immobile units (3 marks) on a dark badge with a red border;
  a red "!" where a player's network has fewer supply lines than its units need;
- the viewer's orders of this turn (a moderator: everyone's): moves as arrows in the player's
  colour with the units they take, builds as "+1T" badges;
- with a `TurnMoved` event, what the last turn did: moves as dashed arrows, moves stopped on a
  road (a head-on conflict lost or tied) as dashed arrows ending in a bar, conflicts as orange
  bursts (on the structure, or on the road), units bumped back as orange dashed arrows,
  captured structures ringed in magenta, units lost (destroyed, or disbanded over the PopCap)
  as "x1i" badges;
- a legend: the players (colour, structures held, PopCap used and owned, supply lines and what
  their units need, submitted or out) and what the shapes and signs mean.

Drawing is deterministic (the same view and event give the same bytes: everything is drawn in
label, seat and id order) and takes about 10-15 ms at 900 pixels. It is drawn as palette
indices (the kit's `renderers.palette`), so the PNG is a small palette PNG in which every
colour of the style and of the players is exact. `places` says where each structure is drawn
(tests, and anything that points at the picture, use it). `draw_board_in_pool` draws in the
drawing pool's workers (`renderers.pool`); a View and a TurnMoved pickle as they are.
`timelapse.timelapse` replays a whole game as an animated GIF.

The modules: `board` (the picture, in drawing order), `layout` (where each structure is),
`game` (what the picture reads from the game: supply networks, seats, colours), `orders` (this
turn's orders), `report` (the last turn), `badges` (what is next to a structure), `pen` (what
draws: shapes, lines, text, badges), `signs`, `header`, `legend`, `style` (Supply Lines'
colours, shapes and letters), `drawing` (in the pool's workers), `timelapse`.
"""

from renderers.supplylines.board import draw_board, render_board
from renderers.supplylines.drawing import draw_board_in_pool, draw_board_job
from renderers.supplylines.layout import Place, places
from renderers.supplylines.style import (
    BASE,
    CAPTURE,
    CONFLICT,
    IMMOBILE,
    LOST,
    QUESTION,
    ROAD,
)

__all__ = [
    "BASE",
    "CAPTURE",
    "CONFLICT",
    "IMMOBILE",
    "LOST",
    "QUESTION",
    "ROAD",
    "Place",
    "draw_board",
    "draw_board_in_pool",
    "draw_board_job",
    "places",
    "render_board",
]
