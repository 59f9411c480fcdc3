"""`python -m bot`: run the Discord bot (settings from the environment or .env)."""

import sys

from bot.client import run

sys.exit(run())
