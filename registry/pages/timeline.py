"""A family's timeline as SVG geometry, computed on the server (no script draws it).

Each dated model is one row: a bar from its release to its shutdown (or to the right edge while it
has none), coloured by its status, with ticks on its deprecation and shutdown days, and one vertical
line for today. The template (templates/_timeline.html) only writes these numbers out.
"""
from datetime import date, timedelta

WIDTH = 960
LABEL = 250          # the names column, left of the bars
RIGHT = 16
ROW = 26
TOP = 28             # room for the year labels
PAD_DAYS = 45        # so the first release and today are not on the frame
AHEAD_YEARS = 3      # the axis stops this far past today: a far-off shutdown must not squeeze the past
YEAR_GAP = 48        # the fewest user units between two year labels


def _day(value: str) -> date:
    return date.fromisoformat(value)


def family_timeline(rows, today: str, highlight: str | None = None) -> dict | None:
    """The timeline of a family's model rows (oldest first), or None when none has a release day.

    A day past the axis's end (AHEAD_YEARS after today) is drawn at the end: its bar stays open
    and its tick is left out (the bar's tooltip and the table give the day).

    Returns {width, height, today_x, years: [{x, label}], rows: [{y, slug, name, status, x1, x2,
    marks: [{x, kind, day}], open, current}]}; x in the SVG's user units.
    """
    dated = [r for r in rows if r["release_date"]]
    if not dated:
        return None
    now = _day(today)
    days = [_day(r[k]) for r in dated for k in ("release_date", "deprecation_date", "sunset_date") if r[k]]
    start = min(days + [now]) - timedelta(days=PAD_DAYS)
    end = min(max(days + [now]), now.replace(year=now.year + AHEAD_YEARS, day=min(now.day, 28))) \
        + timedelta(days=PAD_DAYS)
    span = (end - start).days or 1

    def x(day: date) -> float:
        return round(LABEL + (WIDTH - LABEL - RIGHT) * (min(day, end) - start).days / span, 1)

    drawn = []
    for i, r in enumerate(dated):
        marks = [{"x": x(_day(r[k])), "kind": kind, "day": r[k]}
                 for k, kind in (("deprecation_date", "deprecated"), ("sunset_date", "shutdown"))
                 if r[k] and _day(r[k]) < end]
        stop = _day(r["sunset_date"]) if r["sunset_date"] else end
        drawn.append({"y": TOP + i * ROW, "slug": r["slug"], "name": r["display_name"], "status": r["status"],
                      "x1": x(_day(r["release_date"])), "x2": max(x(stop), x(_day(r["release_date"])) + 2),
                      "marks": marks, "open": stop >= end, "current": r["slug"] == highlight,
                      "release": r["release_date"], "sunset": r["sunset_date"]})
    step = max(1, -(-YEAR_GAP * span // (365 * (WIDTH - LABEL - RIGHT))))   # years between labels
    years = [{"x": x(date(year, 1, 1)), "label": str(year)}
             for year in range(start.year + 1, end.year + 1) if year % step == 0
             and x(date(year, 1, 1)) <= WIDTH - YEAR_GAP]   # a label must fit left of the frame
    return {"width": WIDTH, "height": TOP + len(dated) * ROW + 8, "today_x": x(now), "today": today,
            "years": years, "rows": drawn, "label_width": LABEL, "ahead_years": AHEAD_YEARS}
