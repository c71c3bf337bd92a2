"""A small RFC 5545 writer: content lines with TEXT escaping (3.3.11) and folding at 75 octets (3.1).

Why not the icalendar package: it took 2.4 ms per event here, 88 s for the calendar of a 50k-model
registry, past the server's worker timeout (docs/api-decisions.md#feeds); the tests read what this
writes with icalendar.
"""
from ..text import without_controls


def text(value: str) -> str:
    """A TEXT value: control characters left out (RFC 5545 3.3.11 allows none but tab), backslash,
    semicolon, comma and newlines escaped."""
    value = without_controls(value)
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def fold(line: str) -> bytes:
    """One content line as bytes: split into lines of at most 75 octets, never inside a UTF-8 character."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return data + b"\r\n"
    parts, start, limit = [], 0, 75
    while start < len(data):
        end = min(start + limit, len(data))
        while end < len(data) and data[end] & 0xC0 == 0x80:   # a continuation byte: cut before its lead
            end -= 1
        parts.append(data[start:end])
        start, limit = end, 74                                # continuation lines begin with a space
    return b"\r\n ".join(parts) + b"\r\n"


def component(name: str, properties: list, children: list = ()) -> bytes:
    """BEGIN:name, the (name, value) properties (values already escaped), the children, END:name."""
    return (fold(f"BEGIN:{name}") + b"".join(fold(f"{key}:{value}") for key, value in properties)
            + b"".join(children) + fold(f"END:{name}"))
