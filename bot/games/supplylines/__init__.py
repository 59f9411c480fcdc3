"""Supply Lines' bot side: its commands (/orders), the wording of its DMs and help, its creation
options and its pictures (`side.SIDE`)."""

NAME = "supply-lines"  # its name in the registry of games (engine/interface/kind.py)
