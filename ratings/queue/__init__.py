"""The rating review queue as an admin works it: what each item is about (its kind, player,
table, event, the games behind it, the size of the change) and the actions that work for its
kind (``kinds``), read in bulk for a page (``selectors``) and taken with their audit lines
(``services``). The web pages and the API are ``ratings.staff``; the flags themselves are written
by ``ratings.services.flags``."""
