"""Arranging a match (issue 30): proposals, acceptance, withdrawal, the organiser's time, the
response window's automatic acceptance, usual free times, and the no-show claim as evidence."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from players.models import AuditEntry, Notice
from tests.tournaments.arrangements.helpers import arena
from tournaments.arrangements import selectors, services
from tournaments.arrangements.times import free_time_for_reader, zone_named
from tournaments.models import (
    ArrangementSource,
    ArrangementStatus,
    AuditAction,
    MatchArrangement,
    MatchProposal,
    NoShowClaim,
    ProposalStatus,
)

pytestmark = pytest.mark.django_db


def _soon(hours: float) -> dt.datetime:
    return (timezone.now() + dt.timedelta(hours=hours)).replace(microsecond=0)


@pytest.fixture
def place(organiser):
    return arena(organiser)


def test_a_proposal_accepted_is_the_agreement_and_both_sides_are_told(
    place, django_capture_on_commit_callbacks
):
    times = [_soon(30), _soon(50)]
    with django_capture_on_commit_callbacks(execute=True):
        made = services.proposals_make(
            actor=place.ana.user, match=place.match, times=times, note="hi"
        )
    assert [m.to for m in mail.outbox] == [[place.bela.user.email]]
    assert [p.starts_at for p in made] == times
    # Bela is told, in a notice and an e-mail.
    assert Notice.objects.filter(user=place.bela.user, about="match_arrangement").count() == 1
    agreement = services.proposal_accept(actor=place.bela.user, proposal=made[1])
    assert agreement.starts_at == times[1] and agreement.source == ArrangementSource.ACCEPTED
    statuses = dict(MatchProposal.objects.values_list("pk", "status"))
    assert statuses == {made[0].pk: ProposalStatus.DECLINED, made[1].pk: ProposalStatus.ACCEPTED}
    assert selectors.agreement_of(place.match) == agreement
    assert list(selectors.agreed_matches(player=place.ana)) == [agreement]
    assert list(selectors.agreed_matches(event=place.event)) == [agreement]
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {AuditAction.MATCH_TIME_PROPOSE, AuditAction.MATCH_TIME_AGREE} <= actions
    assert Notice.objects.filter(user=place.ana.user, about="match_arrangement").exists()


def test_the_notice_gives_the_time_in_the_readers_zone(place):
    moment = dt.datetime(2026, 12, 20, 18, 0, tzinfo=dt.UTC)
    if moment > place.match.round.deadline or moment <= timezone.now():
        moment = _soon(40).replace(minute=0, second=0)
    services.proposals_make(actor=place.ana.user, match=place.match, times=[moment])
    notice = Notice.objects.get(user=place.bela.user)
    local = moment.astimezone(zone_named("America/New_York"))
    assert f"{local:%H}:{local:%M}" in notice.text
    assert "EST" in notice.text or "EDT" in notice.text


def test_a_counter_proposal_sets_the_other_sides_times_aside(place):
    first = services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(30)])
    services.proposals_make(actor=place.bela.user, match=place.match, times=[_soon(35)])
    first[0].refresh_from_db()
    assert first[0].status == ProposalStatus.DECLINED
    assert [p.side for p in selectors.open_proposals(place.match)] == [1]


@pytest.mark.parametrize(
    ("hours", "field"),
    [(-1, "times"), (24 * 20, "times")],  # the past; after the round's deadline (14 days)
)
def test_a_time_in_the_past_or_after_the_round_is_refused(place, hours, field):
    with pytest.raises(ValidationError) as refused:
        services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(hours)])
    assert field in refused.value.message_dict
    assert not MatchProposal.objects.exists()


def test_nothing_is_half_stored_when_one_time_of_several_is_bad(place):
    with pytest.raises(ValidationError):
        services.proposals_make(
            actor=place.ana.user, match=place.match, times=[_soon(30), _soon(-2)]
        )
    assert (
        not MatchProposal.objects.exists()
        and not AuditEntry.objects.filter(action=AuditAction.MATCH_TIME_PROPOSE).exists()
    )


def test_one_side_does_not_accept_its_own_proposal(place):
    made = services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(30)])
    with pytest.raises(ValidationError) as refused:
        services.proposal_accept(actor=place.ana.user, proposal=made[0])
    assert "proposal" in refused.value.message_dict
    assert not MatchArrangement.objects.exists()


def test_only_the_matchs_players_propose_and_accept(place, outsider, organiser):
    for someone in (outsider, organiser, place.controller):
        with pytest.raises(PermissionDenied):
            services.proposals_make(actor=someone, match=place.match, times=[_soon(30)])
    made = services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(30)])
    for someone in (outsider, organiser, place.controller):
        with pytest.raises(PermissionDenied):
            services.proposal_accept(actor=someone, proposal=made[0])


def test_either_side_withdraws_an_agreement_before_it_starts_with_a_reason(place):
    made = services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(30)])
    services.proposal_accept(actor=place.bela.user, proposal=made[0])
    with pytest.raises(ValidationError) as refused:
        services.arrangement_withdraw(actor=place.ana.user, match=place.match, reason=" ")
    assert "reason" in refused.value.message_dict
    withdrawn = services.arrangement_withdraw(
        actor=place.ana.user, match=place.match, reason="Work trip"
    )
    assert withdrawn.status == ArrangementStatus.WITHDRAWN
    assert withdrawn.withdraw_reason == "Work trip" and withdrawn.withdrawn_by == place.ana.user
    assert selectors.agreement_of(place.match) is None
    assert AuditEntry.objects.filter(
        action=AuditAction.MATCH_TIME_WITHDRAW, reason="Work trip"
    ).exists()
    # A new round of proposals can follow.
    services.proposals_make(actor=place.bela.user, match=place.match, times=[_soon(40)])


def test_an_agreement_that_has_started_is_not_withdrawn(place):
    MatchArrangement.objects.create(
        match=place.match,
        starts_at=timezone.now() - dt.timedelta(minutes=5),
        agreed_at=timezone.now() - dt.timedelta(days=1),
        source=ArrangementSource.ACCEPTED,
    )
    with pytest.raises(ValidationError):
        services.arrangement_withdraw(actor=place.bela.user, match=place.match, reason="Late")


def test_an_organiser_sets_a_time_and_replaces_one_only_with_a_reason(place, organiser):
    first = services.arrangement_set(actor=organiser, match=place.match, starts_at=_soon(20))
    assert first.source == ArrangementSource.ORGANISER
    with pytest.raises(ValidationError) as refused:
        services.arrangement_set(actor=organiser, match=place.match, starts_at=_soon(25))
    assert "reason" in refused.value.message_dict
    second = services.arrangement_set(
        actor=organiser, match=place.match, starts_at=_soon(25), reason="Server maintenance"
    )
    first.refresh_from_db()
    assert first.status == ArrangementStatus.WITHDRAWN and second.status == "agreed"
    with pytest.raises(PermissionDenied):
        services.arrangement_set(actor=place.ana.user, match=place.match, starts_at=_soon(26))
    with pytest.raises(PermissionDenied):
        services.arrangement_set(
            actor=place.controller, match=place.match, starts_at=_soon(26), reason="x"
        )


def test_the_first_time_is_accepted_for_a_silent_opponent_once(place, organiser):
    services.arrangement_policy_set(actor=organiser, event=place.event, response_hours=24)
    made = services.proposals_make(
        actor=place.ana.user, match=place.match, times=[_soon(80), _soon(60)]
    )
    assert services.proposals_auto_accept(now=timezone.now() + dt.timedelta(hours=23)) == 0
    later = timezone.now() + dt.timedelta(hours=25)
    assert services.proposals_auto_accept(now=later) == 1
    assert services.proposals_auto_accept(now=later) == 0  # idempotent
    agreed = MatchArrangement.objects.get()
    # The first proposed time: the earliest of the first batch.
    assert agreed.starts_at == min(p.starts_at for p in made)
    assert agreed.source == ArrangementSource.AUTO and agreed.agreed_by is None


def test_no_window_no_automatic_acceptance(place):
    services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(60)])
    assert services.proposals_auto_accept(now=timezone.now() + dt.timedelta(days=5)) == 0


def test_the_response_window_is_bounded(place, organiser):
    with pytest.raises(ValidationError) as refused:
        services.arrangement_policy_set(actor=organiser, event=place.event, response_hours=0)
    assert "response_hours" in refused.value.message_dict
    with pytest.raises(PermissionDenied):
        services.arrangement_policy_set(actor=place.ana.user, event=place.event, response_hours=5)


def test_organisers_filter_and_nudge(place, organiser):
    assert list(selectors.matches_to_arrange(event=place.event)) == [place.match]
    assert services.matches_nudge(actor=organiser, event=place.event, match_ids=[place.match.pk])
    assert Notice.objects.filter(user=place.ana.user).count() == 1
    assert Notice.objects.filter(user=place.bela.user).count() == 1
    with pytest.raises(ValidationError):
        services.matches_nudge(actor=organiser, event=place.event, match_ids=[place.match.pk + 999])
    with pytest.raises(PermissionDenied):
        services.matches_nudge(actor=place.ana.user, event=place.event, match_ids=[place.match.pk])
    MatchArrangement.objects.create(
        match=place.match,
        starts_at=timezone.now() - dt.timedelta(hours=1),
        agreed_at=timezone.now() - dt.timedelta(days=1),
        source=ArrangementSource.ACCEPTED,
    )
    assert not selectors.matches_to_arrange(event=place.event).exists()
    assert list(selectors.matches_to_arrange(event=place.event, which="passed")) == [place.match]


def test_a_no_show_claim_carries_the_agreement_and_both_messages(place, organiser):
    made = services.proposals_make(actor=place.ana.user, match=place.match, times=[_soon(1)])
    services.proposal_accept(actor=place.bela.user, proposal=made[0])
    with pytest.raises(ValidationError):  # not before the time
        services.no_show_claim(actor=place.ana.user, match=place.match, message="Not there")
    MatchArrangement.objects.update(starts_at=timezone.now() - dt.timedelta(hours=1))
    claim = services.no_show_claim(
        actor=place.ana.user, match=place.match, message="Waited 30 minutes in the lobby."
    )
    place.match.refresh_from_db()
    assert place.match.walkover_claimed_by_id == place.match.entry_a_id
    with pytest.raises(PermissionDenied):
        services.no_show_reply(actor=place.ana.user, claim=claim, message="me too")
    services.no_show_reply(actor=place.bela.user, claim=claim, message="My connection failed.")
    claim = selectors.no_show_claims(place.match)[0]
    assert claim.arrangement.starts_at < timezone.now()
    assert (claim.message, claim.reply) == (
        "Waited 30 minutes in the lobby.",
        "My connection failed.",
    )
    assert Notice.objects.filter(user=place.controller).count() == 2
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert AuditAction.NO_SHOW_CLAIM in actions and AuditAction.NO_SHOW_REPLY in actions
    with pytest.raises(ValidationError):
        services.no_show_claim(actor=place.ana.user, match=place.match, message="again")
    assert NoShowClaim.objects.count() == 1


def test_usual_free_times_are_shown_in_the_readers_zone(place):
    windows = services.availability_set(
        actor=place.ana.user,
        player=place.ana,
        windows=[(0, dt.time(20, 0), dt.time(23, 0))],
        time_zone="Europe/Budapest",
    )
    assert len(windows) == 1
    seen = free_time_for_reader(
        weekday=0,
        starts=dt.time(20),
        ends=dt.time(23),
        written_in=zone_named("Europe/Budapest"),
        reader=zone_named("Asia/Tokyo"),
        today=dt.date(2026, 12, 2),
    )
    # Monday 20:00-23:00 in Budapest (UTC+1) is Tuesday 04:00-07:00 in Tokyo (UTC+9).
    assert (seen.weekday, seen.starts, seen.end_weekday, seen.ends) == (
        1,
        dt.time(4),
        1,
        dt.time(7),
    )
    with pytest.raises(ValidationError) as refused:
        services.availability_set(
            actor=place.ana.user, player=place.ana, windows=[], time_zone="Mars/Olympus"
        )
    assert "time_zone" in refused.value.message_dict
    with pytest.raises(PermissionDenied):
        services.availability_set(
            actor=place.bela.user, player=place.ana, windows=[], time_zone="UTC"
        )
