from rest_framework.routers import SimpleRouter

from tournaments import api, api_opens, api_sides, api_table_results
from tournaments.forecasts import api as forecast_api

router = SimpleRouter()
router.register("championships", api.ChampionshipViewSet, basename="championship")
router.register("events", api.EventViewSet, basename="event")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("matches", api.MatchViewSet, basename="match")
router.register("rounds", api.RoundViewSet, basename="round")

urlpatterns = [
    *api_opens.urlpatterns,
    *api_table_results.urlpatterns,
    *api_sides.urlpatterns,
    *forecast_api.urlpatterns,
    *router.urls,
]
