"""The lifecycle rules, in one low package that reads no database (docs/lifecycle.md).

- `status`: today's date and the days left to a day, a model's status from its dates, one latest per
  family, a floating id's inherited lifecycle, and each platform's lifecycle of a model;
- `fit`: what makes a model a fit upgrade for another (decisions: type, tier, size, forward);
- `upgrade`: the upgrade decision, final and forward, in one platform's view;
- `platforms`: each model's lifecycle on each platform serving it, with the upgrade there.

The write path (`registry/merge/lifecycle.py`) loads plain `Member` records, calls these rules and
stores the answers (models.status, platform_lifecycles); the read path (`registry/resolve/`, pages,
feeds, the scanner, MCP) reads what was stored and counts days with `today()` and `days_left()`. Nothing here imports
Flask, SQLite or another registry package but the vocabulary (`registry/fields.py`: statuses, platforms).
"""
from .fit import is_preview
from .platforms import Lifecycle, lifecycles, on_platform, views
from .status import Member, days_left, derive, own_statuses, today, working
from .upgrade import View, path, upgrade_in

__all__ = ["Lifecycle", "Member", "View", "days_left", "derive", "is_preview", "lifecycles",
           "on_platform", "own_statuses", "path", "today", "upgrade_in", "views", "working"]
