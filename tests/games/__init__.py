"""Games made for the tests, each a plugin of every layer like the real ones (its core, its bot
side), registered by a test for as long as it needs them (`tests.games.counter.registration`)."""
