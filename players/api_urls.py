from django.urls import path
from rest_framework.routers import SimpleRouter

from players import api
from players.calendars import api as calendar_api
from players.notices import api as notice_api

router = SimpleRouter()
# "api-" names: the web pages use claim-request-list, claim-request-detail, ...
router.register("claim-requests", api.ClaimRequestViewSet, basename="api-claim-request")

urlpatterns = [
    path("roles/", api.RoleListView.as_view(), name="api-roles"),
    path("notices/", notice_api.NoticeListView.as_view(), name="api-notices"),
    path("notices/read/", notice_api.NoticesReadView.as_view(), name="api-notices-read"),
    path("calendar/", calendar_api.CalendarView.as_view(), name="api-calendar"),
    path("calendar/renew/", calendar_api.CalendarRenewView.as_view(), name="api-calendar-renew"),
    path("calendar/revoke/", calendar_api.CalendarRevokeView.as_view(), name="api-calendar-revoke"),
    path("roles/grant/", api.RoleGrantView.as_view(), name="api-role-grant"),
    path("roles/withdraw/", api.RoleWithdrawView.as_view(), name="api-role-withdraw"),
    path("audit/", api.AuditEntryListView.as_view(), name="api-audit"),
    path(
        "players/<int:pk>/claim-link/",
        api.PlayerClaimLinkView.as_view(),
        name="api-player-claim-link",
    ),
    path("claim-links/check/", api.ClaimLinkCheckView.as_view(), name="api-claim-link-check"),
    path("claim-links/redeem/", api.ClaimLinkRedeemView.as_view(), name="api-claim-link-redeem"),
    *router.urls,
]
