"""Asking a running registry about the strings a scan found (`registry scan --registry URL`).

Answers have the shape of LocalLookup's (lookup.py); the service's rate limit is waited out, never
hammered (docs/scan.md#registry).
"""
from __future__ import annotations

import json
import time
from typing import Callable, Iterable

import requests

from . import remote_answers as answers
from .lookup import RegistryUnavailable

PER_PAGE = 200               # the API's largest page of /models
MAX_WAIT = 300               # seconds: a service asking for a longer pause ends the scan instead
# The whole conversation is bounded (docs/scan.md#registry): a registry that keeps answering 429, claims a
# billion pages or streams an endless export ends the scan with a message, never holds it.
MAX_PAGES = 1000             # of /models at 200 a page: 200,000 models, four times the bench's registry
MAX_RETRIES = 5              # 429s in a row for one question
MAX_TOTAL_WAIT = 900         # seconds of rate-limit waits in one scan
DEADLINE = 3600              # seconds one scan may talk to a registry
MAX_EXPORT_BYTES = 512 * 1024 * 1024   # the 50k-model bench registry's export is ~100 MB
MAX_LINE_BYTES = 1024 * 1024           # one model's line of the export


class RemoteLookup:
    """Answers from a running registry at base_url (…/api/v1), waiting out its rate limit."""

    def __init__(self, base_url: str, session: requests.Session | None = None,
                 sleep: Callable[[float], None] = time.sleep, timeout: float = 30,
                 clock: Callable[[], float] = time.monotonic):
        self.base = base_url.rstrip("/")
        if not self.base.endswith("/api/v1"):
            self.base += "/api/v1"
        self.session = session or requests.Session()
        self.sleep = sleep
        self.timeout = timeout
        self.clock = clock
        self.deadline = clock() + DEADLINE
        self.waited = 0.0
        self.models = None   # slug -> {deprecation_date, sunset_date}, read once

    def get(self, path: str, stream: bool = False, **params) -> requests.Response:
        """GET a path, waiting Retry-After on 429 and for the window's reset when the budget is spent, within
        the conversation's bounds."""
        for _attempt in range(MAX_RETRIES + 1):
            left = self.deadline - self.clock()
            if left <= 0:
                raise RegistryUnavailable(f"{self.base} did not finish answering within {DEADLINE} s; try later.")
            try:
                response = self.session.get(self.base + path, params=params, timeout=min(self.timeout, left),
                                            stream=stream)
            except requests.RequestException as exc:
                raise RegistryUnavailable(f"{self.base}: {exc.__class__.__name__}: {exc}") from None
            if response.status_code == 429:
                wait = _seconds(response.headers.get("Retry-After"), default=60)
                if wait > MAX_WAIT:
                    raise RegistryUnavailable(f"{self.base} asks to wait {wait:g} s (rate limited); try later.")
                self._wait(wait)
                continue
            if response.headers.get("X-RateLimit-Remaining") == "0":
                # The budget is spent: wait for the window to reset before the next question.
                reset = _seconds(response.headers.get("X-RateLimit-Reset"), default=0)
                self._wait(min(MAX_WAIT, max(0, reset - time.time())))
            return response
        raise RegistryUnavailable(f"{self.base} still answers 429 (rate limited) after {MAX_RETRIES} waits; try later.")

    def _wait(self, seconds: float) -> None:
        self.waited += seconds
        if self.waited > MAX_TOTAL_WAIT:
            raise RegistryUnavailable(f"{self.base} has kept this scan waiting over {MAX_TOTAL_WAIT} s (rate limited);"
                                      " try later.")
        self.sleep(seconds)

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
                pages = (body.get("pagination") or {}).get("total_pages") if isinstance(body, dict) else None
                models = body.get("models") if isinstance(body, dict) else None
                if type(pages) is not int or not 0 <= pages <= MAX_PAGES or not isinstance(models, list):
                    raise RegistryUnavailable(f"{self.base}/models: not a page of models of at most {MAX_PAGES} pages"
                                              f" (total_pages {_shown(pages)})")
                for m in models:
                    slug = _checked(m.get("slug") if isinstance(m, dict) else None, answers.identifier)
                    if slug is not None:
                        self.models[slug] = {k: _checked(m.get(k), answers.day)
                                             for k in ("deprecation_date", "sunset_date")}
                if not models:
                    break   # an empty page before the last: the rest are empty too
                page += 1
        return self.models

    def aliases(self) -> list:
        """Every alias the service knows (its one-file export, as the local database gives them), and the
        model slugs: so a remote scan finds the ids a local one finds. A service without an export (older
        than it) gives the slugs only, and the automaton works from them and their stems."""
        known = list(self._load_models())
        response = self.get("/export", stream=True, format="ndjson")
        if response.status_code == 404:
            return known
        if response.status_code != 200:
            raise RegistryUnavailable(f"{self.base}/export: HTTP {response.status_code}")
        for line in self._lines(response):
            try:
                model = json.loads(line).get("model") if line else None
            except (ValueError, AttributeError):
                raise RegistryUnavailable(f"{self.base}/export: a line is not a JSON object") from None
            if isinstance(model, dict) and isinstance(model.get("aliases"), list):
                found = (_checked(a.get("alias"), answers.identifier) for a in model["aliases"] if isinstance(a, dict))
                known += [alias for alias in found if alias is not None]
        return known

    def _lines(self, response: requests.Response):
        """The export's lines, within MAX_EXPORT_BYTES in all, MAX_LINE_BYTES each, and the deadline."""
        total, pending = 0, b""
        try:
            for chunk in response.iter_content(chunk_size=65536):
                total += len(chunk)
                if total > MAX_EXPORT_BYTES or self.clock() > self.deadline:
                    raise RegistryUnavailable(f"{self.base}/export: more than {MAX_EXPORT_BYTES} bytes, or longer"
                                              f" than {DEADLINE} s; not a registry's export")
                *lines, pending = (pending + chunk).split(b"\n")
                if len(pending) > MAX_LINE_BYTES:
                    raise RegistryUnavailable(f"{self.base}/export: a line longer than {MAX_LINE_BYTES} bytes")
                yield from (line.decode("utf-8", "replace") for line in lines)
        except requests.RequestException as exc:
            raise RegistryUnavailable(f"{self.base}/export: {exc.__class__.__name__}: {exc}") from None
        finally:
            response.close()
        if pending:
            yield pending.decode("utf-8", "replace")

    def resolve_many(self, strings: Iterable[str]) -> dict:
        """string -> resolve answer with the model's 'lifecycle' dates, or None (404)."""
        models, out = self._load_models(), {}
        for s in strings:
            response = self.get("/resolve", q=s)
            if response.status_code in (400, 404):   # no match, or a string the API refuses (too long)
                out[s] = None
                continue
            answer = answers.trusted(self._json(response, "/resolve"))
            if answer is None:   # a value no registry would serve: this string's answer is refused whole
                out[s] = None
                continue
            answer["lifecycle"] = models.get(answer["matched_model"]["slug"],
                                             {"deprecation_date": None, "sunset_date": None})
            out[s] = answer
        return out

    def close(self) -> None:
        """Close the HTTP session."""
        self.session.close()


def _seconds(value: str | None, default: float) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return default
    return seconds if seconds == seconds and seconds >= 0 else default   # no NaN, no negative wait


def _checked(value, rule):
    """value when rule takes it, else None."""
    try:
        return rule(value)
    except answers.Refused:
        return None


def _shown(value) -> str:
    return repr(value)[:40]
