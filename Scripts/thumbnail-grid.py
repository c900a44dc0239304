"""Makes the picture of what a file manager shows once hostapp's thumbnailer is installed: each
document's thumbnail made by running the thumbnailer entry's Exec line as a file manager
substitutes it (%s the size, %i the input, %o the output), laid out as a file manager's grid
of icons with their names, in headless Chromium, and saved as a screenshot: `make demo`'s
picture of the desktop.

Usage: thumbnail-grid.py HOSTAPP OUTPUT.png DOCUMENT...
"""

import html
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 128  # GNOME's "normal" thumbnails


def exec_line():
    """The thumbnailer entry's Exec line, as its words."""
    with open(os.path.join(HERE, "..", "Packaging", "hostapp.thumbnailer")) as f:
        for line in f:
            if line.startswith("Exec="):
                return shlex.split(line[len("Exec="):].strip())
    sys.exit("Packaging/hostapp.thumbnailer has no Exec line")


def main(hostapp, output, documents):
    folder = tempfile.mkdtemp(prefix="thumbnail-grid-")
    browser = None
    try:
        cells = []
        for index, document in enumerate(documents):
            thumbnail = os.path.join(folder, "%d.png" % index)
            words = [{"%s": str(SIZE), "%i": os.path.abspath(document), "%o": thumbnail}.get(word, word) for word in exec_line()]
            words[0] = hostapp  # the entry says `hostapp`, found on the PATH once installed
            subprocess.run(words, check=True)
            cells.append('<figure><div><img src="%d.png" alt=""></div><figcaption>%s</figcaption></figure>'
                         % (index, html.escape(os.path.basename(document))))
        page = os.path.join(folder, "grid.html")
        with open(page, "w") as f:
            f.write("<!doctype html><meta charset=utf-8><style>"
                    "body { margin: 0; padding: 24px; overflow: hidden; background: #fafafa; font: 14px sans-serif; color: #222; }"
                    "main { display: grid; grid-template-columns: repeat(4, 180px); gap: 20px 12px; }"
                    "figure { margin: 0; text-align: center; }"
                    "figure div { height: %dpx; display: flex; align-items: flex-end; justify-content: center; }"
                    "img { box-shadow: 0 1px 4px rgba(0,0,0,.35); }"
                    "figcaption { margin-top: 8px; word-break: break-all; }"
                    "</style><main>%s</main>" % (SIZE, "".join(cells)))
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        rows = (len(documents) + 3) // 4
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=816,%d" % (140 + rows * 200), "--no-proxy-server", "--force-device-scale-factor=1",
                         "--allow-file-access-from-files"):
            options.add_argument(argument)
        browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        browser.get("file://" + page)
        browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "Promise.all([...document.images].map((image) => image.decode())).then(() => done(true), () => done(false))")
        browser.save_screenshot(output)
        print("The thumbnails as a file manager shows them:", output)
    finally:
        if browser:
            browser.quit()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
