"""What a search query asks for beyond names: a task, open weights, a size, recency, a capability, a provider.

INTENT_WORDS is the one table of the words search reads as intent (docs/api-decisions.md#search-by-intent,
which lists it; tests/test_search_intent.py holds every row). parse() splits a query into such terms and
the words left to match names with. A word is compared as typed, then without a plural -s and without an
-er / -r / -ing ending ("rerankers" -> "reranker" -> "rerank", "coder" -> "code"). The database is never
read here: the providers' words come in from the caller.
"""
import re
import unicodedata
from dataclasses import dataclass, field

from ..fields import WORKING
from ..documents import WORD_RUN

TYPE, OPEN, SIZE, BOUND, RECENT, CAPABILITY, CONTEXT, STATUS, PLATFORM, FILLER, PROVIDER, PRICE = (
    "model_type", "open_source", "size", "bound", "recency", "capability", "context", "status", "platform",
    "filler", "provider", "price")


CHEAP = "cheapest first"   # PRICE's value for a word asking for the cheapest (a number: a price at most that)


@dataclass(frozen=True)
class IntentWords:
    """One row of the table: the phrases, what they ask for, and whether they also match names as text.

    names: "prefix" (the word also matches names that start with it: "code" finds Codestral), "word"
    (names holding the word), or None (the words never match names).
    """

    phrases: tuple
    kind: str
    value: object = None
    names: str | None = None


INTENT_WORDS = (
    IntentWords(("speech to text", "speech recognition", "voice to text", "stt", "asr", "transcription",
                 "transcribe", "transcript", "dictation"), TYPE, ("speech_to_text",), "prefix"),
    IntentWords(("text to speech", "speech synthesis", "speech generation", "voice generation", "tts", "voice",
                 "speak"), TYPE, ("audio_generation",), "prefix"),
    IntentWords(("image generation", "text to image", "image generator", "image gen", "image", "picture",
                 "drawing"), TYPE, ("image",), "prefix"),
    IntentWords(("video generation", "text to video", "video"), TYPE, ("video_generation",), "prefix"),
    IntentWords(("text embedding", "semantic search", "embedding", "embed", "embedder", "vector", "retrieval", "rag"),
                TYPE, ("embedding",), "prefix"),
    # The spec's `search` type is what providers list their rerankers as (Cohere's rerank models).
    IntentWords(("rerank", "reranking", "ranking"), TYPE, ("search",), "prefix"),
    IntentWords(("moderation", "content filter", "safety", "guard", "guardrail", "classifier"), TYPE,
                ("moderation",), "prefix"),
    IntentWords(("speech to speech", "real time", "realtime", "live"), TYPE, ("realtime",), "prefix"),
    IntentWords(("code", "coding", "programming", "codegen"), TYPE, ("code",), "prefix"),
    IntentWords(("audio", "sound", "speech"), TYPE, ("audio_generation", "speech_to_text", "realtime"), "prefix"),
    IntentWords(("language model", "text generation", "chat", "chatbot", "llm", "assistant", "conversation",
                 "writing", "summarization", "summarize", "summary", "general purpose"),
                TYPE, ("chat",), "word"),
    IntentWords(("open source", "open weights", "open weight", "open", "oss", "local", "self hosted",
                 "hugging face", "huggingface"), OPEN, True, "word"),
    IntentWords(("closed source", "closed", "proprietary"), OPEN, False),
    IntentWords(("small", "smaller", "smallest", "compact", "lightweight"), SIZE, (None, 15e9), "word"),
    IntentWords(("tiny", "edge", "on device"), SIZE, (None, 4e9), "word"),
    IntentWords(("large", "larger", "largest", "big", "bigger", "biggest", "huge"), SIZE, (100e9, None), "word"),
    IntentWords(("over", "above", "more than", "at least", "bigger than", "larger than"), BOUND, "min"),
    IntentWords(("under", "below", "less than", "at most", "smaller than"), BOUND, "max"),
    IntentWords(("latest", "newest", "new", "current", "recent"), RECENT),
    IntentWords(("reasoning", "reasoner", "thinking", "think"), CAPABILITY, ("reasoning", True), "prefix"),
    IntentWords(("image input", "image understanding", "image to text", "image captioning", "image analysis",
                 "vision", "visual", "multimodal", "vlm"), CAPABILITY,
                ("vision", True), "prefix"),
    IntentWords(("function calling", "tool calling", "tool use", "tool", "agentic"), CAPABILITY,
                ("tool_calling", True), "prefix"),
    IntentWords(("structured output", "structured outputs", "json schema", "json output", "json outputs"), CAPABILITY,
                ("structured_output", True), "prefix"),
    IntentWords(("long context", "longest context", "large context", "largest context", "big context",
                 "biggest context", "huge context", "context window"), CONTEXT, 1_000_000),
    IntentWords(("amazon bedrock", "bedrock", "aws"), PLATFORM, "cloud-a"),
    IntentWords(("google vertex", "vertex ai", "vertex", "gcp"), PLATFORM, "cloud-b"),
    IntentWords(("openrouter",), PLATFORM, "gateway"),
    IntentWords(("cheap", "cheapest", "cheaper", "affordable", "inexpensive", "budget", "low cost", "lowest cost",
                 "lowest price", "least expensive"), PRICE, CHEAP),
    IntentWords(("working", "available", "active", "supported"), STATUS, WORKING),
    IntentWords(("deprecated", "deprecating", "retiring"), STATUS, ("deprecated",)),
    IntentWords(("retired", "sunset", "shut down", "shutdown", "discontinued", "dead"), STATUS, ("sunset",)),
    IntentWords(("model", "ai", "api", "the", "a", "an", "for", "with", "and", "or", "of", "by", "from", "to", "in",
                 "best", "good", "top", "which", "what", "me", "some", "find", "show", "version", "weights",
                 "alternative", "like", "similar", "vs", "versus", "use", "used", "on", "that",
                 "fastest", "powerful", "smartest", "most", "any"), FILLER),
)
# "$<N>": a price per 1M input tokens the model's lowest price is at most (docs/api.md#prices).
PRICE_WORD = re.compile(r"^\$(\d{1,6}(?:\.\d{1,6})?)$")
# "<N>b", "<N>m" (parameters) and "<N>k", "<N>m" before "context" / "tokens" (a context window).
SIZE_WORD = re.compile(r"^(\d+(?:\.\d+)?)([bmk])\+?$")
CONTEXT_WORDS = ("context", "tokens", "token", "ctx")
SCALE = {"b": 1e9, "m": 1e6, "k": 1e3}
_LONGEST = 3     # words in the longest phrase


