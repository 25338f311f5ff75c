"""Two requests rotate one token at the same moment (a client retrying, or a thief racing its
owner): exactly one gets a new token. Without the DELETE as the claim (check, then act), both
would, and one stolen token would become two."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from players.models import ApiToken
from players.tokens import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _rotate_together(token: ApiToken) -> tuple[list, int]:
    """Each rotation in its own thread (own database connection), released together."""
    start = threading.Barrier(2)
    issued, gone = [], []

    def run() -> None:
        try:
            start.wait()
            issued.append(services.api_token_rotate(token=token, client="retrying client"))
        except services.ApiTokenGone:
            gone.append(True)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return issued, len(gone)


def test_checking_before_deleting_lets_both_rotations_through(monkeypatch):
    token = services.api_token_issue(user=UserFactory()).token
    both_checked = threading.Barrier(2, timeout=30)

    def check_then_delete(token: ApiToken) -> bool:
        exists = ApiToken.objects.filter(pk=token.pk).exists()
        both_checked.wait()  # both have seen the token before either deletes it
        ApiToken.objects.filter(pk=token.pk).delete()
        return exists

    monkeypatch.setattr(services, "_claim", check_then_delete)
    issued, gone = _rotate_together(token)
    assert (len(issued), gone) == (2, 0)
    assert ApiToken.objects.count() == 2


def test_the_delete_as_claim_gives_exactly_one_new_token():
    token = services.api_token_issue(user=UserFactory()).token
    issued, gone = _rotate_together(token)
    assert (len(issued), gone) == (1, 1)
    assert list(ApiToken.objects.values_list("pk", flat=True)) == [issued[0].token.pk]
