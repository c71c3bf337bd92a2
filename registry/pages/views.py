"""The pages a visit starts on: home (search, paste an id, the coming shutdowns), search, resolve, /llms.txt."""
from datetime import date, timedelta

from flask import current_app

from ..queries import catalog, changes, schedule
from ..web import params
from ..web.connection import get_db, request_snapshot
from ..lifecycle import today
from ..resolve import resolve_identifier
from ..search import ranking
from ..search.vocabulary import lexicon
from . import bp, page, present, render, render_markdown

HORIZON_DAYS = 90        # the home page's "shutdowns of the next 90 days"
SEARCH_LIMIT = 50        # the search page (the box on home asks the API for fewer)
CHANGES = 10             # the home page's latest changes
HOME_SHUTDOWNS = 25      # the home page lists the soonest; /deprecations has them all


def _query() -> str | None:
    """The optional q of the search and resolve pages: None when absent or blank, else the API's checks."""
    value = params.single("q")
    if value is None or not value.strip():
        return None
    return params.query_text()


@page("/")
def home():
    """The start page: search, paste an identifier, the shutdowns of the next 90 days."""
    day = today()
    until = (date.fromisoformat(day) + timedelta(days=HORIZON_DAYS)).isoformat()
    db = get_db()
    soon = present.shutdowns(schedule.shutdowns_between(db, day, until),
                             schedule.platform_shutdowns(db, day, until), day)
    return render("home", shutdowns=soon[:HOME_SHUTDOWNS], more=len(soon) - HOME_SHUTDOWNS, horizon=HORIZON_DAYS,
                  until=until,
                  changes=present.changes(changes.recent_changes(db, limit=CHANGES)))


@page("/search", takes=("q",))
def search():
    """Search results for a person (the search box without JavaScript)."""
    q = _query()
    results = []
    if q:
        db = get_db()
        results = ranking.search(db, q, SEARCH_LIMIT, words=lexicon(db, *request_snapshot()))
    return render("search", q=q, results=results)


@page("/resolve", takes=("q",))
def resolve():
    """The resolve answer for a person: model, status, upgrade and its id in the same format."""
    q = _query()
    found = None
    if q is not None:
        found = resolve_identifier(get_db(), *request_snapshot(), q)
    # An id nothing matches is a 404 for a person too, with the form to try another.
    why = present.explain_upgrade(found.model, found.upgrade, found.lifecycle) if found is not None else ""
    return render("resolve", http_status=404 if q and found is None else 200, q=q, found=found, why=why)


@bp.get("/llms.txt")
def llms_txt():
    """The site for agents (llmstxt.org): what is where, with links to the Markdown twins."""
    body = render_markdown("llms.txt", providers=catalog.list_providers(get_db()))
    return current_app.response_class(body, mimetype="text/plain")
