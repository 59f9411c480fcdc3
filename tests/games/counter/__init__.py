"""The counter game: players add 1 to 3 to a shared counter. A whole game in a few small
modules, to show what adding a game takes: its core (`core`: the `GameKind`), its bot side
(`side`: words, help, creation options, the referee's view), its part of the desk (`desk`),
its DM wording (`teller`), its commands (`cogs`: `/add`, `/game create counter`), and one
registry line (`registration`)."""

NAME = "counter"  # its name in the registry of games (engine/interface/kind.py)
