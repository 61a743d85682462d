from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from games.engine import VARIANTS
from games.forms import RaceForm
from games.health import health


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"race_form": RaceForm(), "variants": VARIANTS})


async def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the channel layer both answer, else 503 naming the failure."""
    report = await health()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
