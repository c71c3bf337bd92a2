"""flask-limiter's exemption lookups, answered once per route instead of once per request.

On every request to a blueprint route, flask-limiter works out from its registration tables whether
the route, its blueprint or an ancestor is exempt, and which limits the blueprint adds: set building
and enum-flag arithmetic that took about 20 µs of a cached answer's 180 µs in-process
(docs/api-decisions.md#per-request-path). Those answers change only when an exemption is registered,
so this manager keeps them per (app, endpoint, blueprint) and forgets them at every registration; the
library's own methods compute each one. Limits are never kept: a callable budget is read per request.
"""
import logging

try:   # a private module of flask-limiter: without it (another layout) the library runs unchanged
    from flask_limiter._manager import LimitManager
except ImportError:   # pragma: no cover - depends on the installed version
    LimitManager = object

log = logging.getLogger(__name__)
METHODS = ("exemption_scope", "blueprint_limits", "add_route_exemption", "add_blueprint_exemption")


def install(limiter) -> bool:
    """Make limiter's manager remember its exemption answers; False (and unchanged) if its shape differs."""
    manager = getattr(limiter, "limit_manager", None)
    if (type(manager) is not LimitManager
            or not all(hasattr(manager, name) for name in METHODS + ("_blueprint_limits",))):
        log.info("flask-limiter's limit manager is not the expected one: exemption lookups not remembered")
        return False
    # The same object, state and all, with four methods overridden: nothing the limiter holds is copied.
    manager.__class__ = RememberingLimitManager
    manager.scopes = {}
    return True


class RememberingLimitManager(LimitManager):
    """flask-limiter's LimitManager, remembering exemption scopes until an exemption is added."""

    def exemption_scope(self, app, endpoint, blueprint):
        """The library's answer for (app, endpoint, blueprint), computed once per registration state."""
        key = (app, endpoint, blueprint)
        try:
            return self.scopes[key]
        except KeyError:
            scope = self.scopes[key] = super().exemption_scope(app, endpoint, blueprint)
            return scope

    def blueprint_limits(self, app, blueprint):
        """No blueprint has limits of its own (the registry's case): none, without walking the tables."""
        if not self._blueprint_limits:
            return []
        return super().blueprint_limits(app, blueprint)

    def add_route_exemption(self, route, scope):
        """Register the exemption and forget every remembered answer."""
        super().add_route_exemption(route, scope)
        self.scopes = {}

    def add_blueprint_exemption(self, blueprint, scope):
        """Register the exemption and forget every remembered answer."""
        super().add_blueprint_exemption(blueprint, scope)
        self.scopes = {}
