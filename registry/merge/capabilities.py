"""The normalized capability set, read at merge time from what each source states.

Sources state capabilities in their own shapes (Anthropic's and Mistral's `capabilities` objects, xAI's
modality lists, Gemini's `thinking`, Cohere's `features`, the hub's `pipeline_tag`); each reader below
turns one shape into the names of fields.CAPABILITIES, and the per-field priority table picks each
name's value and source, as for every other field (docs/api-decisions.md#capabilities). A capability no
source states stays unknown (absent, shown as null): a missing statement is never read as false.
"""
import json

from ..fields import CAPABILITIES, MODALITIES, REASONING_EFFORTS
from .priority import pick

FLAGS = ("tool_calling", "reasoning", "vision")
# Keys of a provider's capabilities object, by the capability they state (Anthropic: {"supported": bool}
# objects; Mistral: plain booleans).
_FLAG_KEYS = {"vision": ("image_input", "vision"), "reasoning": ("thinking", "reasoning"),
              "tool_calling": ("function_calling", "tool_use", "tools"), "structured_output": ("structured_outputs",)}
# A Hugging Face pipeline tag -> (input modalities, output modalities) its task implies.
PIPELINE_MODALITIES = {
    "text-generation": (("text",), ("text",)),
    "image-text-to-text": (("text", "image"), ("text",)),
    "audio-text-to-text": (("text", "audio"), ("text",)),
    "video-text-to-text": (("text", "video"), ("text",)),
    "any-to-any": (None, None),
    "automatic-speech-recognition": (("audio",), ("text",)),
    "text-to-speech": (("text",), ("audio",)),
    "text-to-audio": (("text",), ("audio",)),
    "text-to-image": (("text",), ("image",)),
    "image-to-text": (("image",), ("text",)),
    "text-to-video": (("text",), ("video",)),
    "feature-extraction": (("text",), None),
    "sentence-similarity": (("text",), None),
    "text-ranking": (("text",), None),
}


def _supported(value) -> bool | None:
    """A capability entry as a boolean: Mistral's plain bool, Anthropic's {"supported": bool}; else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, dict) and isinstance(value.get("supported"), bool):
        return value["supported"]
    return None


def _modalities(value) -> list | None:
    """A modality list in MODALITIES order, unknown words dropped; None when nothing known is left."""
    if not isinstance(value, (list, tuple)):
        return None
    named = {item.lower() for item in value if isinstance(item, str) and len(item) <= 40}
    known = [m for m in MODALITIES if m in named]
    return known or None


def _from_capabilities_object(caps) -> dict:
    """Anthropic's and Mistral's `capabilities`: the flags they name, and the modalities of a chat model."""
    if not isinstance(caps, dict):
        return {}
    out = {}
    for name, keys in _FLAG_KEYS.items():
        for key in keys:
            value = _supported(caps.get(key))
            if value is not None:
                out[name] = value
                break
    effort = caps.get("effort")
    if _supported(effort):
        # Anthropic: {"supported": true, "low": {"supported": true}, ...}, the efforts a request may ask for.
        out["reasoning_efforts"] = [word for word in REASONING_EFFORTS if _supported(effort.get(word))] or None
    if "image_input" in caps:
        # Anthropic lists the inputs a Messages model takes beyond text: images, PDFs.
        extra = [m for m, key in (("image", "image_input"), ("pdf", "pdf_input")) if _supported(caps.get(key))]
        out["input_modalities"] = ["text", *extra]
    elif _supported(caps.get("completion_chat")):
        # Mistral: a chat model reads text, and images or audio where its flags say so; it answers text.
        extra = [m for m, key in (("image", "vision"), ("audio", "audio")) if _supported(caps.get(key))]
        out["input_modalities"] = ["text", *extra]
        out["output_modalities"] = ["text"]
    elif _supported(caps.get("audio_transcription")):
        out["input_modalities"], out["output_modalities"] = ["audio"], ["text"]
    return out


def _from_cohere(features, endpoints) -> dict:
    """Cohere's `features` of a chat model: the complete list of what it supports."""
    if not isinstance(features, list) or not isinstance(endpoints, list) or "chat" not in endpoints:
        return {}
    vision = "vision" in features
    return {"tool_calling": "tools" in features, "reasoning": "reasoning" in features, "vision": vision,
            "structured_output": "json_schema" in features,
            "input_modalities": ["text", "image"] if vision else ["text"], "output_modalities": ["text"]}


