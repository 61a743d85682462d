from django.contrib import admin
from django.urls import include, path

from games.i18n.views import SiteJavaScriptCatalog

urlpatterns = [
    path("admin/", admin.site.urls),
    # POST /i18n/setlang/ (language, next): the header's language switch.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/<str:language>/", SiteJavaScriptCatalog.as_view(), name="jsi18n"),
    path("", include("games.urls")),
]
