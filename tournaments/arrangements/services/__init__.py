"""Arranging when a match is played (issue 30). Every write is one atomic service that locks
the match row first (two players answering at once meet there), checks who acts, audits, and
tells the other side by a notice and an e-mail in their own language and time zone.

Who acts: the side's speakers (`permissions.arranging_side`: the player, either partner, a
team's captain or deputy, as for a walkover claim); organisers set or withdraw a time and nudge.

The rooms: `proposals` (the sides propose, accept, withdraw; the beat task's acceptance),
`organisers` (set a time, the response window, nudges), `availability` (usual free times),
`no_shows` (claims and replies), beside `agreements` and `common` (the steps they share) and
`audit_types` (the actions they write and their words, registered on import).
"""

from tournaments.arrangements.services import audit_types  # noqa: F401  (registers the types)
from tournaments.arrangements.services.availability import MAX_WINDOWS, availability_set
from tournaments.arrangements.services.common import NOTICE_ABOUT
from tournaments.arrangements.services.no_shows import no_show_claim, no_show_reply
from tournaments.arrangements.services.organisers import (
    arrangement_policy_set,
    arrangement_set,
    matches_nudge,
)
from tournaments.arrangements.services.proposals import (
    MAX_PROPOSALS,
    arrangement_withdraw,
    proposal_accept,
    proposal_withdraw,
    proposals_auto_accept,
    proposals_make,
)

__all__ = [
    "MAX_PROPOSALS",
    "MAX_WINDOWS",
    "NOTICE_ABOUT",
    "arrangement_policy_set",
    "arrangement_set",
    "arrangement_withdraw",
    "availability_set",
    "matches_nudge",
    "no_show_claim",
    "no_show_reply",
    "proposal_accept",
    "proposal_withdraw",
    "proposals_auto_accept",
    "proposals_make",
]
