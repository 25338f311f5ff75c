"""Sides other than a single player: pairs and teams, with their services, reads, pages, forms,
URLs and API together (docs/architecture.md, "Tournaments")."""
