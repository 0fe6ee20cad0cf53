"""When a report was written: the HTML page and its PDF both say it, the same minute (review s48: the
PDF, the file a designer mails or prints, carried no date, so two printed reports of the same runs
could not be told apart by age)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pypdfium2 as pdfium

import analysis_runs as runs
from reports.build import build_report
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

STAMP = re.compile(r"Generated (\d{4}-\d\d-\d\d \d\d:\d\d) UTC\.")


def _pdf_text(path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def test_run_report_pdf_says_when_it_was_generated_as_the_page_does(tmp_path, undrawn):
    before = datetime.now(timezone.utc).replace(second=0, microsecond=0)
    run = runs.synthetic_run(tmp_path / "run", 400, 4, seed=3)
    html_path = build_report([run], tmp_path / "out", pdf=True)
    after = datetime.now(timezone.utc)
    in_page = STAMP.findall(html_path.read_text(encoding="utf-8"))
    in_pdf = STAMP.findall(re.sub(r"\s+", " ", _pdf_text(tmp_path / "out" / "report.pdf")))
    assert len(in_page) == 1 and in_pdf == in_page
    when = datetime.strptime(in_page[0], "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc)
    assert before <= when <= after + timedelta(minutes=1)
