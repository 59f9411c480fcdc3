"""Each game's bot side, one subpackage per game (`bot.game_side.GameSide`), found by name in
the registry of games (`engine.interface.kind.KINDS`). The shell imports none of them."""
