"""vendor-d-api: Mistral GET /v1/models (one page; deprecation, replacement, aliases, context length)."""
import re

from ...fields import SOURCE_URLS
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "vendor-d-api"
PROVIDER = "mistral"
KEY_ENV = "MISTRAL_API_KEY"
KEY_REQUIRED = True
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/v1/models"
_DATED = re.compile(r"-\d{4}$")   # mistral-small-2603: a pinned release, the canonical card


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET the model list (not paginated)."""
    return u.one_page(session, base_url.rstrip("/") + PATH, u.bearer(key, KEY_ENV, SOURCE))


def parse(pages: list[Page]) -> list[Record]:
    """One Record per model: alias cards folded into their canonical card, fine-tunes skipped."""
    groups: dict[str, list[tuple[dict, str, str]]] = {}
    for model_id, item, ctx in u.listed(pages, "data", "id", SOURCE):
        # Fine-tuned cards are one account's private models, not public releases.
        if item.get("type") == "fine-tuned" or model_id.startswith("ft:"):
            continue
        # Every alias is listed as its own card: cards of one model share billing_model_name / name.
        key = u.opt_str(item, "billing_model_name", ctx) or u.opt_str(item, "name", ctx) or model_id
        groups.setdefault(key, []).append((item, model_id, ctx))
    chosen = {key: _canonical(key, cards) for key, cards in groups.items()}
    to_canonical = {}
    for key, cards in groups.items():
        for item, model_id, ctx in cards:
            for name in [model_id, *u.opt_list(item, "aliases", ctx)]:
                to_canonical.setdefault(name, chosen[key][1])
    return [_record(chosen[key], groups[key], to_canonical) for key in sorted(groups)]


def _canonical(key: str, cards: list) -> tuple:
    """The card named like the group, else a dated one, else any not floating (-latest), by id."""
    def rank(card):
        model_id = card[1]
        return (model_id != key, not _DATED.search(model_id), "latest" in model_id, model_id)
    return min(cards, key=rank)


def _record(card: tuple, cards: list, to_canonical: dict) -> Record:
    """The Record of the canonical card; the other cards' ids and every listed alias become aliases."""
    item, model_id, ctx = card
    name = u.opt_str(item, "name", ctx)
    replacement = u.opt_str(item, "deprecation_replacement_model", ctx)
    capabilities = item.get("capabilities")
    if capabilities is not None and not isinstance(capabilities, dict):
        raise SourceError(f"{ctx}: 'capabilities' should be an object")
    fields = u.stated(
        # `name` is usually just an id; only a real human label (with a space) is a display name.
        display_name=name if name and " " in name else None,
        input_context_window=u.opt_int(item, "max_context_length", ctx),
        # `deprecation` is the day the model is retired (Mistral's listing gives codestral-2501 2025-11-30, the
        # retirement its lifecycle page names, deprecation announced 2025-11-06): a shutdown day.
        sunset_date=u.day(item.get("deprecation"), ctx, "deprecation"),
        # A floating replacement (codestral-latest) names the card it is an alias of.
        successor=to_canonical.get(replacement, replacement) if replacement else None,
        description=u.opt_str(item, "description", ctx),
        owned_by=u.opt_str(item, "owned_by", ctx),
        capabilities=capabilities,
    )
    # `created` is the request time on every card: never a release date, not even metadata.
    aliases = [model_id]
    for other, other_id, other_ctx in cards:
        for alias in [other_id, *u.opt_list(other, "aliases", other_ctx)]:
            if alias not in aliases:
                aliases.append(alias)
    return Record(model_id, PROVIDER, fields, [(a, "official") for a in aliases])
