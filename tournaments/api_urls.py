from rest_framework.routers import SimpleRouter

from tournaments import api
from tournaments.arrangements import api as arrangements_api
from tournaments.forecasts import api as forecast_api
from tournaments.opens import api as opens_api
from tournaments.opens import table_api
from tournaments.sides import api as sides_api

router = SimpleRouter()
router.register("championships", api.ChampionshipViewSet, basename="championship")
router.register("events", api.EventViewSet, basename="event")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("matches", api.MatchViewSet, basename="match")
router.register("rounds", api.RoundViewSet, basename="round")

urlpatterns = [
    *opens_api.urlpatterns,
    *table_api.urlpatterns,
    *sides_api.urlpatterns,
    *forecast_api.urlpatterns,
    *arrangements_api.urlpatterns,
    *router.urls,
]
