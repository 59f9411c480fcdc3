"""Strategic Initiative's bot side: its commands (/move, /build, /map...), the wording of its
DMs and help, its creation options and its pictures (`side.SIDE`)."""

NAME = "strategic-initiative"  # its name in the registry of games (engine/interface/kind.py)
