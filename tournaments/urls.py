"""Web pages under /championships/.

The names avoid the API router's (championship-detail, event-draw, match-rule, ...): Django
reverses a duplicated name to only one of its patterns, so sharing one would break the other.
Each room (opens, sides, matches) keeps its own patterns; the public pages are `pages.views`.
"""

from django.urls import path

from tournaments import views
from tournaments.arrangements.urls import urlpatterns as arrangement_patterns
from tournaments.bulk_entry.urls import urlpatterns as bulk_entry_patterns
from tournaments.calendars.urls import urlpatterns as calendar_patterns
from tournaments.console.urls import urlpatterns as console_patterns
from tournaments.matches.urls import urlpatterns as match_patterns
from tournaments.opens.urls import urlpatterns as open_patterns
from tournaments.pages import views as public_views
from tournaments.sides.urls import urlpatterns as side_patterns

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
    path("matches/<int:pk>/", public_views.match_detail_view, name="match-page"),
    path("matches/<int:pk>/live/", public_views.match_live_view, name="match-live"),
    *calendar_patterns,
    *side_patterns,
    *match_patterns,
    *open_patterns,
    *arrangement_patterns,
    *console_patterns,
    *bulk_entry_patterns,
]
