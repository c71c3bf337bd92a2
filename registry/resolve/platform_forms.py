"""Platform forms: the "form key" of an identifier, its loosest form after normalize and loose_key (pure,
standard library only).

Hosting platforms and agent SDKs write a provider's model under its own conventions: chat-only
platforms drop the words `instruct`, `chat`, `-hf` (Groq `llama3-70b-8192`, Together
`Llama-3-8b-chat-hf`); some add their own (`-versatile`, `-instant`, `-preview` on Groq, `-Turbo`
on Together, `-basic` on Fireworks, a context size `-8192`); Fireworks writes `llama-v3p1` and
Ollama `llama3.1:70b`; a vendor word may lead (`Meta-Llama-3`); a version and a tier word may
swap places (`claude-4-sonnet`, `claude-sonnet-4`); Ollama names an MoE model by its total size
only (`qwen3.5:35b` for `Qwen3.5-35B-A3B`). See docs/api-decisions.md#resolve.

form_key(tokens)  -> "words|numbers": the word tokens sorted, the numeric tokens in order. Two
                     identifiers with one form key differ only by such decorations, never by a
                     version, a size or a named variant (numbers keep their order and every
                     word that is not a known decoration stays).
split(n)          -> the tokens of a normalize() result, with 'llama3' split into 'llama', '3'
                     and the decorations both sides drop already removed.
stem(tokens)      -> the leading word tokens ('gpt', 'gpt oss', 'llama'): a platform-added word
                     is only dropped from a query when no alias with that stem uses the word
                     (so `gpt-4-turbo` never loses `turbo`: `gpt-3.5-turbo` is a name).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..normalize import pin_free, pins
from .table import HashedIds

DROPPED_WORDS = frozenset({"instruct", "chat", "hf", "it"})  # chat-only platforms drop them ('-it': Gemma)
ADDED_WORDS = frozenset({"turbo", "versatile", "instant", "specdec", "preview", "basic", "fast"})
CONTEXT = "#context"                                         # stands for a context-size token
# Organisations some platforms write in front of a model's name (HF 'Meta-Llama-3', Azure
# 'cohere-command-r'): organisation names, not model names.
ORG_WORDS = frozenset({"meta", "cohere", "mistralai", "google", "microsoft", "nvidia", "c4ai"})
# A word that makes a model out of another one: the string names neither the teacher nor the base.
DERIVED_WORDS = frozenset({"distill", "distilled"})
FLOATING = frozenset({"latest", "default"})
TYPO_MIN = 4                                                 # shortest word a typo is corrected in

_LETTERS_DIGITS = re.compile(r"([a-z]+)(\d+[a-z]?)$")        # llama3, qwen3, v3, r1, gpt4o, gemma3n
_SIZE = re.compile(r"\d+(?:\.\d+)?[bm]$|\d+x\d+b$")          # 70b, 1.5b, 8x7b, 135m
_MOE = re.compile(r"a\d+(?:\.\d+)?b$|\d+e$")                 # active parameters a3b, experts 16e
_CONTEXT_K = re.compile(r"\d+k$")                            # 16k, 128k


def is_context_size(token: str) -> bool:
    """A context-size token a platform appends: '8192', '32768', '128k' (never a YYMM/MMDD pin)."""
    if _CONTEXT_K.match(token):
        return True
    if token.isdigit() and 4 <= len(token) <= 6:
        value = int(token)
        return value >= 2048 and value % 1024 == 0   # 2048..: no YYMM or MMDD pin is a multiple
    return False


def is_size(token: str) -> bool:
    """A parameter-count token: '70b', '1.5b', '8x7b', '135m'."""
    return bool(_SIZE.match(token))


def split(n: str) -> list[str]:
    """Tokens of a normalized string: letter/digit runs split; floating words, MoE tokens, 'v' dropped."""
    out: list[str] = []
    for t in n.split("-"):
        out.extend(_parts(t))
    while len(out) > 1 and out[0] in ORG_WORDS:
        out.pop(0)
    return out


def _parts(t: str) -> tuple[str, ...]:
    if t.isdigit():                # numbers (dates: nearly all distinct) stay out of the cache
        return (t,)
    return _word_parts(t)


@lru_cache(maxsize=8192)       # word tokens repeat across aliases: the index build splits each once
def _word_parts(t: str) -> tuple[str, ...]:
    if not t or t in FLOATING or _MOE.match(t):
        return ()
    m = _LETTERS_DIGITS.match(t)
    if m and not is_size(t):
        # 'v3' is version 3: 'llama-v3' = 'llama-3'
        return (m.group(2),) if m.group(1) == "v" else (m.group(1), m.group(2))
    return () if t == "v" else (t,)


def stem(tokens: list[str]) -> str:
    """The leading word tokens (those before the first token with a digit)."""
    words = []
    for t in tokens:
        if not t.isalpha():                  # tokens are [a-z0-9]+: not all letters = has a digit
            break
        words.append(t)
    return " ".join(words)


def same_size(params: int, size: float) -> bool:
    """Is a parameter count the size a name gives (within 10%: 'deepseek-v3.1:671b' is 685B on the hub)?"""
    return size > 0 and abs(params - size) <= 0.1 * size


def names(tokens: list[str]) -> set[str]:
    """The platform words among an alias's tokens (CONTEXT for a context size)."""
    return {CONTEXT if is_context_size(t) else t for t in tokens
            if t in ADDED_WORDS or t in DROPPED_WORDS or is_context_size(t)}


