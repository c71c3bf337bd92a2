"""Text as each writer may carry it: what ingest cleans once, and what every writer does again on its own.

An upstream's value is cleaned at ingest (registry/ingest/validate.py), but a writer must not rely on
that: a value stored before a rule existed, curated, or echoed from a request reaches it too
(docs/threat-model.md#writers). So the same few rules live here, and each writer applies the one its
format needs: control characters out (Atom, iCalendar, HTML), Markdown punctuation escaped (the `.md`
twins, llms.txt).
"""
import re

# One class, so a page is cleaned in one pass: C0 and C1 controls and DEL, except tab, LF and CR (which a
# field may allow); lone surrogates (they cannot be encoded as UTF-8); U+FFFE/U+FFFF (not characters:
# invalid in XML); and what reorders or hides text (Trojan Source, CVE-2021-42574), with the Unicode line
# and paragraph separators, which end a line in some readers and not in others.
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff"
                       "\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\ufeff]")
_LINE_BREAKS = re.compile(r"[\t\r\n]+")
_SPACES = re.compile(r"\s+")
# Markdown punctuation that can start a construct anywhere in a line: code spans, emphasis, links and
# images, raw HTML and autolinks, table cells, strikethrough, a heading's closing #s, and the backslash;
# `_` only where it could open or close emphasis (not inside a word: sunset_date stays as it is).
_MARKDOWN_INLINE = re.compile(r"([\\`*\[\]<>|~#]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
# ... and what opens a block at the beginning of a line: a list item (`-`, `+`, `1.`, `1)` before a
# space or the end), a rule or a setext underline (`---`, `===`); `>` and `#` are escaped anywhere.
_MARKDOWN_BLOCK_START = re.compile(r"^(\d{0,9})((?<=\d)[.)](?=\s|$)|(?<!\d)[-+=](?=[\s=+-]|$))")


def without_controls(value: str, keep_lines: bool = True) -> str:
    """value without control characters, lone surrogates and invisible reordering characters; with
    keep_lines False, tabs and line breaks become single spaces too."""
    if value.isprintable():   # the common case, in C: no control, format or separator character at all
        return value
    value = _UNWANTED.sub("", value)
    if not keep_lines:
        value = _LINE_BREAKS.sub(" ", value)
    return value


def one_line(value: str) -> str:
    """A single line: no controls, every run of whitespace one space, no space at either end."""
    if value.isprintable() and "  " not in value and value == value.strip():   # already one (most are)
        return value
    return _SPACES.sub(" ", without_controls(value, keep_lines=False)).strip()


def markdown(value) -> str:
    """value as literal Markdown text on one line: nothing in it can open a link, code span, table
    cell, emphasis, raw HTML or a block (docs/threat-model.md#writers)."""
    escaped = _MARKDOWN_INLINE.sub(r"\\\1", one_line(str(value)))
    return _MARKDOWN_BLOCK_START.sub(r"\1\\\2", escaped)


def markdown_code(value) -> str:
    """value as one Markdown code span: fenced by more backticks than any run inside it (CommonMark
    6.1), on one line, with `|` escaped so it stays inside a table cell (GFM 4.10)."""
    text = one_line(str(value)).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") or not text.strip() else text
    return f"{fence}{padded}{fence}"
