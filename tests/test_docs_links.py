"""README.md and docs/: every relative link resolves, every docs page is reachable from the
index, and the README stays a guide (at most 15,000 characters, no commit hashes).

Links are Markdown's inline `[text](target)`; a target with a scheme (https:, mailto:) is
left alone. A target `path#anchor` must name an existing file and, for a Markdown file, a
heading whose GitHub slug is `anchor`; `#anchor` alone refers to the page itself.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
INDEX = DOCS / "README.md"
README_MAX_CHARS = 15_000

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def pages():
    return [README] + sorted(DOCS.glob("*.md"))


def prose(path: Path) -> str:
    """The page without its fenced code blocks (their brackets are code, not links)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in HEADING.findall(prose(path))}


def links(path: Path):
    for target in LINK.findall(prose(path)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto:, ...
        yield target


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    broken = []
    for target in links(page):
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / file_part).resolve() if file_part else page
        if not dest.exists():
            broken.append(f"{target}: no such file {dest.relative_to(ROOT) if ROOT in dest.parents else dest}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: broken links:\n  " + "\n  ".join(broken)


def test_every_docs_page_is_in_the_index():
    linked = {(INDEX.parent / t.partition("#")[0]).resolve() for t in links(INDEX)}
    missing = [p.name for p in sorted(DOCS.glob("*.md")) if p != INDEX and p.resolve() not in linked]
    assert not missing, f"docs/README.md (the index) does not link: {', '.join(missing)}"


def test_readme_links_the_index():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in links(README)}
    assert INDEX.resolve() in linked, "README.md does not link docs/README.md"


def test_readme_is_a_guide_not_a_reference():
    text = README.read_text(encoding="utf-8")
    assert len(text) <= README_MAX_CHARS, (
        f"README.md has {len(text)} characters, more than {README_MAX_CHARS}: "
        "move reference text to docs/ (index docs/README.md) and measurements to BENCHMARKS.md")
    # No diary: commit hashes and dated timings belong in BENCHMARKS.md.
    hashes = re.findall(r"(?<![0-9a-fA-F/])[0-9a-f]{7,40}(?![0-9a-fA-F])", text)
    hashes = [h for h in hashes if re.search(r"[a-f]", h) and re.search(r"[0-9]", h)]
    assert not hashes, f"README.md quotes commit hashes {hashes}: measurements go to BENCHMARKS.md"
    dates = re.findall(r"\b20\d\d-\d\d-\d\d\b", text)
    assert not dates, f"README.md quotes dates {dates}: dated timings go to BENCHMARKS.md"


def test_slug():
    assert slug("The secret key's weight") == "the-secret-keys-weight"
    assert slug("What `make run` shows") == "what-make-run-shows"
    assert slug("§1 Field") == "1-field"
