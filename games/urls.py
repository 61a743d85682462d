from django.urls import path

from games import account_views, api_views, page_views, race_views, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("races/new", race_views.race_new, name="race_new"),
    path("r/<str:code>/", race_views.race_page, name="race"),
    path("r/<str:code>/join", race_views.race_join_view, name="race_join"),
    # Pages around the games (docs/pages.md).
    path("join", page_views.join_by_code, name="join"),
    path("guest", page_views.guest_start, name="guest"),
    path("practice/", page_views.practice_random, name="practice"),
    path("practice/<str:deal>/", page_views.practice_page, name="practice_deal"),
    path("games/<int:game_id>/replay/", page_views.replay_page, name="replay"),
    path("games/<int:game_id>/record.txt", page_views.record_download, name="record"),
    path("history/", page_views.history_page, name="history"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/login/", account_views.SultanLoginView.as_view(), name="login"),
    path("accounts/logout/", account_views.SultanLogoutView.as_view(), name="logout"),
    # JSON for the practice and replay pages.
    path("api/practice", api_views.practice_start, name="api_practice"),
    path("api/games/<int:game_id>", api_views.game_detail, name="api_game"),
    path("api/games/<int:game_id>/moves", api_views.game_move, name="api_game_move"),
    path("api/games/<int:game_id>/replay", api_views.game_replay_data, name="api_game_replay"),
    path("api/games/<int:game_id>/hint", api_views.game_hint, name="api_game_hint"),
    path(
        "api/games/<int:game_id>/analysis", api_views.game_analysis_data, name="api_game_analysis"
    ),
]
