"""The host: one service, store, clock and background loops for every game kind."""
