"""Web pages for table opens, tie-breaks and exports (added to tournaments/urls.py)."""

from django.urls import path

from tournaments.opens import views as v

urlpatterns = [
    path("<int:pk>/table-opens/new/", v.table_open_create_view, name="open-new"),
    path("events/<int:pk>/open/start/", v.table_open_start_view, name="open-start"),
    path("events/<int:pk>/open/late-entry/", v.open_late_entry_view, name="open-late-entry"),
    path("events/<int:pk>/tiebreaks/", v.event_tiebreaks_view, name="event-tiebreaks"),
    path("events/<int:pk>/standings.csv", v.event_standings_csv_view, name="event-standings-csv"),
    path("events/<int:pk>/results.csv", v.event_results_csv_view, name="event-results-csv"),
    path("events/<int:pk>/export.json", v.event_export_json_view, name="event-export-json"),
    path("entries/<int:pk>/drop/", v.entry_drop_view, name="open-entry-drop"),
    path("rounds/<int:pk>/pairings/", v.round_pairings_view, name="open-round-pairings"),
    path("rounds/<int:pk>/pairings.csv", v.round_pairings_csv_view, name="open-round-pairings-csv"),
    path("rounds/<int:pk>/score-sheets/", v.round_sheets_view, name="open-round-sheets"),
    path("rounds/<int:pk>/results/", v.round_results_view, name="open-round-results"),
    path("tables/<int:pk>/", v.table_result_view, name="open-table-result"),
]
