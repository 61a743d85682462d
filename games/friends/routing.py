from django.urls import path

from games.friends.consumer import SiteConsumer

websocket_urlpatterns = [
    path("ws/site/", SiteConsumer.as_asgi()),
]
