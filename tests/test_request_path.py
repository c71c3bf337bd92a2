"""The lean per-request path (registry/web/__init__.py): what it remembers answers exactly as Flask would."""
import functools

import pytest
from flask import Flask

from registry.web import SYNC_CHECKS_KEPT, remember_sync_checks


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
