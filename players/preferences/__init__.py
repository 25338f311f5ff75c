"""How the site reads to each person: the time zone and the language their profile chose
(`timezones`: the choices and their check), applied to every request (`middleware`), and the
header's language switcher, which saves the choice in the profile (`views`)."""
