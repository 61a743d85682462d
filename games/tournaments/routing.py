from django.urls import path

from games.tournaments.consumer import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<str:code>/", TournamentConsumer.as_asgi()),
]
