"""Forecasts on the pages and in the API: each side's chance in an open match, each entrant's
chance to reach each round of a knockout and to win it (or to win a Swiss event), from the
tournament Elo; and the evaluation that decides whether they are shown at all.

The mathematics is the pure `tournaments.formats.forecast`; docs/ratings.md, "Forecasts", has
the model, its sources and the figures on the demo.
"""
