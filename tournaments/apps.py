from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
    player_page_sections = ["tournaments/_player_entries.html"]

    def ready(self) -> None:
        from games.hooks import (
            SubmissionExtension,
            register_game_visibility,
            register_report_authority,
            register_submission_extension,
        )
        from games.signals import game_adjudicated, game_result_changed, games_adjudicated
        from players.audit.registry import (
            register_audit_names,
            register_audit_reasons,
            register_audit_targets,
        )
        from players.notices.links import register_notice_page
        from ratings.hooks import register_event_names
        from tantrix_site.http.permissions import register_permission
        from tournaments import rating_seam, receivers, selectors, services
        from tournaments.arrangements import services as arrangements
        from tournaments.matches import reporting
        from tournaments.opens.services import table_disputes
        from tournaments.pages.audit import audit_targets_named, reason_shown
        from tournaments.permissions import RULES

        # Every module that declares audit types (beside what it writes), so any process can
        # describe any entry, also one its own code never writes.
        from tournaments.services import tiebreaks  # noqa: F401
        from tournaments.services.imports import writer  # noqa: F401

        # The named rules views declare and pages ask (tournaments/permissions.py).
        for name, (test, refusal) in RULES.items():
            register_permission(name, test, refusal=refusal)
        register_submission_extension(
            SubmissionExtension(
                name="match",
                validate=services.validate_match_submission,
                help_text=_("The tournament match this game was played for."),
                vouches_for_submitter=True,
            )
        )
        register_game_visibility(selectors.games_visible_to)
        register_report_authority(reporting.MATCH_REPORT_AUTHORITY)
        game_result_changed.connect(
            receivers.recount_ruled_game, dispatch_uid="tournaments.recount_ruled_game"
        )
        from games.links import register_match_links
        from tournaments.game_links import match_links

        register_match_links(match_links)
        register_notice_page(table_disputes.NOTICE_ABOUT, "open-table-result")
        register_notice_page("match", "match-page")  # reminders (tournaments.calendars)
        register_notice_page(arrangements.NOTICE_ABOUT, "match-page")
        from tournaments.console import services as console_services  # its audit type too

        register_notice_page(console_services.NOTICE_ABOUT, "match-page")
        register_audit_names("championship_id", _("Championship"), selectors.championship_names)
        register_audit_names("event_id", _("Event"), selectors.event_names_for_audit)
        register_audit_reasons(reason_shown)
        register_audit_targets(audit_targets_named)
        register_event_names(rating_seam.event_names)
        from players.calendars.sources import register_calendar_source
        from tournaments.calendars.feeds import player_calendar_events

        register_calendar_source(player_calendar_events)
        game_adjudicated.connect(
            receivers.count_tournament_game, dispatch_uid="tournaments.count_tournament_game"
        )
        games_adjudicated.connect(
            receivers.count_tournament_games, dispatch_uid="tournaments.count_tournament_games"
        )
        # Cached public pages are dropped when a result, a draw or a bracket changes.
        from tournaments.pages.cache import connect_receivers

        connect_receivers()
