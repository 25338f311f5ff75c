"""What decides a match: counting its games, rulings, claims, penalties and deadlines, with
their pages, forms and URLs, and the answers `games` asks about a match's reports."""
