import os
from typing import Any, cast

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")

# Django must be set up before anything imports models (the routing below does).
django_asgi_app = get_asgi_application()

from sultan_site.checks import production_start_check  # noqa: E402

# DEBUG off: a missing static manifest or a placeholder secret stops the process here,
# with the reason and the fix, rather than answering 500 on every page.
production_start_check()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.api.sockets import BearerTokenSockets  # noqa: E402
from games.bots.address import bound_address_note  # noqa: E402
from games.friends.routing import websocket_urlpatterns as site_socket  # noqa: E402
from games.metrics.exposition import metrics_serve_from_environment  # noqa: E402
from games.quotas.solver import solver_processes_start  # noqa: E402
from games.races.publisher import Publisher  # noqa: E402
from games.races.routing import websocket_urlpatterns  # noqa: E402
from games.tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

# Prometheus' figures on a port of their own, never through nginx (games/metrics/).
metrics_serve_from_environment()
# The solver's processes, ready before the first hint (games/quotas/solver.py).
solver_processes_start()


class _StartsRacePublisher:
    """The race publisher runs from the process's first request of any kind (a health
    check will do): a process restarted after a crash sweeps what its predecessor
    committed and never announced, whether or not a socket reaches it.

    The same first request tells the process its own address: the local end of the
    connection (`server`, from the socket, never a header), where the house bot
    connects unless SULTAN_BOT_SOCKET_URL says otherwise (games/bots/address.py)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        Publisher.ensure()
        bound_address_note(scope.get("server"))
        await self.app(scope, receive, send)


async def _no_such_socket(scope: Any, receive: Any, send: Any) -> None:
    """A socket on a path no route takes (or a token's socket on a path that takes
    none): closed with 4404 (docs/protocol.md), where URLRouter would raise and the
    server log an error for every stray or probing client."""
    await receive()  # the handshake's websocket.connect
    await send({"type": "websocket.close", "code": 4404})


# An ASGI app where the stubs expect a view: URLRouter takes either.
NOWHERE = [re_path(r"", cast(Any, _no_such_socket))]

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A socket from another site's page is refused before it reaches a consumer;
        # a program's, with a bearer token, is the token's account (games/api/sockets.py).
        "websocket": BearerTokenSockets(
            browsers=AllowedHostsOriginValidator(
                AuthMiddlewareStack(
                    URLRouter(websocket_urlpatterns + site_socket + tournament_sockets + NOWHERE)
                )
            ),
            programs=URLRouter(websocket_urlpatterns + NOWHERE),
        ),
    }
)
application = _StartsRacePublisher(router)
