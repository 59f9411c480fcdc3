"""Caldera's bot side: its commands (/captain), the wording of its DMs and help, its creation
options and its pictures (`side.SIDE`)."""

NAME = "caldera"  # its name in the registry of games (engine/interface/kind.py)
