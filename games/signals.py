from django.dispatch import Signal

# Sent once, after commit, when a game's result first stands (games/reports.py) and its Game
# exists: a valid record both sides agreed, a ruling, or a report nobody answered in time.
# Arguments: game_id, record_id, extensions (what higher apps attached at submission, e.g.
# {"match": 17}). Receivers live in higher apps (tournaments, ratings).
game_adjudicated = Signal()

# Sent after commit when a new ruling changed the result of a game that already stood (after an
# organiser reopened it). Argument: game_id. Tournaments recounts the match game.
game_result_changed = Signal()
