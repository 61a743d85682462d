from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from games.engine import VARIANTS
from games.forms import RaceForm


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"race_form": RaceForm(), "variants": VARIANTS})


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})
