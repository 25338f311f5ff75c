from django.urls import path

from players import views
from players.calendars import views as calendar_views
from players.notices import views as notice_views
from players.preferences import views as preference_views

urlpatterns = [
    path("", views.player_list_view, name="player-list"),
    path("new/", views.player_create_view, name="player-new"),
    path("roles/", views.roles_view, name="player-roles"),
    path("language/", preference_views.language_set_view, name="language-set"),
    path("notices/", notice_views.notice_list_view, name="notice-list"),
    path("notices/read/", notice_views.notices_read_view, name="notices-read"),
    path("calendar/renew/", calendar_views.calendar_renew_view, name="player-calendar-renew"),
    path("calendar/revoke/", calendar_views.calendar_revoke_view, name="player-calendar-revoke"),
    # A calendar program's address: the token is the only key (players.calendars).
    path("calendar/<str:token>.ics", calendar_views.player_calendar_view, name="player-calendar"),
    path("audit/", views.audit_view, name="audit-log"),
    path("claims/", views.claim_request_list_view, name="claim-request-list"),
    path("claims/<int:pk>/", views.claim_request_detail_view, name="claim-request-detail"),
    path(
        "claims/<int:pk>/approve/",
        views.claim_request_decide_view,
        {"decision": "approve"},
        name="claim-request-approve",
    ),
    path(
        "claims/<int:pk>/refuse/",
        views.claim_request_decide_view,
        {"decision": "refuse"},
        name="claim-request-refuse",
    ),
    path("claim/<str:token>/", views.claim_link_view, name="claim-link"),
    path("<int:pk>/", views.player_detail_view, name="player-detail"),
    path("<int:pk>/edit/", views.player_edit_view, name="player-edit"),
    path("<int:pk>/claim/", views.player_claim_view, name="player-claim"),
    path("<int:pk>/claim-link/", views.claim_link_create_view, name="player-claim-link"),
]
