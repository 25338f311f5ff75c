"""The permission matrix's rows for arranging a match (issue 30).

Who: a match's time is proposed, accepted and a no-show claimed (and answered) by the side's
speakers only (its player, either partner, a team's captain or deputy: the player of the own
match and the captain of the own team match), never by staff for them; the agreed time is
withdrawn by those speakers or the championship's organisers (staff); the organisers set a time,
list an event's matches to arrange, nudge and set the response window; everyone who sees a match
reads its agreed time; a signed-in player states their own usual free times.

The bodies are empty: a permitted request then meets the form's or serializer's validation
(bad); a proposal or a claim named in the path does not exist (MISSING_ID), so a permitted
request finds nothing (hidden) after the permission check refused everyone else.
"""

from __future__ import annotations

from tests.security.matrix_base import (
    BAD,
    DENIED,
    EVERYONE,
    HIDDEN,
    NOBODY,
    OK,
    ORGANISERS,
    OWN_UNPUBLISHED_ORGANISERS,
    STAFF,
    UNSEEN,
    UNSEEN_SIGNED_IN,
    permitted_as,
)
from tests.security.world import MISSING_ID

SPEAKER = (DENIED, OK, DENIED, DENIED, DENIED)
ARRANGE = {
    "own": SPEAKER,
    "other_player": NOBODY,
    "other": NOBODY,
    "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, DENIED),
    "team": SPEAKER,  # the player captains the own team
}
ARRANGE_OR_MANAGE = {
    "own": (DENIED, OK, OK, DENIED, OK),
    "other_player": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "team": (DENIED, OK, OK, DENIED, OK),
}
MANAGE_MATCH = {
    "own": ORGANISERS,
    "other_player": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "team": ORGANISERS,
}
READ_MATCH = {
    "own": EVERYONE,
    "other_player": EVERYONE,
    "other": EVERYONE,
    "unpublished": UNSEEN,
    "team": EVERYONE,
}
MANAGE_EVENT = {
    "own": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_ORGANISERS,
}
SIGNED_IN_PLAYER = (DENIED, OK, OK, OK, OK)  # every account of the world has a player

ARRANGE_EXPECTED = {
    # Web: the match page's forms (GET shows the small form page).
    "arrangement-propose": {"GET": ARRANGE, "POST": permitted_as(BAD, ARRANGE)},
    "arrangement-accept": {"GET": ARRANGE, "POST": permitted_as(BAD, ARRANGE)},
    "arrangement-no-show": {"GET": ARRANGE, "POST": permitted_as(BAD, ARRANGE)},
    "arrangement-no-show-reply": {"GET": ARRANGE, "POST": permitted_as(BAD, ARRANGE)},
    "arrangement-withdraw": {
        "GET": ARRANGE_OR_MANAGE,
        "POST": permitted_as(BAD, ARRANGE_OR_MANAGE),
    },
    "arrangement-set": {"GET": MANAGE_MATCH, "POST": permitted_as(BAD, MANAGE_MATCH)},
    "event-arrangements": {"GET": MANAGE_EVENT, "POST": permitted_as(BAD, MANAGE_EVENT)},
    "arrangement-availability": {
        "GET": SIGNED_IN_PLAYER,
        "POST": permitted_as(BAD, SIGNED_IN_PLAYER),
    },
    # API.
    "api:api-match-arrangement": {
        "GET": READ_MATCH,
        "PUT": {
            "own": (DENIED, DENIED, BAD, DENIED, BAD),
            "other_player": (DENIED, DENIED, BAD, DENIED, BAD),
            "other": (DENIED, DENIED, DENIED, DENIED, BAD),
            "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, BAD),
            "team": (DENIED, DENIED, BAD, DENIED, BAD),
        },
    },
    "api:api-match-arrangement-withdraw": {"POST": permitted_as(BAD, ARRANGE_OR_MANAGE)},
    "api:api-match-proposals": {"POST": permitted_as(BAD, ARRANGE)},
    "api:api-match-proposal-accept": {"POST": permitted_as(HIDDEN, ARRANGE)},
    "api:api-match-proposal-withdraw": {"POST": permitted_as(HIDDEN, ARRANGE)},
    "api:api-match-no-show": {"POST": permitted_as(BAD, ARRANGE)},
    "api:api-match-no-show-answer": {"POST": permitted_as(HIDDEN, ARRANGE)},
    "api:api-event-arrangements": {"GET": MANAGE_EVENT},
    "api:api-event-arrangements-nudge": {"POST": permitted_as(BAD, MANAGE_EVENT)},
    "api:api-event-arrangements-policy": {"PUT": permitted_as(BAD, MANAGE_EVENT)},
    "api:api-arrangement-availability": {
        "GET": SIGNED_IN_PLAYER,
        "PUT": permitted_as(BAD, SIGNED_IN_PLAYER),
    },
}

ARRANGE_PATH_KIND = {
    **{
        key: "match"
        for key in (
            "arrangement-propose",
            "arrangement-accept",
            "arrangement-no-show",
            "arrangement-no-show-reply",
            "arrangement-withdraw",
            "arrangement-set",
            "api:api-match-arrangement",
            "api:api-match-arrangement-withdraw",
            "api:api-match-proposals",
            "api:api-match-proposal-accept",
            "api:api-match-proposal-withdraw",
            "api:api-match-no-show",
            "api:api-match-no-show-answer",
        )
    },
    "event-arrangements": "event",
    "api:api-event-arrangements": "event",
    "api:api-event-arrangements-nudge": "event",
    "api:api-event-arrangements-policy": "event",
}

ARRANGE_EXTRA_KWARGS = {
    "api:api-match-proposal-accept": {"proposal": MISSING_ID},
    "api:api-match-proposal-withdraw": {"proposal": MISSING_ID},
    "api:api-match-no-show-answer": {"claim": MISSING_ID},
}
