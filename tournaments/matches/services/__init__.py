"""The services of a match: counting games and their TPs, time penalties, rulings, walkover
claims and round deadlines."""
