"""The demo's people: the account holders' names, and account-less players by country with
family names in the form that agrees with the first name."""

from __future__ import annotations

PASSWORD = "tantrix-demo"
# The players who have accounts (username = first name in lower case).
NAMES = [
    ("Ingrid", "NO"),
    ("Tomas", "NZ"),
    ("Csilla", "HU"),
    ("Bela", "HU"),
    ("Ana", "ES"),
    ("Dora", "DE"),
    ("Mike", "US"),
    ("Aroha", "NZ"),
    ("Pieter", "NL"),
    ("Jana", "CZ"),
    ("Kasia", "PL"),
    ("Lucas", "FR"),
    ("Emma", "GB"),
    ("Noah", "AU"),
    ("Giulia", "IT"),
    ("Sven", "DE"),
]
# The account holders' family names (their usernames stay their first names).
SURNAMES = {
    "Ingrid": "Solberg",
    "Tomas": "Walker",
    "Csilla": "Varga",
    "Bela": "Horváth",
    "Ana": "García",
    "Dora": "Becker",
    "Mike": "Anderson",
    "Aroha": "Tipene",
    "Pieter": "Bakker",
    "Jana": "Horáková",
    "Kasia": "Zielińska",
    "Lucas": "Moreau",
    "Emma": "Clarke",
    "Noah": "Mitchell",
    "Giulia": "Romano",
    "Sven": "Hoffmann",
}
# How the account holders' first names are written in full ("Bela" is the username).
FIRST_NAMES = {"Bela": "Béla"}
ACCOUNT_WOMEN = {"Ingrid", "Csilla", "Ana", "Dora", "Aroha", "Jana", "Kasia", "Emma", "Giulia"}

# Account-less players entered by organisers, per country: women's first names, men's first
# names, and family names. Where the language gives a woman's family name its own form
# (Russian Smirnov/Smirnova, Czech Dvořák/Dvořáková, Polish Kowalski/Kowalska) the family name
# is a (man's, woman's) pair. Hungarian names are shown in the Western order, given name first,
# as the rest of the site shows every name. No name starts with a capital outside ASCII
# ("Şahin", "Černý"): SQLite's LOWER() folds only ASCII, so on `make run`'s database a record
# naming such a player would not find them (players.selectors.players_by_names).
_PEOPLE: dict[str, tuple[list[str], list[str], list[str | tuple[str, str]]]] = {
    "HU": (
        ["Zsófia", "Réka", "Katalin", "Eszter"],
        ["Gábor", "Péter", "Attila", "Bence"],
        ["Nagy", "Kovács", "Tóth", "Szabó", "Balogh"],
    ),
    "CZ": (
        ["Lenka", "Tereza", "Petra", "Kateřina"],
        ["Petr", "Jakub", "Ondřej", "Tomáš"],
        [
            ("Novák", "Nováková"),
            ("Svoboda", "Svobodová"),
            ("Dvořák", "Dvořáková"),
            ("Král", "Králová"),
            ("Procházka", "Procházková"),
        ],
    ),
    "RU": (
        ["Olga", "Anna", "Natalia", "Yekaterina"],
        ["Ivan", "Dmitri", "Sergei", "Alexei"],
        [
            ("Ivanov", "Ivanova"),
            ("Petrov", "Petrova"),
            ("Smirnov", "Smirnova"),
            ("Kuznetsov", "Kuznetsova"),
            ("Volkov", "Volkova"),
        ],
    ),
    "TR": (
        ["Elif", "Zeynep", "Ayşe", "Defne"],
        ["Emre", "Mehmet", "Can", "Burak"],
        ["Yılmaz", "Kaya", "Demir", "Aydın", "Arslan"],
    ),
    "DE": (
        ["Lena", "Mia", "Sophie", "Hannah"],
        ["Jonas", "Felix", "Paul", "Lukas"],
        ["Müller", "Schmidt", "Weber", "Fischer"],
    ),
    "NZ": (
        ["Ruby", "Isla", "Mere", "Hana"],
        ["Liam", "Nikau", "Manaia", "Tama"],
        ["Smith", "Williams", "Ngata", "Parata"],
    ),
    "GB": (
        ["Amelia", "Grace", "Sophie"],
        ["Oliver", "Harry", "George"],
        ["Brown", "Taylor", "Evans", "Hughes"],
    ),
    "US": (["Olivia", "Ava", "Emily"], ["Ethan", "Mason", "Logan"], ["Johnson", "Miller", "Davis"]),
    "PL": (
        ["Zofia", "Maja", "Agnieszka"],
        ["Jan", "Piotr", "Tomasz"],
        ["Nowak", "Wójcik", ("Kowalski", "Kowalska"), ("Wiśniewski", "Wiśniewska")],
    ),
    "FR": (
        ["Chloé", "Inès", "Camille"],
        ["Hugo", "Louis", "Jules"],
        ["Martin", "Bernard", "Dubois"],
    ),
    "NL": (["Sanne", "Fleur", "Anouk"], ["Daan", "Bram", "Sem"], ["de Jong", "Jansen", "Visser"]),
    "AU": (
        ["Charlotte", "Matilda", "Chloe"],
        ["Jack", "William", "Oscar"],
        ["Wilson", "Thompson", "Nguyen"],
    ),
    "JP": (
        ["Yui", "Aiko", "Sakura"],
        ["Haruto", "Kenji", "Takeshi"],
        ["Satō", "Suzuki", "Takahashi", "Tanaka"],
    ),
}
# Every woman's first name of the demo, for the tests of the family names' forms.
WOMEN = ACCOUNT_WOMEN | {name for women, _men, _surnames in _PEOPLE.values() for name in women}


def account_less_people() -> list[tuple[str, str]]:
    """Every (full name, country) of the account-less players, each family name in the form
    that agrees with the first name."""
    people = []
    for country, (women, men, surnames) in _PEOPLE.items():
        for first in women + men:
            for surname in surnames:
                if isinstance(surname, tuple):
                    surname = surname[1] if first in WOMEN else surname[0]
                people.append((f"{first} {surname}", country))
    return people
