"""The rules' mechanisms: movement, combat, supply, sight, and the rest, applied by `orders` and `clock`."""
