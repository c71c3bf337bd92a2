"""Every comment that cites the docs points at a page and a section that exist (docs/ is the one record)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"docs/([a-z0-9-]+\.md)(?:#([a-z0-9-]+))?")


def anchors(page: Path) -> set:
    """GitHub's anchors of a Markdown page's headings: lower case, punctuation dropped, spaces to '-'."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^a-z0-9 _-]", "", title).replace(" ", "-"))
    return found


def citations() -> list:
    places = []
    for folder in ("registry", "bench", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for match in CITATION.finditer(path.read_text(encoding="utf-8")):
                places.append((path.relative_to(ROOT).as_posix(), match.group(1), match.group(2)))
    return places


@pytest.mark.parametrize("source, page, anchor", citations())
def test_cited_section_exists(source, page, anchor):
    doc = ROOT / "docs" / page
    assert doc.is_file(), f"{source} cites docs/{page}, which does not exist"
    if anchor:
        assert anchor in anchors(doc), f"{source} cites docs/{page}#{anchor}, which has no such heading"


@pytest.mark.parametrize("heading, anchor", [
    ("## What --fix changes", "what---fix-changes"),
    ("## How candidates are found", "how-candidates-are-found"),
    ("### Per-request path", "per-request-path"),
])
def test_anchor_rule(tmp_path, heading, anchor):
    page = tmp_path / "p.md"
    page.write_text(heading + "\n")
    assert anchors(page) == {anchor}


LINK = re.compile(r"\]\(([^)\s]+)\)")


def doc_links() -> list:
    """Every relative link of the README, docs/ and the other READMEs: (page, target path, anchor)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "curation" / "README.md",
             ROOT / "seeds" / "README.md"]
    found = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            found.append((page.relative_to(ROOT).as_posix(), path, anchor))
    return found


@pytest.mark.parametrize("page, path, anchor", doc_links())
def test_a_docs_link_leads_somewhere(page, path, anchor):
    target = (ROOT / page).parent / path if path else ROOT / page
    assert target.exists(), f"{page} links {path}, which does not exist"
    if anchor:
        assert target.suffix == ".md" and anchor in anchors(target), f"{page} links {path}#{anchor}: no such heading"
