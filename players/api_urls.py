from django.urls import path
from rest_framework.routers import SimpleRouter

from players import api

router = SimpleRouter()
router.register("claim-requests", api.ClaimRequestViewSet, basename="claim-request")

urlpatterns = [
    path("roles/", api.RoleListView.as_view(), name="api-roles"),
    path("roles/grant/", api.RoleGrantView.as_view(), name="api-role-grant"),
    path("roles/withdraw/", api.RoleWithdrawView.as_view(), name="api-role-withdraw"),
    path("audit/", api.AuditEntryListView.as_view(), name="api-audit"),
    path("claim-links/check/", api.ClaimLinkCheckView.as_view(), name="api-claim-link-check"),
    path("claim-links/redeem/", api.ClaimLinkRedeemView.as_view(), name="api-claim-link-redeem"),
    *router.urls,
]
