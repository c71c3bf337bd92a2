"""The geometry of a model's price history on one platform, drawn on the server as a small SVG step chart (as the
timeline is: registry/pages/timeline.py): each price a flat step from the day it took effect to the next one's,
input and output per 1M tokens as two lines. The macro price_chart_svg (templates/_macros.html) only writes these
numbers out."""
from datetime import date

from ..wording import money

WIDTH, HEIGHT, LEFT, TOP, BOTTOM = 320, 90, 44, 8, 18   # px; the y axis's labels left, the first and last day below
SERIES = (("input_per_mtok", "input"), ("output_per_mtok", "output"))


def chart(periods: list, today: str) -> dict | None:
    """{width, height, series: [{name, points}], ticks: [{y, label}], first, last} for one platform's Price objects
    (oldest first), or None when no period has a day or a per-token price to draw."""
    dated = [p for p in periods if p.get("effective_from")]
    values = [p[key] for p in dated for key, _ in SERIES if p.get(key) is not None]
    if not dated or not values:
        return None
    start = date.fromisoformat(dated[0]["effective_from"])
    end = max(date.fromisoformat(today), date.fromisoformat(dated[-1]["effective_from"]))
    span = max((end - start).days, 1)
    top = max(values) or 1.0
    currency = dated[-1].get("currency")
    plot_w, plot_h = WIDTH - LEFT - 4, HEIGHT - TOP - BOTTOM

    def x(day: str | None) -> float:
        """A day's place; today's price (no day it ended) runs to the chart's right edge."""
        if day is None:
            return float(LEFT + plot_w)
        return round(LEFT + plot_w * (date.fromisoformat(day) - start).days / span, 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (1 - value / top), 1)

    series = []
    for key, name in SERIES:
        points = []
        for period in dated:
            if period.get(key) is None:
                continue
            level = y(period[key])
            points += [(x(period["effective_from"]), level), (x(period.get("effective_to")), level)]
        if points:
            series.append({"name": name, "points": " ".join(f"{px},{py}" for px, py in points)})
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "bottom": HEIGHT - BOTTOM + 12, "series": series,
            "ticks": [{"y": y(top), "label": money(top, currency)}, {"y": y(0), "label": money(0, currency)}],
            "first": dated[0]["effective_from"], "last": end.isoformat(), "right": WIDTH - 4}
