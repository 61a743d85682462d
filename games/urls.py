from django.urls import path

from games import health
from games.accounts import views as account_views
from games.api import views as api_views
from games.bots import views as bot_views
from games.challenges import views as challenge_views
from games.daily import views as daily_views
from games.friends import views as friend_views
from games.pages import home
from games.pages import social as social_views
from games.pages import views as page_views
from games.practice import api as practice_api
from games.races import views as race_views
from games.replays import api as replay_api
from games.tournaments import views as tournament_views

app_name = "games"

urlpatterns = [
    path("", home.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", page_views.favicon, name="favicon"),
    path("races/new", home.race_new, name="race_new"),
    path("races/now", home.race_now_view, name="race_now"),
    path("races/public", home.public_races_list, name="public_races"),
    path("leaderboard/", social_views.leaderboard_page, name="leaderboard"),
    path("@/<str:username>/", social_views.profile_page, name="profile"),
    # Friends (games/friends/, docs/pages.md).
    path("friends/", friend_views.friends_page, name="friends"),
    path("friends/privacy", friend_views.privacy_change, name="friends_privacy"),
    path("friends/invite", friend_views.invite, name="friends_invite"),
    path("@/<str:username>/<str:action>", friend_views.relation_change, name="relation"),
    path("r/<str:code>/", race_views.race_page, name="race"),
    path("r/<str:code>/join", race_views.race_join_view, name="race_join"),
    path("r/<str:code>/close", race_views.race_close_view, name="race_close"),
    # The daily deal and challenges (docs/pages.md).
    path("daily/", daily_views.daily_today_page, name="daily"),
    path("daily/play", daily_views.daily_play, name="daily_play"),
    path("daily/<str:day>/", daily_views.daily_day_page, name="daily_day"),
    path("games/<int:game_id>/challenge", challenge_views.challenge_new, name="challenge_new"),
    path("c/<str:code>/", challenge_views.challenge_page, name="challenge"),
    path("c/<str:code>/take", challenge_views.challenge_take, name="challenge_take"),
    # Arena tournaments (docs/tournaments.md).
    path("tournaments/", tournament_views.tournaments_page, name="tournaments"),
    path("tournaments/new", tournament_views.tournament_new, name="tournament_new"),
    path("t/<str:code>/", tournament_views.tournament_page, name="tournament"),
    path("t/<str:code>/join", tournament_views.tournament_join_view, name="tournament_join"),
    path("t/<str:code>/pause", tournament_views.tournament_pause_view, name="tournament_pause"),
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
    path("accounts/delete/", account_views.delete_account, name="account_delete"),
    path("accounts/tokens/", api_views.tokens_page, name="account_tokens"),
    path(
        "accounts/tokens/<int:token_id>/revoke",
        api_views.token_revoke_view,
        name="account_token_revoke",
    ),
    # The public API's page; the API itself is at /api/v1/ (sultan_site/urls.py).
    path("api/", api_views.api_docs_page, name="api_docs"),
    path("r/<str:code>/bot", bot_views.race_add_bot, name="race_add_bot"),
    # JSON for the practice and replay pages.
    path("api/practice", practice_api.practice_start, name="api_practice"),
    path(
        "api/races/<str:code>/head-to-head",
        friend_views.race_head_to_head,
        name="api_race_head_to_head",
    ),
    path("api/games/<int:game_id>", practice_api.game_detail, name="api_game"),
    path("api/games/<int:game_id>/moves", practice_api.game_move, name="api_game_move"),
    path("api/games/<int:game_id>/replay", replay_api.game_replay_data, name="api_game_replay"),
    path("api/games/<int:game_id>/hint", practice_api.game_hint, name="api_game_hint"),
    path(
        "api/games/<int:game_id>/analysis", replay_api.game_analysis_data, name="api_game_analysis"
    ),
]