@dataclass(frozen=True)
class Term:
    """One thing the query asks for: kind and value (see INTENT_WORDS), the words that said it, and the
    text that may stand in for it in a name ((words, prefix) or None)."""

    kind: str
    value: object
    said: str
    names: tuple | None = None


@dataclass
class Plan:
    """A query read: its intent terms, and the words left to match names (as typed)."""

    terms: list = field(default_factory=list)
    text: list = field(default_factory=list)
    last_is_text: bool = True      # the query's last word is one of text (so it may still be being typed)

    @property
    def intent_only(self) -> bool:
        """Every word was read as intent (or filler): no word is left to match names with."""
        return bool(self.terms) and not self.text

    def of(self, kind: str) -> list:
        """The terms of one kind."""
        return [t for t in self.terms if t.kind == kind]


def _table() -> dict:
    phrases = {}
    for row in INTENT_WORDS:
        for phrase in row.phrases:
            phrases[tuple(phrase.split())] = row
    return phrases


PHRASES = _table()
KNOWN = frozenset(word for phrase in PHRASES for word in phrase)


def canonical(word: str) -> str:
    """The table's form of a word: as typed, else without a plural -s, else without -er / -r / -ing."""
    if word in KNOWN:
        return word
    forms = []
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        forms.append(word[:-3] + "y" if word.endswith("ies") else word[:-1])
    for base in [word] + forms:
        forms += [base[:-len(end)] for end in ("er", "r", "ing") if base.endswith(end) and len(base) - len(end) >= 3]
        if base.endswith("ing") and len(base) > 5:
            forms.append(base[:-3] + "e")      # "transcribing" -> "transcribe"
    return next((f for f in forms if f in KNOWN), word)


