"""The arrangements' beat task."""

from __future__ import annotations

from celery import shared_task

from tournaments.arrangements import services


@shared_task(name="tournaments.arrangements.tasks.accept_unanswered_proposals", acks_late=True)
def accept_unanswered_proposals() -> int:
    """Beat task: accept the first proposed time for an opponent who did not answer within the
    event's response window.

    No retry policy of its own: beat runs it again on schedule, and the service is idempotent
    (each match is settled under its row lock only while it has no agreement), so a repeat or
    an overlap accepts nothing twice.
    """
    return services.proposals_auto_accept()