def query_tokens(tokens: list[str], used: frozenset | set) -> list[str]:
    """A query's tokens without the platform's decorations, given the words the stem's aliases use:
    an added word the aliases never use ('-versatile'; not 'turbo' after 'gpt'), and a dropped
    word when the aliases use one of them ('Llama-3-8b-chat-hf'; not 'gpt-3.5-turbo-instruct')."""
    drops = not used.isdisjoint(DROPPED_WORDS)
    return [t for t in tokens
            if not ((t in ADDED_WORDS and t not in used)
                    or (t in DROPPED_WORDS and drops)
                    or (is_context_size(t) and CONTEXT not in used))]


def form_key(tokens: list[str]) -> str:
    """'words|numbers': word tokens sorted, tokens with a digit in order ('' if no number or word)."""
    words = sorted(t for t in tokens if t.isalpha())
    nums = [t for t in tokens if not t.isalpha()]
    if not nums and len(words) < 2:       # one word ('deepseek', 'claude') names no model
        return ""
    return " ".join(words) + "|" + " ".join(nums)


def spelled_differently(n: str, alias_n: str) -> bool:
    """Do two normalized ids that share a form key differ by more than word order: by words or a context size a
    platform adds or drops (Groq's 'llama3-70b-8192' for 'Meta-Llama-3-70B-Instruct'), not 'claude-4-sonnet'?"""
    return sorted(split(n)) != sorted(split(alias_n))


def _alias_tokens(tokens: list[str]) -> list[str]:
    """An alias's tokens without the words chat-only platforms drop."""
    return [t for t in tokens if t not in DROPPED_WORDS]


def derived(tokens) -> bool:
    """Do these tokens hold a word that makes another model out of a base ('distill')?"""
    return any(t in DERIVED_WORDS for t in tokens)


def _pins_and_rest(tokens: list[str]) -> tuple[set, list[str]]:
    """(the snapshot pins, the other tokens) of a token list, pins as normalize.pins() finds them."""
    joined = "-".join(tokens)
    return set(pins(joined)), [t for t in pin_free(joined).split("-") if t]


