from django.dispatch import Signal

# Sent once, after commit, when a record is adjudicated valid and its Game exists.
# Arguments: game_id, record_id. Receivers live in higher apps (tournaments, ratings).
game_adjudicated = Signal()
