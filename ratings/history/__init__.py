"""A player's rating history as people read it: each change dated by the game behind it
(`dating`), and drawn as a chart (`charts`)."""
