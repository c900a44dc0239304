"""Starts `hostapp serve` on a document, opens the viewer in headless Chromium and saves a
screenshot: `make demo`'s picture of the viewer.

Usage: viewer-screenshot.py HOSTAPP DOCUMENT OUTPUT.png
"""

import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main(hostapp, document, output):
    folder = tempfile.mkdtemp(prefix="viewer-demo-")
    token = secrets.token_hex(16)
    token_file = os.path.join(folder, "token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    server = subprocess.Popen([hostapp, "serve", document, "--port", "0", "--token-file", token_file, "--read-only"],
                              stdout=subprocess.PIPE, text=True)
    browser = None
    try:
        address = re.search(r"(http://127\.0\.0\.1:\d+/)", server.stdout.readline())
        if not address:
            sys.exit("hostapp serve did not start")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,860", "--no-proxy-server", "--force-device-scale-factor=1"):
            options.add_argument(argument)
        browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        browser.get(address.group(1) + "?token=" + token)
        deadline = time.time() + 30
        while time.time() < deadline:
            drawn = browser.execute_script(
                "const i = document.querySelector('.page img.render');"
                "const t = [...document.querySelectorAll('#thumbnails img')].filter(t => t.src).slice(0, 3);"
                "return i && i.complete && i.naturalWidth > 0 && t.length > 0 && t.every(t => t.complete)")
            if drawn:
                break
            time.sleep(0.2)
        browser.find_element("id", "find").send_keys("image\n")
        time.sleep(1.5)
        browser.save_screenshot(output)
        print("The viewer's screenshot is", output)
    finally:
        if browser:
            browser.quit()
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