def _from_pipeline(tag) -> dict:
    inputs, outputs = PIPELINE_MODALITIES.get(tag, (None, None)) if isinstance(tag, str) else (None, None)
    out = {}
    if inputs:
        out["input_modalities"] = list(inputs)
    if outputs:
        out["output_modalities"] = list(outputs)
    return out


def _as_stated(name: str, raw):
    """A value stated under the capability's own name, in its kind (validated by the ingest check or curation's
    rules); None for one of another kind."""
    if name.endswith("modalities"):
        return _modalities(raw)
    if name == "reasoning_efforts":
        return ([word for word in REASONING_EFFORTS if word in raw] or None) if isinstance(raw, list) else None
    if name == "knowledge_cutoff":
        return raw if isinstance(raw, str) else None
    return raw if isinstance(raw, bool) else None


def stated_by(fields: dict, source: str) -> dict:
    """The capabilities one source states for a model, normalized; fields: field -> {source: value}."""
    def value(field):
        return fields.get(field, {}).get(source)
    out = {}
    out.update(_from_pipeline(value("pipeline_tag")))
    out.update(_from_capabilities_object(value("capabilities")))
    out.update(_from_cohere(value("features"), value("endpoints")))
    for field in ("thinking", "supports_vision"):
        if isinstance(value(field), bool):
            out["reasoning" if field == "thinking" else "vision"] = value(field)
    # Fields named as the capability itself (xAI's modality lists; curation, which may also say null).
    for name in CAPABILITIES:
        if name in fields and source in fields[name]:
            out[name] = _as_stated(name, fields[name][source])
    for name in ("input_modalities", "output_modalities"):
        if name in out and out[name] is not None:
            out[name] = _modalities(out[name])
    # A source that lists a model's inputs has said whether it reads images.
    if "vision" not in out and out.get("input_modalities"):
        out["vision"] = "image" in out["input_modalities"]
    return out


def capabilities(fields: dict) -> dict:
    """name -> (value, source) of every capability some source states, picked by the priority table."""
    sources = {source for by_source in fields.values() for source in by_source}
    by_name = {}
    for source in sources:
        for name, value in stated_by(fields, source).items():
            by_name.setdefault(name, {})[source] = value
    chosen = {}
    for name in CAPABILITIES:
        picked = pick(name, by_name.get(name, {}))
        if picked is not None and picked[0] is not None:
            chosen[name] = picked
    return chosen


def capability_rows(model_id: int, stored: str | None) -> list:
    """The model_capabilities rows of one model's stored set: (capability, value, model_id)."""
    rows = []
    for name, value in (json.loads(stored) if stored else {}).items():
        if isinstance(value, bool):
            rows.append((name, "true" if value else "false", model_id))
        elif isinstance(value, str):   # a knowledge cutoff: its month or day, compared as text
            rows.append((name, value, model_id))
        else:
            rows += [(name, modality, model_id) for modality in value]
    return rows


def write_capability_rows(conn, sets: dict) -> None:
    """Replace the filter rows of the models whose set changed (model id -> the stored JSON or None)."""
    if not sets:
        return
    conn.executemany("DELETE FROM model_capabilities WHERE model_id = ?", [(i,) for i in sets])
    conn.executemany("INSERT INTO model_capabilities (capability, value, model_id) VALUES (?, ?, ?)",
                     [row for model_id, stored in sets.items() for row in capability_rows(model_id, stored)])
