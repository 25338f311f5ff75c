"""Web pages under /championships/.

The names avoid the API router's (championship-detail, event-draw, match-rule, ...): Django
reverses a duplicated name to only one of its patterns, so sharing one would break the other.
"""

from django.urls import path

from tournaments import public_views, views, views_matches, views_sides
from tournaments.urls_opens import urlpatterns as open_patterns

urlpatterns = [
    path("", views.championship_list_view, name="championship-list"),
    path("new/", views.championship_create_view, name="championship-new"),
    path("<int:pk>/", public_views.championship_detail_view, name="championship-page"),
    path("<int:pk>/edit/", views.championship_edit_view, name="championship-edit"),
    path("<int:pk>/staff/", views.championship_staff_view, name="championship-staff-edit"),
    path("<int:pk>/audit/", views.championship_audit_view, name="championship-audit-log"),
    path("<int:pk>/events/new/", views.event_create_view, name="event-new"),
    path("events/<int:pk>/", public_views.event_detail_view, name="event-page"),
    path("events/<int:pk>/live/", public_views.event_live_view, name="event-live"),
    path(
        "events/<int:pk>/registration/",
        views.event_registration_view,
        name="event-registration-set",
    ),
    path("events/<int:pk>/register/", views.event_register_view, name="event-register-player"),
    path("events/<int:pk>/confirm-age/", views.event_age_confirm_view, name="event-age-confirm"),
    path("events/<int:pk>/seed/", views.event_seed_view, name="event-seed-set"),
    path("events/<int:pk>/draw/", views.event_draw_view, name="event-draw-make"),
    path(
        "events/<int:pk>/advance-qualifiers/",
        views.event_advance_view,
        name="event-qualifiers-advance",
    ),
    path("entries/<int:pk>/withdraw/", views.entry_withdraw_view, name="entry-withdraw-form"),
    path("events/<int:pk>/register-pair/", views_sides.pair_register_view, name="pair-register"),
    path("teams/<int:pk>/", views_sides.team_detail_view, name="team-page"),
    path("teams/<int:pk>/officers/", views_sides.team_officers_view, name="team-officers"),
    path("<int:pk>/teams/new/", views_sides.team_create_view, name="team-new"),
    path("events/<int:pk>/enter-team/", views_sides.team_enter_view, name="team-enter"),
    path(
        "rounds/<int:pk>/lineup-deadline/",
        views_sides.round_lineup_deadline_view,
        name="round-lineup-deadline-set",
    ),
    path(
        "entries/<int:pk>/pair/<str:answer>/",
        views_sides.pair_answer_view,
        name="pair-answer",
    ),
    path("rounds/<int:pk>/deadline/", views_matches.round_deadline_view, name="round-deadline-set"),
    path("matches/<int:pk>/", public_views.match_detail_view, name="match-page"),
    path("matches/<int:pk>/live/", public_views.match_live_view, name="match-live"),
    path("matches/<int:pk>/rule/", views_matches.match_rule_view, name="match-rule-form"),
    path(
        "matches/<int:pk>/claim-walkover/",
        views_matches.match_walkover_view,
        name="match-walkover-claim",
    ),
    path(
        "matches/<int:pk>/claim-penalty/",
        views_matches.match_penalty_view,
        name="match-penalty-claim",
    ),
]

# Table opens, tie-breaks and exports keep their patterns in their own module.
urlpatterns += open_patterns