class FormIndex:
    """form key -> the normalized aliases that have it; stem -> the platform words its aliases use.

    A 50k-model registry has ~50k form keys: they map to the numbers of their normalized aliases in
    `keys` through a HashedIds (8 bytes a key instead of ~110 in a dict of strings, and no peak of
    tuples while building). A hash collision is harmless: candidates are checked against the key
    itself. Lookups answer numbers of normalized aliases (positions in `keys`).
    """

    def __init__(self, keys):
        self.keys = keys                              # the distinct normalized aliases (a sequence)
        self.names: dict[str, set] = {}
        self.words: dict[str, set] = {}              # stem -> every word its aliases use
        self.near: dict[str, tuple[str, ...]] = {}   # a word, and each word minus one letter -> words
        self.held = HashedIds((key, i) for i, n in enumerate(keys) if (key := self._add(n)))

    def __len__(self) -> int:
        return len(self.held)

    def _add(self, n: str) -> str:
        """Record one normalized alias's stem words and typo neighbours; return its form key."""
        tokens = split(n)
        s = stem(tokens)
        words = names(tokens)
        if words:
            self.names.setdefault(s, set()).update(words)
        self.words.setdefault(s, set()).update(t for t in tokens if t.isalpha())
        _, rest = _pins_and_rest(_alias_tokens(tokens))
        key = form_key(rest)
        for w in key.split("|", 1)[0].split():
            if len(w) >= TYPO_MIN and w not in self.near.get(w, ()):
                for d in {w} | _deletions(w):
                    self.near[d] = self.near.get(d, ()) + (w,)
        return key

    def without_size(self, n: str) -> tuple[list[int], float]:
        """(the numbers of the normalized aliases q matches once its one size token is dropped, that size in
        parameters); ([], 0) when q does not hold exactly one size."""
        tokens = split(n)
        tokens = query_tokens(tokens, self.names.get(stem(tokens), frozenset()))
        want, rest = _pins_and_rest(tokens)
        sizes = [t for t in rest if is_size(t)]
        if len(sizes) != 1 or "x" in sizes[0]:
            return [], 0.0
        key = form_key([t for t in rest if t != sizes[0]])
        scale = 1e9 if sizes[0].endswith("b") else 1e6
        return (self._with_pins(key, want) if key else []), float(sizes[0][:-1]) * scale

    def names_another(self, alias: str, extra: list[str]) -> bool:
        """Does a query that holds the normalized alias plus the tokens `extra` name another model
        of its family? True when an extra word is one the family's aliases use ('gpt-4-turbo' is
        not 'gpt-4': 'gpt-3.5-turbo' uses 'turbo') or one edit from one ('gpt-4o-mnii'), a
        context size where the family names models by one ('gpt-4-32k'), or 'instruct'/'chat' in
        a family whose names never carry one ('gpt-3.5-turbo-instruct'); platform decorations
        do not count."""
        s = stem(split(alias))
        used = self.names.get(s, frozenset())
        words = self.words.get(s, ())
        for t in query_tokens(split("-".join(extra)), used):
            if is_context_size(t):       # query_tokens kept it: the family's names carry sizes
                return True
            if t.isalpha() and (t in words or t in DROPPED_WORDS or (
                    len(t) >= TYPO_MIN and any(_one_edit(t, w) for w in words))):
                return True
        return False

    def lookup(self, n: str) -> list[int]:
        """The numbers of the normalized aliases q (normalized: n) matches in form, with every pin of q; where the
        stem's names carry a context size but none with q's ('llama3-70b-8192', where only Perplexity's old
        'llama-3.1-sonar-*-128k-online' carry one), a context size in tokens is a platform's decoration after all."""
        tokens = split(n)
        tokens = query_tokens(tokens, self.names.get(stem(tokens), frozenset()))
        want, rest = _pins_and_rest(tokens)
        key = form_key(rest)
        found = self._with_pins(key, want) if key else []
        # Only a size in tokens ('-8192', '-32768'), as a platform appends one: names write theirs in k ('gpt-4-32k').
        # It reads like a pin too (8192), so the pins are taken again without it.
        if not found and any(t.isdigit() and is_context_size(t) for t in tokens):
            want, rest = _pins_and_rest([t for t in tokens if not (t.isdigit() and is_context_size(t))])
            key = form_key(rest)
            found = self._with_pins(key, want) if key else []
        return found

    def typo(self, n: str) -> list[int]:
        """The numbers of the normalized aliases q matches in form once one word of q is corrected (one letter
        added, dropped, changed or two swapped, in a word of >= TYPO_MIN letters; numbers never)."""
        tokens = split(n)
        tokens = query_tokens(tokens, self.names.get(stem(tokens), frozenset()))
        want, rest = _pins_and_rest(tokens)
        for i, t in enumerate(rest):
            if len(t) < TYPO_MIN or not t.isalpha() or t in self.near.get(t, ()):
                continue
            found = []
            for w in sorted(self._corrections(t)):
                key = form_key(rest[:i] + [w] + rest[i + 1:])
                found += self._with_pins(key, want) if key else []
            if found:
                return found
        return []

    def _corrections(self, t: str) -> set[str]:
        seen = {w for d in {t} | _deletions(t) for w in self.near.get(d, ())}
        return {w for w in seen if _one_edit(t, w)}

    def _with_pins(self, key: str, want: set) -> list[int]:
        # every pin of q; the aliases pinned exactly as q first ('DeepSeek-R1-Turbo' is
        # DeepSeek-R1, not its snapshot DeepSeek-R1-0528)
        found = []
        for i in self.held.get(key):
            pinned, rest = _pins_and_rest(_alias_tokens(split(self.keys[i])))
            if want <= pinned and form_key(rest) == key:
                found.append((pinned, i))
        same = [a for p, a in found if p == want]
        return same or [a for _, a in found]


def _deletions(w: str) -> set[str]:
    return {w[:i] + w[i + 1:] for i in range(len(w))}


def _one_edit(a: str, b: str) -> bool:
    """Are a and b one edit apart (a letter added, dropped or changed, or two neighbours swapped)?"""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) != len(b):
        return b in _deletions(a) or a in _deletions(b)
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                              and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
