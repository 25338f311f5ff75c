"""Hungarian dates as Hungarian readers write them (Django's own), with the time zone the time
is shown in, as the English pages do ("2026. november 30. 18:05 CET")."""

DATETIME_FORMAT = "Y. F j. H:i T"
SHORT_DATETIME_FORMAT = "Y.m.d. H:i T"
