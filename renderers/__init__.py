"""Pillow pictures of a nation's view of the world: map snapshots, zoomed crops, timelapses."""
