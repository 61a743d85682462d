from django.urls import path

from games.races.consumer import RaceConsumer

websocket_urlpatterns = [
    path("ws/races/<str:code>/", RaceConsumer.as_asgi()),
]
