"""The catalog pages: a model, a family with its timeline, providers, and the deprecations list."""
from ..queries import catalog, changes, model_list, schedule
from ..web import params
from ..web.params import get_or_404
from ..web.connection import get_db
from ..web.errors import not_found
from ..fields import OFFICIAL, RETIRING
from ..lifecycle import days_left, today
from ..resolve.upgrade import upgrade_for
from . import page, present, render, timeline

LAST_DAY = "9999-12-31"   # no upper bound on the clouds' coming shutdowns
CHANGES = 10              # a model page's recent changes
# A family page's models per page: every real family fits on one (the largest has 19); a family of hundreds stays
# a page a browser draws at once, and one the response cache can keep (docs/api-decisions.md#pages).
FAMILY_PAGE = 25


@page("/models/<slug>")
def model(slug):
    """A model's page: status, upgrade and its ids, ids per platform, facts, sources, timeline."""
    db = get_db()
    row = get_or_404("Model", catalog.model_by_slug, slug)
    upgrade = upgrade_for(db, row)
    successor = catalog.model_row(db, model_id=row["successor_id"]) if row["successor_id"] else None
    family_rows = catalog.family_models(db, row["family_slug"])
    nearby = timeline.around(family_rows, slug, upgrade["slug"] if upgrade else None)
    return render("model", model=row, facts=present.model_facts(row), ids=present.platform_ids(db, row),
                  prices=present.price_rows(db, row, today()),
                  upgrade=upgrade, upgrade_ids=present.upgrade_ids(db, row, upgrade) if upgrade else [],
                  why=present.explain_upgrade(row, upgrade, catalog.platform_lifecycle(db, row["id"], OFFICIAL)),
                  points_to=catalog.points_to(db, row),
                  successor=successor, provenance=present.provenance(row),
                  changes=present.changes(changes.recent_changes(db, model_id=row["id"], limit=CHANGES)),
                  days_left=days_left(row["sunset_date"], today()),
                  timeline=timeline.family_timeline(nearby, today(), slug), family_size=len(family_rows),
                  shown=len(nearby))


@page("/families/<slug>", takes=("page",))
def family(slug):
    """A family's page: its timeline, then its models, FAMILY_PAGE of them a page (`?page=2`)."""
    db = get_db()
    found = get_or_404("Family", catalog.get_family, slug)
    rows = catalog.family_models(db, slug)
    pages = max(1, -(-len(rows) // FAMILY_PAGE))
    number = params.integer("page", default=1, minimum=1)
    if number > pages:
        raise not_found("Page", f"{number} of family {slug}, which has {pages}")
    shown = rows[(number - 1) * FAMILY_PAGE:number * FAMILY_PAGE]
    return render("family", family=found, models=present.lifecycle_rows(db, shown, today()),
                  timeline=timeline.family_timeline(rows, today()),
                  paging={"number": number, "pages": pages, "first": (number - 1) * FAMILY_PAGE + 1,
                          "last": (number - 1) * FAMILY_PAGE + len(shown), "total": len(rows)})


@page("/providers")
def providers():
    """Every provider."""
    return render("providers", providers=catalog.list_providers(get_db()))


@page("/providers/<slug>")
def provider(slug):
    """A provider: the latest model of each family, and its families."""
    db = get_db()
    found = get_or_404("Provider", catalog.get_provider, slug)
    latest, _ = model_list.list_models(db, {"provider": slug, "status": ["latest"]}, "release_date", 1, 200)
    return render("provider", provider=found, families=catalog.list_families(db, slug, None), latest=latest)


@page("/deprecations", takes=("status", "sort", "provider"))
def deprecations():
    """Deprecated (or shut down) models with shutdown day and upgrade, sorted and filtered."""
    db = get_db()
    status = params.choice("status", RETIRING, default="deprecated")
    sort = params.choice("sort", tuple(schedule.RETIRING_SORTS), default="sunset_date")
    provider = params.text("provider")
    rows = schedule.retiring_models(db, status, provider, sort)
    day = today()
    shown = present.lifecycle_rows(db, rows, day)
    # A cloud retiring its id on a day of its own, while the model itself may still be working there.
    clouds = present.shutdowns([], schedule.platform_shutdowns(db, day, LAST_DAY, provider), day) \
        if status == "deprecated" else []
    return render("deprecations", rows=shown, clouds=clouds, status=status, sort=sort, provider=provider,
                  sorts=schedule.RETIRING_SORTS, providers=catalog.list_providers(db))
