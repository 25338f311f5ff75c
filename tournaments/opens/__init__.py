"""Table opens: a face-to-face event typed from score sheets, with its services, pages, forms,
URLs and API together (docs/architecture.md, "Tournaments")."""
