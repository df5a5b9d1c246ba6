"""Headless Chromium for tests of the preview page (Debian's chromium and chromedriver:
`make test` installs them where they are missing; tests never install anything)."""

from __future__ import annotations

import contextlib
import shutil

import pytest


@contextlib.contextmanager
def chrome():
    """A headless Chromium driven by selenium, quit afterwards."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.fail("chromium and chromedriver are needed (make test installs them: "
                    "apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(driver), options=options)
    try:
        yield browser
    finally:
        browser.quit()
