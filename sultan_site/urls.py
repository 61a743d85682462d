from django.contrib import admin
from django.urls import include, path

from games.api.api import api
from games.i18n.views import SiteJavaScriptCatalog

# Used when DEBUG is off; under DEBUG, views that know a thing is missing render
# the same notice themselves (games.races.views.no_such_race).
handler404 = "games.pages.views.not_found"

urlpatterns = [
    path("admin/", admin.site.urls),
    # POST /i18n/setlang/ (language, next): the header's language switch.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/<str:language>/", SiteJavaScriptCatalog.as_view(), name="jsi18n"),
    # The public API (docs/api.md), its schema at /api/v1/schema: a namespace of its own.
    path("api/v1/", api.urls),
    path("", include("games.urls")),
]
