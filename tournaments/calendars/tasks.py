"""The reminders' beat task."""

from __future__ import annotations

from celery import shared_task

from tournaments.calendars.reminders import reminders_send


@shared_task(name="tournaments.calendars.tasks.send_reminders", acks_late=True)
def send_reminders() -> int:
    """Beat task: send the reminders that are due (before agreed matches and round deadlines).

    No retry policy of its own: beat runs it again on schedule, and the ledger of reminders
    (players.models.ReminderSent, written with each notice) makes a second run, a run beside
    it or a run after a crash send nothing twice."""
    return reminders_send()
