"""Where model ids may be in a file's text: one Aho-Corasick pass, then the enclosing token and its context.

The automaton holds every alias (lower-cased), its normalized form and each form's stem (the part up
to its first version number, 'claude-3' of 'claude-3-5-sonnet-20241022'), so spellings the registry
does not list verbatim ('Claude-3.5-Sonnet-20241022') are still found; nothing is resolved here.
A hit is widened to the identifier token around it; the token counts only in a string literal
(code), outside comments (config) or in code (Markdown). docs/scan.md has the rules.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Iterable

import ahocorasick

from ..normalize import normalize

MIN_KEY = 4                       # shorter keys ('o1') would hit inside any hex string
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:/@+-")
EDGE_PUNCTUATION = ".:/@+-"       # never the first or last character of an id
IGNORE_MARK = "registry: ignore"
_STEM = re.compile(r"^[a-z][a-z-]*?-?\d+")      # up to the first number: gpt-4, claude-3, llama3
_QUOTED = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`""")
_INLINE_CODE = re.compile(r"`+[^`]+`+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)", re.M)

CONFIG_SUFFIXES = frozenset({".yaml", ".yml", ".json", ".jsonc", ".toml", ".env", ".tf", ".tfvars", ".hcl",
                             ".ini", ".cfg", ".conf", ".properties"})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})


def kind_of(path: str) -> str:
    """'config', 'markdown' or 'code' (string literals only), from the file's name."""
    name = os.path.basename(path).lower()
    suffix = os.path.splitext(name)[1]
    if name.startswith(".env") or name.endswith(".env") or suffix in CONFIG_SUFFIXES:
        return "config"
    return "markdown" if suffix in MARKDOWN_SUFFIXES else "code"


@dataclass(frozen=True)
class Occurrence:
    """One identifier-shaped string at one place in a file (line and col 1-based, col in characters)."""

    line: int
    col: int
    start: int                    # offsets into the file's text
    end: int
    text: str


def identifier_shaped(token: str) -> bool:
    """A token worth asking about: a letter and a digit, or a known alias (checked by the caller)."""
    return len(token) >= MIN_KEY and any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


def plain_word(form: str) -> bool:
    """Letters only ('command', 'Claude', 'sonar'): in code such a string is an English word far more
    often than a model id, so it is neither a key nor reported (docs/scan.md#how-candidates-are-found)."""
    return form.isalpha()


class Matcher:
    """The automaton over the registry's aliases, normalized forms and stems (built once per scan)."""

    def __init__(self, aliases: Iterable[str]):
        self.known = set()
        stems = set()
        for alias in aliases:
            for form in (alias.lower(), normalize(alias)):
                if form:
                    self.known.add(form)
                    stem = _STEM.match(form)
                    if stem:
                        stems.add(stem.group(0))
        self.automaton = ahocorasick.Automaton()
        self.keys = sorted(key for key in self.known | stems if len(key) >= MIN_KEY and not plain_word(key))
        for key in self.keys:
            self.automaton.add_word(key, len(key))
        if len(self.automaton):
            self.automaton.make_automaton()

    def wanted(self, token: str) -> bool:
        """Whether a token is asked about: a known alias spelling, or identifier-shaped."""
        if "://" in token:   # a URL: its path may spell an id, but it is a link, not a model id
            return False
        if plain_word(token):
            return False
        return token.lower() in self.known or identifier_shaped(token)

    def find(self, path: str, text: str) -> list[Occurrence]:
        """The distinct candidate ids in a file's text, in order (each place at most once)."""
        if not len(self.automaton):
            return []
        lowered = text.lower()
        if len(lowered) != len(text):   # a letter lowered to two ('İ'): offsets must stay the text's
            lowered = text.translate(_ASCII_LOWER)
        spans, last_end = [], -1
        for end, length in self.automaton.iter_long(lowered):
            if end < last_end:
                continue
            start, stop = _widen(text, end - length + 1, end + 1)
            last_end = stop
            if not spans or spans[-1][0] != start:
                spans.append((start, stop))
        if not spans:
            return []
        context = _Context(path, text)
        found = []
        for start, stop in spans:
            token = text[start:stop]
            if self.wanted(token) and context.counts(start, stop):
                line, col = context.position(start)
                found.append(Occurrence(line, col, start, stop, token))
        return found


def _widen(text: str, start: int, stop: int) -> tuple[int, int]:
    """The identifier token around text[start:stop], without punctuation at its edges."""
    while start > 0 and text[start - 1] in ID_CHARS:
        start -= 1
    while stop < len(text) and text[stop] in ID_CHARS:
        stop += 1
    while start < stop and text[start] in EDGE_PUNCTUATION:
        start += 1
    while stop > start and text[stop - 1] in EDGE_PUNCTUATION:
        stop -= 1
    return start, stop


class _Context:
    """Line positions and the 'is it a value' rules for one file (computed only for files with hits)."""

    def __init__(self, path: str, text: str):
        self.text = text
        self.kind = kind_of(path)
        self.fenced = self._fences() if self.kind == "markdown" else []

    def position(self, offset: int) -> tuple[int, int]:
        """(line, col) of an offset, both 1-based."""
        return self.text.count("\n", 0, offset) + 1, offset - self.text.rfind("\n", 0, offset)

    def _line(self, offset: int) -> tuple[int, str]:
        start = self.text.rfind("\n", 0, offset) + 1
        end = self.text.find("\n", offset)
        return start, self.text[start:end if end >= 0 else len(self.text)]

    def _fences(self) -> list[tuple[int, int]]:
        marks = [m.start() for m in _FENCE.finditer(self.text)]
        return [(marks[i], marks[i + 1] if i + 1 < len(marks) else len(self.text)) for i in range(0, len(marks), 2)]

    def counts(self, start: int, stop: int) -> bool:
        """Whether the token at text[start:stop] is a string or config value, on a line not silenced."""
        base, line = self._line(start)
        if IGNORE_MARK in line:
            return False
        a, b = start - base, stop - base
        if self.kind == "markdown":
            return any(lo <= start < hi for lo, hi in self.fenced) or _within(_INLINE_CODE, line, a, b)
        if self.kind == "config":
            return a < _comment_start(line)
        return _within(_QUOTED, line, a, b)


def _within(pattern: re.Pattern, line: str, a: int, b: int) -> bool:
    return any(m.start() < a and b < m.end() for m in pattern.finditer(line))


def _comment_start(line: str) -> int:
    """Where a '#' or '//' comment begins on a config line (outside quotes), else the line's length."""
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(line)]
    for m in re.finditer(r"(?:^|(?<=\s))(#|//)", line):
        if not any(lo <= m.start() < hi for lo, hi in quoted):
            return m.start()
    return len(line)
