"""/compare?models=a,b,c: models side by side, as their answers say them (docs/api-decisions.md#pages): each
one's lifecycle on every platform, context, capabilities and prices."""
from .. import pricing
from ..fields import CAPABILITIES, PLATFORM_NAMES
from ..queries import catalog, prices
from ..queries.capabilities import capability_set
from ..web import params
from ..web.connection import get_db
from ..web.errors import bad_request
from ..wording import mode_prices, price
from . import page, present, render

MOST = 5   # models on one page: a sixth column is no comparison a person reads


@page("/compare", takes=("models",))
def compare():
    """Two to five models side by side."""
    slugs = list(dict.fromkeys(params.listed("models") or []))
    if not 2 <= len(slugs) <= MOST:
        raise bad_request(f"Parameter 'models' must name 2 to {MOST} models, comma-separated (slugs).")
    db = get_db()
    columns = [_column(db, params.get_or_404("Model", catalog.model_by_slug, slug)) for slug in slugs]
    platforms = [p for p in PLATFORM_NAMES if any(p in c["platforms"] or p in c["prices"] for c in columns)]
    # A fact any of them has is a row (each model's facts come in one order); capabilities are rows of their own.
    labels = [label for label in columns[0]["facts"] if any(c["facts"][label] for c in columns)]
    return render("compare", columns=columns, labels=labels, served=platforms, priced=pricing.PRICED_PLATFORMS,
                  capabilities=CAPABILITIES, names=PLATFORM_NAMES)


def _column(db, row) -> dict:
    """What the page says of one model: its facts, capabilities, lifecycle and price per platform."""
    metadata = catalog.metadata_of(row)
    lifecycles = {r["platform"]: catalog.platform_dict(r) for r in catalog.platform_lifecycles(db, row["id"])}
    return {"model": row, "facts": dict(present.facts_of(row)), "capabilities": capability_set(row),
            "platforms": lifecycles,
            "prices": {p["platform"]: "; ".join([price(p), *mode_prices(p).values()])
                       for p in prices.current(metadata)}}
