from players.notices.selectors import unread_notice_count
from players.roles import is_admin, is_organiser, player_of


def roles(request):
    user = getattr(request, "user", None)
    return {
        "current_player": player_of(user),
        "is_organiser": is_organiser(user),
        "is_site_admin": is_admin(user),
        # Called by the template only where the header shows it (a query per page then).
        "unread_notices": lambda: unread_notice_count(user),
    }
