"""scripts/sdk_lifecycle.py, the curator's refresh path (docs/curating.md#refreshing-from-the-sdks): the
SDKs' deprecation tables, read from downloaded packages of each shape, become the curation lines they
imply, each with its source; nothing is written."""
import tarfile
import zipfile
from pathlib import Path

import pytest

from helpers import DATA, load_script

SDK = DATA / "sdk"
sdk = load_script("sdk_lifecycle")


def wheel(folder: Path, tmp_path: Path) -> Path:
    """The folder packed as the wheel pip download gives."""
    name, version = folder.name.rsplit("-", 1)
    path = tmp_path / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for file in folder.rglob("*"):
            if file.is_file():
                z.write(file, file.relative_to(folder).as_posix())
    return path


def tarball(folder: Path, tmp_path: Path) -> Path:
    """The folder packed as the tarball npm pack gives (everything under package/)."""
    path = tmp_path / "openai-7.57.0.tgz"
    with tarfile.open(path, "w:gz") as t:
        t.add(folder / "package", arcname="package")
    return path


@pytest.mark.parametrize("text, found", [
    ('DEPRECATED_MODELS: Dict[str, str] = {\n    "a-1": "November 30th, 2026",\n    "b-2": "May 1st, 2027",\n}',
     [("a-1", "2026-11-30"), ("b-2", "2027-05-01")]),
    ("export const DEPRECATED_MODELS: Record<string, string> = {\n  'a-1': 'January 22nd, 2027',\n};",
     [("a-1", "2027-01-22")]),
    ('"""Deprecated values:\n\n- "a-1", "a-1-2025-01-01": Announced shutdown date:\n  2027-04-01. See\n'
     '  https://x for details.\n- "b-2": Not a supported model ID.\n"""',
     [("a-1", "2027-04-01"), ("a-1-2025-01-01", "2027-04-01")]),
    # the list ends with its items: quoted words further on are no model ids
    ('"""Deprecated values:\n\n- "a-1": Announced shutdown date: 2027-04-01.\n\n'
     'Use "text" or "audio"; shutdown date: 2026-01-01\n"""', [("a-1", "2027-04-01")]),
    ('DEPRECATED_MODELS = {"a-1": "sometime soon"}', []),   # not a day: nothing
])
def test_tables_are_read_in_each_shape(text, found):
    assert sdk.notices_in(text) == found


def test_every_package_shape_is_identified(tmp_path):
    notices = (sdk.read_package(wheel(SDK / "anthropic-2.14.0", tmp_path)) + sdk.read_package(SDK / "anthropic-2.13.0")
               + sdk.read_package(tarball(SDK / "openai-node", tmp_path)))
    assert {(n.package, n.version, n.registry) for n in notices} == {
        ("anthropic", "2.14.0", "PyPI"), ("anthropic", "2.13.0", "PyPI"), ("openai", "7.57.0", "npm")}
    assert {n.file for n in notices if n.registry == "npm"} == {"src/resources/shared.ts"}


def test_the_changes_to_review_name_their_source(tmp_path, capsys):
    code = sdk.main([str(SDK / "anthropic-2.13.0"), str(wheel(SDK / "anthropic-2.14.0", tmp_path)),
                     str(tarball(SDK / "openai-node", tmp_path)), "--curation", str(DATA / "curation")])
    out = capsys.readouterr().out
    assert code == 0
    # the newest release wins for an id both state; an id a newer release dropped keeps the older one's day
    assert ("anthropic.yaml: claude-sonnet-4-5-20250929 (claude-sonnet-4-5, claude-sonnet-4-5-20250929)\n"
            "        # anthropic 2.14.0 (PyPI), anthropic/_data/deprecated_models.py: end of life 2026-11-30\n"
            "        # anthropic 2.14.0 (PyPI), anthropic/_data/deprecated_models.py: end of life 2026-11-30\n"
            "        sunset_date: 2026-11-30\n") in out
    haiku = ("anthropic.yaml: claude-3-haiku-20240307 (claude-3-haiku-20240307)\n"
             "        # anthropic 2.13.0 (PyPI), anthropic/_data/deprecated_models.py: end of life 2025-12-01\n")
    assert haiku not in out
    assert "Changes to review (1):" in out                       # claude-3-5-sonnet and -haiku agree already
    assert "claude-opus-9: anthropic 2.14.0 (PyPI)" in out       # not in curation: listed, never invented
    assert "gpt-x: openai 7.57.0 (npm), src/resources/shared.ts: end of life 2027-04-01" in out
    # OpenAI's SDK naming Meta's model is out of its lane: listed apart, no change proposed
    assert "Llama-3.1-8B-Instruct: openai 7.57.0 (npm), src/resources/shared.ts: end of life 2027-04-01" \
           " (a model of meta, not of openai: left alone)" in out
    assert "sunset_date: 2027-04-01" not in out
