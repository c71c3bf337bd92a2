"""Offline snapshots of a source: seeds/<source>/page-001.json (+ optional page-001.headers.json), ..."""
import json
import os
import re
import tempfile
from pathlib import Path

from .. import json_limits
from ..storage import writing
from .records import Page, SourceError

_PAGE = re.compile(r"^page-(\d+)\.json$")
_HEADERS = re.compile(r"^page-(\d+)\.headers\.json$")


def _read_json(path: Path):
    """The parsed JSON of a snapshot file; unreadable or malformed raises SourceError."""
    try:
        return json_limits.loads(path.read_bytes(), json_limits.UPSTREAM_DEPTH, surrogates=True)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SourceError(f"snapshot {path}: cannot read JSON: {exc}") from exc


def load_pages(seeds_dir, source: str) -> list[Page]:
    """The recorded pages of a source, in page order; missing, gapped or malformed snapshots raise."""
    directory = Path(seeds_dir) / source
    if not directory.is_dir():
        raise SourceError(f"no snapshot for {source}: {directory} does not exist")
    numbers = sorted(int(m.group(1)) for m in map(_PAGE.match, os.listdir(directory)) if m)
    if not numbers:
        raise SourceError(f"no snapshot for {source}: no page-001.json in {directory}")
    # A gap means a page was lost; replaying the rest would silently drop models.
    if numbers != list(range(1, len(numbers) + 1)):
        raise SourceError(f"snapshot {directory}: pages are not numbered 1..{len(numbers)}: {numbers}")
    pages = []
    for n in numbers:
        body = _read_json(directory / f"page-{n:03d}.json")
        headers_path = directory / f"page-{n:03d}.headers.json"
        headers = _read_json(headers_path) if headers_path.exists() else {}
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise SourceError(f"snapshot {headers_path}: expected a JSON object of header strings")
        pages.append(Page(body, headers))
    return pages


def _write(path: Path, data) -> None:
    """Write JSON atomically (temp file + rename), so a crash never leaves half a snapshot file; a refused write
    names the snapshot file and the setting that puts it elsewhere (storage.writing)."""
    with writing(str(path), elsewhere="point REGISTRY_SEEDS_DIR elsewhere", output=True):
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2, ensure_ascii=False)
                fh.write("\n")
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise


def save_pages(seeds_dir, source: str, pages: list[Page]) -> list[Path]:
    """Replace the snapshot of a source with these pages; returns the files written."""
    if not pages:
        raise SourceError(f"refusing to record an empty snapshot for {source}")
    directory = Path(seeds_dir) / source
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for n, page in enumerate(pages, 1):
        path = directory / f"page-{n:03d}.json"
        _write(path, page.body)
        written.append(path)
        headers_path = directory / f"page-{n:03d}.headers.json"
        if page.headers:
            _write(headers_path, dict(page.headers))
            written.append(headers_path)
        elif headers_path.exists():
            headers_path.unlink()
    # Pages of an older, longer snapshot would otherwise be replayed after the new last page.
    for name in os.listdir(directory):
        match = _PAGE.match(name) or _HEADERS.match(name)
        if match and int(match.group(1)) > len(pages):
            (directory / name).unlink()
    return written
