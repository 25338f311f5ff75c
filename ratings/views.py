from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render


def ranking_list_view(request):
    return render(request, "ratings/ranking_list.html", {"rows": []})


@staff_member_required
def review_queue_view(request):
    return render(request, "ratings/review_queue.html", {"reviews": []})