def _parts(word: str) -> list:
    return WORD_RUN.findall(unicodedata.normalize("NFKC", word).lower())


def parse(q: str, providers: dict | None = None) -> "Plan":
    """Read q: the intent terms it holds and the words left for name matching.

    providers: a provider's words (slug, name; as tuples of lowercase words) -> its slug. A phrase is matched
    over whole whitespace words only (a hyphenated id such as "gpt-realtime" stays a name unless the whole of
    it is one phrase, as "speech-to-text" is); the longest phrase wins.
    """
    providers = providers or {}
    words = unicodedata.normalize("NFKC", q).split()
    units = [_parts(w) for w in words]
    plan, pending, i = Plan(), None, 0
    while i < len(words):
        found = None
        for length in range(min(_LONGEST, len(words) - i), 0, -1):
            span = [p for unit in units[i:i + length] for p in unit]
            if not span or len(span) > _LONGEST or not all(p.isalpha() for p in span):
                continue
            key = tuple(canonical(p) for p in span)
            row = PHRASES.get(key)
            if row is not None:
                found = (length, _term(row, " ".join(words[i:i + length]), span))
                break
            if tuple(span) in providers:
                slug = providers[tuple(span)]
                found = (length, Term(PROVIDER, slug, " ".join(words[i:i + length]), (tuple(span), False)))
                break
        if found is None and (priced := PRICE_WORD.match(words[i])):   # "under $1": at most that, per 1M input
            found = (1, Term(PRICE, float(priced.group(1)), words[i]))
        if found is None and len(units[i]) == 1:
            found = _sized(units[i][0], units[i + 1] if i + 1 < len(units) else [], words[i], pending)
        if found is None:
            plan.text.append(words[i])
            plan.last_is_text = True
            pending = None
            i += 1
            continue
        length, term = found
        plan.last_is_text = False
        if term.kind == BOUND:
            pending = term.value
        else:
            pending = None
            if term.kind != FILLER and all((t.kind, t.value) != (term.kind, term.value) for t in plan.terms):
                plan.terms.append(term)
        i += length
    if all(t.kind == FILLER for t in plan.terms) and not plan.text:
        return Plan(text=words)     # only fillers ("a", "the"): a name being typed
    if not plan.terms and not plan.text:
        plan.text = words
    return plan


def either_type(plan: Plan) -> Plan | None:
    """The plan asking for either of its tasks, when no one type is all of them ("reranker for rag", "speech
    translation"); None when they share a type ("audio transcription") or there are fewer than two."""
    tasks = plan.of(TYPE)
    if len(tasks) < 2 or set.intersection(*(set(t.value) for t in tasks)):
        return None
    either = tuple(dict.fromkeys(v for t in tasks for v in t.value))
    joined = Term(TYPE, either, " ".join(t.said for t in tasks), tasks[0].names)
    terms = [joined if t is tasks[0] else t for t in plan.terms if t is tasks[0] or t.kind != TYPE]
    return Plan(terms=terms, text=list(plan.text), last_is_text=plan.last_is_text)


def _term(row: IntentWords, said: str, span: list) -> Term:
    names = None
    if row.names is not None:
        names = (tuple(canonical(p) for p in span), row.names == "prefix" and len(span) == 1)
    return Term(row.kind, row.value, said, names)


def _sized(part: str, following: list, said: str, bound: str | None):
    """A size ("70b", "8b+", "over 30b") or a context ("1m context"), as (words used, term); else None."""
    match = SIZE_WORD.match(part)
    if not match:
        return None
    number = float(match.group(1)) * SCALE[match.group(2)]
    if following and following[0] in CONTEXT_WORDS:
        return 2, Term(CONTEXT, int(number), said)
    if match.group(2) == "k":
        return None
    if said.endswith("+"):
        bound = "min"
    span = (number if bound == "min" else None, number if bound == "max" else None) if bound else \
        (number * 0.85, number * 1.15)
    return 1, Term(SIZE, span, said, ((part.rstrip("+"),), False) if not bound else None)
