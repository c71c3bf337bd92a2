"""Asking a running registry about the strings a scan found (`registry scan --registry URL`).

Answers have the shape of LocalLookup's (lookup.py); the service's rate limit is waited out, never
hammered (docs/scan.md#registry).
"""
from __future__ import annotations

import json
import time
from typing import Callable, Iterable

import requests

from .lookup import RegistryUnavailable

PER_PAGE = 200               # the API's largest page of /models
MAX_WAIT = 300               # seconds: a service asking for a longer pause ends the scan instead


class RemoteLookup:
    """Answers from a running registry at base_url (…/api/v1), waiting out its rate limit."""

    def __init__(self, base_url: str, session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep, timeout: float = 30):
        self.base = base_url.rstrip("/")
        if not self.base.endswith("/api/v1"):
            self.base += "/api/v1"
        self.session = session or requests.Session()
        self.sleep = sleep
        self.timeout = timeout
        self.models = None   # slug -> {deprecation_date, sunset_date}, read once

    def get(self, path: str, **params) -> requests.Response:
        """GET a path, waiting Retry-After on 429 and for the window's reset when the budget is spent."""
        while True:
            try:
                response = self.session.get(self.base + path, params=params, timeout=self.timeout)
            except requests.RequestException as exc:
                raise RegistryUnavailable(f"{self.base}: {exc.__class__.__name__}: {exc}") from None
            if response.status_code == 429:
                wait = _seconds(response.headers.get("Retry-After"), default=60)
                if wait > MAX_WAIT:
                    raise RegistryUnavailable(f"{self.base} asks to wait {wait} s (rate limited); try later.")
                self.sleep(wait)
                continue
            if response.headers.get("X-RateLimit-Remaining") == "0":
                # The budget is spent: wait for the window to reset before the next question.
                reset = _seconds(response.headers.get("X-RateLimit-Reset"), default=0)
                self.sleep(min(MAX_WAIT, max(0, reset - time.time())))
            return response

    def _json(self, response: requests.Response, path: str) -> dict:
        if response.status_code != 200:
            raise RegistryUnavailable(f"{self.base}{path}: HTTP {response.status_code}")
        try:
            return response.json()
        except ValueError:
            raise RegistryUnavailable(f"{self.base}{path}: the answer is not JSON") from None

    def _load_models(self) -> dict:
        if self.models is None:
            self.models, page, pages = {}, 1, 1
            while page <= pages:
                body = self._json(self.get("/models", page=page, per_page=PER_PAGE), "/models")
                pages = body["pagination"]["total_pages"]
                for m in body["models"]:
                    self.models[m["slug"]] = {"deprecation_date": m.get("deprecation_date"),
                                              "sunset_date": m.get("sunset_date")}
                page += 1
        return self.models

    def aliases(self) -> list:
        """Every alias the service knows (its one-file export, as the local database gives them), and the
        model slugs: so a remote scan finds the ids a local one finds. A service without an export (older
        than it) gives the slugs only, and the automaton works from them and their stems."""
        known = list(self._load_models())
        response = self.get("/export", format="ndjson")
        if response.status_code == 404:
            return known
        if response.status_code != 200:
            raise RegistryUnavailable(f"{self.base}/export: HTTP {response.status_code}")
        for line in response.iter_lines(decode_unicode=True):
            try:
                model = json.loads(line).get("model") if line else None
            except ValueError:
                raise RegistryUnavailable(f"{self.base}/export: a line is not JSON") from None
            if isinstance(model, dict):
                known += [a["alias"] for a in model.get("aliases") or () if isinstance(a, dict) and "alias" in a]
        return known

    def resolve_many(self, strings: Iterable[str]) -> dict:
        """string -> resolve answer with the model's 'lifecycle' dates, or None (404)."""
        models, out = self._load_models(), {}
        for s in strings:
            response = self.get("/resolve", q=s)
            if response.status_code in (400, 404):   # no match, or a string the API refuses (too long)
                out[s] = None
                continue
            answer = self._json(response, "/resolve")
            answer["lifecycle"] = models.get(answer["matched_model"]["slug"],
                                             {"deprecation_date": None, "sunset_date": None})
            out[s] = answer
        return out

    def close(self) -> None:
        """Close the HTTP session."""
        self.session.close()


def _seconds(value: str | None, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default
