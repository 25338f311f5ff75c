"""The services of pairs (registering, confirming, declining) and teams (rosters, officers,
entering, lineups)."""
