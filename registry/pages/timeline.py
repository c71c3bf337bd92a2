"""A family's timeline as SVG geometry, computed on the server (no script draws it).

Each dated model is one row: a bar from its release to its shutdown (or to the right edge while it
has none), coloured by its status, with ticks on its deprecation and shutdown days, and one vertical
line for today. The macro timeline_svg (templates/_macros.html) only writes these numbers out.
Two layouts of the same rows: "wide" with the names in a column left of the bars, and "narrow"
(phones) with each name above its bar, so the text stays readable at 375 px.
"""
from dataclasses import dataclass
from datetime import date, timedelta

from ..fields import DATE_WINDOW

PAD_DAYS = 45        # so the first release and today are not on the frame
TODAY_LABEL_WIDTH = 32   # px the word "today" takes at the timeline's font size
AHEAD_YEARS = 3      # the axis stops this far past today: a far-off shutdown must not squeeze the past
YEAR_GAP = 48        # the fewest user units between two year labels
TOP = 28             # room for the year labels
FIRST_DAY = date.fromisoformat(DATE_WINDOW[0])


@dataclass(frozen=True)
class Layout:
    """The user-unit geometry of one layout."""

    width: int
    label: int       # where the bars start (the names column's width in the wide layout)
    row: int         # height of one model's row
    bar_y: int       # the bar's offset in its row
    name_y: int      # the name's baseline in its row
    right: int = 16


WIDE = Layout(width=960, label=250, row=26, bar_y=5, name_y=15)
NARROW = Layout(width=400, label=8, row=36, bar_y=19, name_y=13, right=8)


NEIGHBOURS = 3      # a model's page draws this many releases either side of it (and its upgrade)
MOST_ROWS = 40      # a family page draws at most this many (its newest releases); the table lists all


def _day(value) -> date | None:
    """The date of an ISO day; None for a value that is no date (drawn as unknown, never a 500)."""
    try:
        return date.fromisoformat(value) if value else None
    except (TypeError, ValueError):
        return None


def around(rows, slug: str, also: str | None = None) -> list:
    """The rows (oldest first) within NEIGHBOURS of the model `slug`, plus the row `also` (its upgrade):
    the model's place on its family's timeline without drawing a family of hundreds."""
    at = next((i for i, r in enumerate(rows) if r["slug"] == slug), None)
    if at is None:
        return list(rows)
    return [r for i, r in enumerate(rows) if abs(i - at) <= NEIGHBOURS or r["slug"] == also]


def family_timeline(rows, today: str, highlight: str | None = None) -> dict | None:
    """Both layouts of a family's timeline ({"wide", "narrow", "drawn", "dated"}), or None when no model
    has a release day. Only the newest MOST_ROWS dated releases are drawn: a bar chart of hundreds of
    rows is read by nobody, and the page (kept whole in the response cache) stays small."""
    dated = [r for r in rows if _day(r["release_date"])]
    if not dated:
        return None
    drawn = dated[-MOST_ROWS:]
    return {"wide": layout(drawn, today, highlight, WIDE), "narrow": layout(drawn, today, highlight, NARROW),
            "drawn": len(drawn), "dated": len(dated)}


def layout(dated, today: str, highlight: str | None, shape: Layout) -> dict:
    """One layout of the dated rows (oldest first).

    A day past the axis's end (AHEAD_YEARS after today) is drawn at the end: its bar stays open
    and its tick is left out (the table gives the day).

    Returns {width, height, today_x, years: [{x, label}], rows: [{y, slug, name, status, x1, x2,
    marks: [{x, kind, day}], open, current}], ...}; x and y in the SVG's user units.
    """
    now = _day(today)
    days = [d for r in dated for k in ("release_date", "deprecation_date", "sunset_date") if (d := _day(r[k]))]
    # The axis starts no earlier than the first day a source may state (registry/fields.py DATE_WINDOW):
    # a stored 0001-01-01 would squeeze every bar into a pixel, and 45 days before it is no date at all.
    start = max(min(days + [now]), FIRST_DAY) - timedelta(days=PAD_DAYS)
    end = min(max(days + [now]), now.replace(year=now.year + AHEAD_YEARS, day=min(now.day, 28))) \
        + timedelta(days=PAD_DAYS)
    span = (end - start).days or 1
    plot = shape.width - shape.label - shape.right

    def x(day: date) -> float:
        return round(shape.label + plot * (min(max(day, start), end) - start).days / span, 1)

    drawn = []
    for i, r in enumerate(dated):
        marks = [{"x": x(_day(r[k])), "kind": kind, "day": r[k]}
                 for k, kind in (("deprecation_date", "deprecated"), ("sunset_date", "shutdown"))
                 if _day(r[k]) and _day(r[k]) < end]
        stop = _day(r["sunset_date"]) or end
        released = _day(r["release_date"])
        drawn.append({"y": TOP + i * shape.row, "slug": r["slug"], "name": r["display_name"], "status": r["status"],
                      "x1": x(released), "x2": max(x(stop), x(released) + 2),
                      "marks": marks, "open": stop >= end, "current": r["slug"] == highlight,
                      "release": r["release_date"], "sunset": r["sunset_date"]})
    step = max(1, -(-YEAR_GAP * span // (365 * plot)))   # years between labels
    years = [{"x": x(date(year, 1, 1)), "label": str(year)}
             for year in range(start.year + 1, end.year + 1) if year % step == 0
             and x(date(year, 1, 1)) <= shape.width - YEAR_GAP]   # a label must fit left of the frame
    # "today" is written right of its line, or left of it where it would run off the frame (issue 45: "tod").
    today_left = x(now) + 3 + TODAY_LABEL_WIDTH > shape.width
    return {"width": shape.width, "height": TOP + len(dated) * shape.row + 8, "today_x": x(now), "today": today,
            "today_label_x": x(now) - 3 if today_left else x(now) + 3, "today_label_anchor": "end" if today_left
            else "start",
            "years": years, "rows": drawn, "label_width": shape.label, "ahead_years": AHEAD_YEARS,
            "bar_y": shape.bar_y, "name_y": shape.name_y, "names_left": shape is NARROW}
