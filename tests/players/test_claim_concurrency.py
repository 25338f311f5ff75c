"""Two people open the same claim link at the same moment: the player row lock lets exactly one
have it. Without the lock, both "succeed" and the second silently takes the player away."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from players import services
from players.models import AuditAction, AuditEntry, Player
from players.services import claims
from tests.factories import UserFactory, make_organiser

pytestmark = pytest.mark.django_db(transaction=True)


def _redeem_together(token: str, users: list) -> tuple[list, list]:
    """Each user redeems in their own thread (own database connection), released together."""
    start = threading.Barrier(len(users))
    won, refused = [], []

    def run(user) -> None:
        try:
            start.wait()
            won.append(services.claim_link_redeem(token=token, user=user))
        except services.ClaimLinkGone as exc:
            refused.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(user,)) for user in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return won, refused


@pytest.fixture
def link():
    organiser = make_organiser()
    player = services.player_create(actor=organiser, display_name="Offline Olga", country="PL")
    _, token = services.claim_link_create(actor=organiser, player=player)
    return player, token


def test_without_the_lock_both_claim_the_same_player(link, monkeypatch):
    player, token = link
    first, second = UserFactory(), UserFactory()
    monkeypatch.setattr(claims, "_lock_player", lambda pk: Player.objects.get(pk=pk))
    # Both have checked the link and the player before either writes.
    both_checked = threading.Barrier(2, timeout=30)
    original = claims._link

    def link_after_both_checked(**kwargs):
        both_checked.wait()
        return original(**kwargs)

    monkeypatch.setattr(claims, "_link", link_after_both_checked)
    won, refused = _redeem_together(token, [first, second])
    assert (len(won), refused) == (2, [])
    # Two audit entries say two people claimed one player; only one of them has it.
    assert AuditEntry.objects.filter(action=AuditAction.CLAIM_LINK_USE).count() == 2


def test_with_the_lock_exactly_one_claims_it(link):
    player, token = link
    first, second = UserFactory(), UserFactory()
    won, refused = _redeem_together(token, [first, second])
    assert len(won) == 1 and len(refused) == 1 and refused[0] in ("used", "claimed")
    player.refresh_from_db()
    assert player.user == won[0].user
    assert AuditEntry.objects.filter(action=AuditAction.CLAIM_LINK_USE).count() == 1
