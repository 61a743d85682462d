from django.contrib import admin
from django.urls import include, path

# Used when DEBUG is off; under DEBUG, views that know a thing is missing render
# the same notice themselves (games.races.views.no_such_race).
handler404 = "games.pages.views.not_found"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
