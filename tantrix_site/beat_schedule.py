"""The beat schedule (CELERY_BEAT_SCHEDULE, read by tantrix_site/settings.py): every periodic
task and how often it runs, each interval from its own environment variable. Declared in code,
in one place, so beat and the consistency checks read one list (docs/operations.md, "Beat")."""

from __future__ import annotations

from typing import Any

from tantrix_site.env import env_float


def periodic(task: str, seconds_setting: str, default: float) -> dict[str, Any]:
    """A beat entry: ``task`` every so many seconds, read from ``seconds_setting``."""
    return {"task": task, "schedule": env_float(seconds_setting, default, minimum=0.5)}


def beat_schedule() -> dict[str, dict[str, Any]]:
    """Every periodic task: the games' and tournaments' sweeps, then the ratings' and the
    reminders'."""
    return {
        # Covers a broker outage at submission time and a worker killed mid-task.
        "games-sweep-stale-records": periodic(
            "games.tasks.sweep_stale_records", "GAME_RECORD_SWEEP_SECONDS", 60.0
        ),
        # Reports nobody answered within GAME_REPORT_CONFIRM_HOURS stand (and say so).
        "games-confirm-overdue-reports": periodic(
            "games.tasks.confirm_overdue_reports", "GAME_REPORT_SWEEP_SECONDS", 900.0
        ),
        "tournaments-process-deadlines": periodic(
            "tournaments.tasks.process_deadlines", "TOURNAMENT_DEADLINE_SWEEP_SECONDS", 300.0
        ),
        "tournaments-sweep-uncounted-games": {
            "task": "tournaments.tasks.sweep_uncounted_games",
            "schedule": 600.0,
        },
        # Proposed match times a silent opponent did not answer within the event's response window.
        "tournaments-accept-unanswered-proposals": periodic(
            "tournaments.arrangements.tasks.accept_unanswered_proposals",
            "MATCH_PROPOSAL_SWEEP_SECONDS",
            300.0,
        ),
        # Covers a broker outage when a game was adjudicated, and flags invalidated games.
        "ratings-sweep-unrated-games": periodic(
            "ratings.tasks.sweep_unrated_games", "RATINGS_SWEEP_SECONDS", 300.0
        ),
        # The tournament Elo: every tournament whose games or TPs changed is recalculated.
        "ratings-recalculate-changed-elo": periodic(
            "ratings.tasks.recalculate_changed_elo", "RATINGS_ELO_RECALCULATE_SECONDS", 3600.0
        ),
        # Master titles not kept by enough Master games are flagged for an admin.
        "ratings-check-title-lapses": periodic(
            "ratings.tasks.check_title_lapses", "RATINGS_TITLE_LAPSE_CHECK_SECONDS", 86400.0
        ),
        # The forecasts tested again on the history as it grows: the verdict decides whether
        # pages show them (docs/ratings.md, "Forecasts").
        "tournaments-evaluate-forecasts": periodic(
            "tournaments.forecasts.tasks.evaluate_forecasts", "FORECAST_EVALUATION_SECONDS", 86400.0
        ),
        # Reminders before agreed matches and round deadlines, each sent once (the ledger).
        "tournaments-send-reminders": periodic(
            "tournaments.calendars.tasks.send_reminders", "REMINDER_SWEEP_SECONDS", 300.0
        ),
    }
