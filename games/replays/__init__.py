"""Games as people read them: the list of games, one game's page and API, the replay viewer
(`viewer`) and the board drawn as SVG (`drawing`)."""
