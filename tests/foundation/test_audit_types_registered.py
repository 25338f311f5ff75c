"""Each audit action a registered type (issue 27): every value of every app's `AuditAction`
has its type, with its label, the shape of its details and how it describes itself."""

from __future__ import annotations

import pytest

from games.models import AuditAction as GamesAction
from players.audit.registry import audit_type
from players.models import AuditAction as PlayersAction
from ratings.models import AuditAction as RatingsAction
from tournaments.models import AuditAction as TournamentsAction

ACTIONS = [
    action
    for choices in (PlayersAction, GamesAction, RatingsAction, TournamentsAction)
    for action in choices
]


@pytest.mark.parametrize("action", ACTIONS, ids=[str(a.value) for a in ACTIONS])
def test_every_audit_action_is_a_registered_type(action):
    declared = audit_type(action.value)
    assert declared is not None, f"{action.value} has no registered type"
    assert str(declared.label) == str(action.label)
    if isinstance(action, TournamentsAction):
        # Without words of its own, the championship audit page shows a type's details as
        # "Key: value" in words (tournaments.services.audit_words.describe_plainly); its words
        # read the names the page looked up (tests/tournaments/test_audit_types.py).
        return
    assert callable(declared.describe), f"{action.value} does not describe itself"
    # It describes an entry with no details without failing (an old entry, a worker's).
    assert isinstance(declared.describe({}, None), str)


def test_an_entry_that_does_not_fit_its_type_is_refused():
    declared = audit_type(PlayersAction.STAFF_GRANT.value)
    with pytest.raises(ValueError, match="no detail"):
        declared.check({"roles": "staff"})
    with pytest.raises(ValueError, match="is a int"):
        declared.check({"role": 3})
