from django.contrib import admin
from django.urls import include, path

from games.i18n.views import SiteJavaScriptCatalog

# Used when DEBUG is off; under DEBUG, views that know a thing is missing render
# the same notice themselves (games.races.views.no_such_race).
handler404 = "games.pages.views.not_found"

urlpatterns = [
    path("admin/", admin.site.urls),
    # POST /i18n/setlang/ (language, next): the header's language switch.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/<str:language>/", SiteJavaScriptCatalog.as_view(), name="jsi18n"),
    path("", include("games.urls")),
]
