from django.urls import include, path

from ratings import api

urlpatterns = [
    path("ratings/rankings/", api.RankingListView.as_view(), name="api-ranking-list"),
    path("ratings/players/<int:pk>/", api.PlayerRatingsView.as_view(), name="api-player-ratings"),
    path(
        "ratings/players/<int:pk>/history/",
        api.PlayerHistoryView.as_view(),
        name="api-rating-history",
    ),
    path("ratings/titles/", api.TitleListCreateView.as_view(), name="api-title-list"),
    path(
        "ratings/titles/<int:pk>/withdraw/",
        api.TitleWithdrawView.as_view(),
        name="api-title-withdraw",
    ),
    path("", include("ratings.staff.api_urls")),
]
