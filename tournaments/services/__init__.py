"""Writes for championships, one module per responsibility; the names are re-exported here.

Every service is one transaction; every organiser, controller or worker change leaves an
audit entry. The algorithms (charts, pairings, TPs, match state) live in `tournaments.formats`,
the reads in `tournaments.selectors`.

Modules, lowest first (each imports only those above it):
`audit`, `access`, `rounds` (match and round rows), `swiss_rounds`, `progression` (deciding
matches, advancing, finishing events), `championships`, `registration` (entries, seeding),
`pairs` (doubles registration), `teams` (teams, rosters, lineups), `draws`, `draw_preview`
(the draw shown before it is stored), `results`
(counting games, TPs, penalties),
`rulings` (rulings, walkovers, deadlines), `qualifiers`.
"""

from tournaments.matches.services.results import (
    match_game_attach,
    match_penalty_claim,
    validate_match_submission,
)
from tournaments.matches.services.rulings import (
    deadlines_process,
    match_rule,
    match_walkover_claim,
    round_deadline_set,
)
from tournaments.services.audit import audit
from tournaments.services.championships import (
    EVENT_FIELDS,
    championship_create,
    championship_staff_set,
    championship_update,
    event_create,
    event_registration_set,
)
from tournaments.services.draw_preview import DrawPreview, PreviewOutdated, draw_make, draw_preview
from tournaments.services.draws import draw_generate
from tournaments.services.progression import sync_match
from tournaments.services.qualifiers import qualifiers_advance
from tournaments.services.registration import (
    age_confirm,
    entry_register,
    entry_withdraw,
    event_seed,
)
from tournaments.services.rounds import DRAW_START_WINDOW
from tournaments.sides.services.pairs import pair_confirm, pair_decline, pair_register
from tournaments.sides.services.teams import (
    round_lineup_deadline_set,
    team_create,
    team_enter,
    team_officers_set,
    team_roster_set,
)

__all__ = [
    "DRAW_START_WINDOW",
    "EVENT_FIELDS",
    "audit",
    "championship_create",
    "championship_staff_set",
    "championship_update",
    "deadlines_process",
    "DrawPreview",
    "PreviewOutdated",
    "draw_generate",
    "draw_make",
    "draw_preview",
    "age_confirm",
    "entry_register",
    "entry_withdraw",
    "event_create",
    "event_registration_set",
    "event_seed",
    "match_game_attach",
    "match_penalty_claim",
    "match_rule",
    "match_walkover_claim",
    "pair_confirm",
    "pair_decline",
    "pair_register",
    "qualifiers_advance",
    "round_deadline_set",
    "round_lineup_deadline_set",
    "team_create",
    "team_enter",
    "team_officers_set",
    "team_roster_set",
    "sync_match",
    "validate_match_submission",
]
