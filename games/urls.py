from django.urls import path

from games import race_views, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("races/new", race_views.race_new, name="race_new"),
    path("r/<str:code>/", race_views.race_page, name="race"),
    path("r/<str:code>/join", race_views.race_join_view, name="race_join"),
]
