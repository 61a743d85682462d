from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from games.health import health
from games.page_views import home_context


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", home_context(request))


async def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the channel layer both answer, else 503 naming the failure."""
    report = await health()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
