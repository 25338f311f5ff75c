from django.dispatch import Signal

# Sent once, after commit, when a game's result first stands (games/reports/results.py) and its Game
# exists: a valid record both sides agreed, a ruling, or a report nobody answered in time.
# Arguments: game_id, record_id, extensions (what higher apps attached at submission, e.g.
# {"match": 17}). Receivers live in higher apps (tournaments, ratings).
game_adjudicated = Signal()

# The same, once for games whose results stood together (a batch of records adjudicated in one
# transaction, games/adjudication/services.py), so receivers can take them in one go. Argument:
# games, a list of (game_id, record_id, extensions). A receiver connects to both signals.
games_adjudicated = Signal()

# Sent after commit when a new ruling changed the result of a game that already stood (after an
# organiser reopened it). Argument: game_id. Tournaments recounts the match game.
game_result_changed = Signal()

# Sent INSIDE the transaction that changed the result of a game that already stood (a new ruling
# after a reopening, an accepted re-adjudication), before game_result_changed. Argument: game_id.
# Receivers that keep state derived from the result (ratings) update it in the same transaction,
# so the new result and everything computed from it commit together or not at all; a receiver's
# error aborts the change (``send``, not ``send_robust``).
game_result_rewritten = Signal()
