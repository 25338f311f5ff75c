"""A player's home (issue 28): what waits for a signed-in player, read from every app.

The home reads matches and events (tournaments), reports and disputes (games) and ratings
(ratings), so it lives in the one app that may import the three: a room of `tournaments`
(docs/architecture.md, "A player's home"). `selectors` reads, `views` and `api` are thin.
"""
