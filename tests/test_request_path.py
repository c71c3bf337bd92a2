"""The lean per-request path (registry/web/__init__.py): what it remembers answers exactly as Flask would."""
import functools

import pytest
from flask import Blueprint, Flask
from flask_limiter import ExemptionScope, Limiter

from registry.web import SYNC_CHECKS_KEPT, limit_scopes, remember_sync_checks


def plain():
    return "plain"


async def coroutine():
    return "coroutine"


class Unhashable:
    """A callable that cannot be a dict key: asked every time, never remembered."""

    __hash__ = None

    def __call__(self):
        return "unhashable"


def outcome(ensure_sync, func):
    """What ensure_sync gives for func: the callable it returns, or the error it raises."""
    try:
        return ensure_sync(func)
    except Exception as err:   # no asgiref: Flask refuses a coroutine function with a RuntimeError
        return type(err)


@pytest.mark.parametrize("func", [plain, functools.partial(plain), Flask("x").make_response, Unhashable(),
                                  coroutine], ids=["function", "partial", "bound method", "unhashable", "async"])
def test_remembered_answers_are_flasks(func):
    app = Flask("remembered")
    flask_answer = outcome(app.ensure_sync, func)
    remember_sync_checks(app)
    first, again = outcome(app.ensure_sync, func), outcome(app.ensure_sync, func)
    if isinstance(flask_answer, type):
        assert first is flask_answer and again is flask_answer
    else:
        assert first == flask_answer and again == flask_answer


@pytest.mark.parametrize("made", [SYNC_CHECKS_KEPT - 1, SYNC_CHECKS_KEPT + 50])
def test_functions_made_per_request_do_not_grow_it_without_bound(made):
    app = Flask("bounded")
    calls = []
    ask_flask = app.ensure_sync

    def counted(func):
        calls.append(func)
        return ask_flask(func)
    app.ensure_sync = counted
    remember_sync_checks(app)
    made_now = [functools.partial(plain) for _ in range(made)]
    for func in made_now + made_now:
        assert app.ensure_sync(func) is func
    # Each is asked once while there is room; beyond the bound, every time.
    remembered = min(made, SYNC_CHECKS_KEPT)
    assert len(calls) == remembered + 2 * (made - remembered)


# flask-limiter's exemption lookups (registry/web/limit_scopes.py): remembered, the same answers.
ROUTES = {   # url -> what three requests answer under a default budget of 2/minute per route
    "/app": [200, 200, 429],
    "/open/x": [200, 200, 429],
    "/limited/x": [200, 429, 429],        # its own 1/minute on top of the default
    "/exempt/x": [200, 200, 200],
    "/open/exempt-route": [200, 200, 200],
    "/parent/child/x": [200, 200, 200],   # the parent is exempt with its descendants
}


def limited_app(remember: bool):
    """A Flask app with one route of each kind flask-limiter tells apart, and its limiter."""
    app = Flask("scopes")
    limiter = Limiter(key_func=lambda: "client", app=app, default_limits=["2/minute"], storage_uri="memory://")
    if remember:
        assert limit_scopes.install(limiter)

    # flask-limiter knows views by qualified name: one function per route, as in an app.
    def answer():
        return "ok"

    def exempt_answer():
        return "ok"
    app.get("/app")(answer)
    blueprints = {name: Blueprint(name, __name__, url_prefix=f"/{name}")
                  for name in ("open", "limited", "exempt", "parent", "child")}
    for bp in blueprints.values():
        bp.get("/x")(answer)
    blueprints["open"].get("/exempt-route")(limiter.exempt(exempt_answer))
    limiter.limit("1/minute")(blueprints["limited"])
    limiter.exempt(blueprints["exempt"])
    limiter.exempt(blueprints["parent"], flags=ExemptionScope.DEFAULT | ExemptionScope.DESCENDENTS)
    blueprints["parent"].register_blueprint(blueprints["child"])
    for name in ("open", "limited", "exempt", "parent"):
        app.register_blueprint(blueprints[name])
    return app, limiter, blueprints


@pytest.mark.parametrize("remember", [False, True], ids=["flask-limiter", "remembered"])
@pytest.mark.parametrize("url", ROUTES)
def test_remembered_exemptions_limit_as_flask_limiter_does(url, remember):
    client = limited_app(remember)[0].test_client()
    assert [client.get(url).status_code for _ in range(3)] == ROUTES[url]


def test_an_exemption_added_later_is_not_answered_from_memory():
    app, limiter, blueprints = limited_app(remember=True)
    client = app.test_client()
    assert [client.get("/open/x").status_code for _ in range(3)] == [200, 200, 429]
    limiter.exempt(blueprints["open"])
    assert client.get("/open/x").status_code == 200


def test_the_registry_limiter_remembers(app):
    # Fails when an upgrade of flask-limiter changes the manager this relies on: look again then.
    assert isinstance(app.extensions["registry_limiter"].limit_manager, limit_scopes.RememberingLimitManager)


def test_an_unknown_manager_is_left_alone():
    class StandIn:
        limit_manager = object()
    limiter = StandIn()
    manager = limiter.limit_manager
    assert not limit_scopes.install(limiter) and limiter.limit_manager is manager
