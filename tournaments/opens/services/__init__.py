"""The services of table opens: creating and starting one, typing a round's score sheets, a
table's dispute and ruling."""
