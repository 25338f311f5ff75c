from django.dispatch import Signal

# Sent once, after commit, when a record is adjudicated valid and its Game exists.
# Arguments: game_id, record_id, extensions (what higher apps attached at submission, e.g.
# {"match": 17}). Receivers live in higher apps (tournaments, ratings).
game_adjudicated = Signal()
