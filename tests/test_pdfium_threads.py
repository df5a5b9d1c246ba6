"""pdfium is not thread-safe: the preview draws pictures in its builder thread, its
background drawing thread and its request threads at once, and two threads in pdfium at
once crash the process (a segmentation fault: the whole server gone, no message). Every use
holds write/pdfium.LOCK; this drives the ways cardgen draws, from six threads at once, in a
process of its own (a crash must fail the test, not end the test run)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROGRAM = textwrap.dedent("""
    import io, threading
    from reportlab.pdfgen.canvas import Canvas
    from generator.write.png import pdf_to_pngs
    from generator.diff.printed import pdf_pages
    from generator.export.preflight import inspect_pdf, pages_stopping

    def pdf(n):
        out = io.BytesIO()
        canvas = Canvas(out)
        for page in range(4):
            canvas.drawString(100, 100, f"page {page} of {n}")
            canvas.rect(50, 50, 300, 300, fill=1)
            canvas.showPage()
        canvas.save()
        return out.getvalue()

    def run(k):
        for n in range(40):
            data = pdf(k * 1000 + n)
            if n % 3 == 0:
                pdf_pages(data)  # (the changes view's page identities)
            elif n % 3 == 1:
                pages_stopping(data, inspect_pdf(data))
            assert len(pdf_to_pngs(data, 40)) == 4

    threads = [threading.Thread(target=run, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("drawn")
""")


def test_pictures_drawn_from_many_threads_at_once_do_not_crash_the_process():
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=REPO, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "drawn", (done.returncode,
                                                                     done.stderr[-2000:])


def test_pages_drawn_a_batch_at_a_time_are_the_pages_drawn_at_once(monkeypatch):
    """pdf_to_pngs renders BATCH_PIXELS at a hold of pdfium's lock and compresses them after
    it (a page's memory and the lock's hold never grow with the document): one page at a
    hold gives the same PNGs as every page at one."""
    import io
    from reportlab.pdfgen.canvas import Canvas
    from generator.write import png
    out = io.BytesIO()
    canvas = Canvas(out)
    for page in range(5):
        canvas.drawString(100, 100 + 40 * page, f"page {page}")
        canvas.showPage()
    canvas.save()
    whole = png.pdf_to_pngs(out.getvalue(), 30)
    monkeypatch.setattr(png, "BATCH_PIXELS", 1)
    assert png.pdf_to_pngs(out.getvalue(), 30) == whole and len(set(whole)) == 5
