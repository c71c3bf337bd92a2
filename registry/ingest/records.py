"""What a source module hands the runner: one Record per upstream model, and Page for fetched bodies."""
from dataclasses import dataclass, field

from ..merge.runs import RunError


class SourceError(RunError):
    """An upstream fault (HTTP error, timeout, malformed or drifted JSON): the run fails with this message."""


@dataclass
class Page:
    """One fetched response: its JSON body and the headers that matter (e.g. Link)."""

    body: object
    headers: dict = field(default_factory=dict)


@dataclass
class Record:
    """What one upstream said about one model.

    model_id: the upstream's own identifier (matched to models by slug or any known alias).
    provider: provider slug the model belongs to (None: not a provider's model, e.g. a platform row).
    fields: model facts: spec columns (display_name, release_date, input_context_window, ...),
        lifecycle flags (deprecated, retired: bool), successor (an upstream id), and extras that
        land in metadata (tags, capabilities, ...). Absent means "this source does not say".
    aliases: (alias, alias_source) pairs, alias_source one of official, cloud-a, cloud-b, gateway.
    skip: why this record states nothing (a platform's row, an unknown provider); it is still
        counted in the run's details, so no upstream record is dropped silently.
    links: other ids the upstream says name the same model (OpenRouter's canonical_slug and hugging_face_id):
        read only to find the model a platform's id serves, never stored.
    platform: a public catalog's row (registry/ingest/sources/modelsdev.py): the platform (an alias source) its
        id is an id of; it lands only on the model that holds that id there, and writes only that platform's price.
    """

    model_id: str
    provider: str | None
    fields: dict = field(default_factory=dict)
    aliases: list = field(default_factory=list)
    skip: str | None = None
    links: list = field(default_factory=list)
    platform: str | None = None
