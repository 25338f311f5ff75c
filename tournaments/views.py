from django.shortcuts import render


def championship_list_view(request):
    return render(request, "tournaments/championship_list.html", {"championships": []})
