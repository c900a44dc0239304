#!/usr/bin/env python3
"""hostapp on the Linux desktop, checked with the system's own tools: an install into a
temporary prefix (Scripts/install.sh, what `make install` runs) that freedesktop.org's
databases then know: `update-desktop-database`, `gio mime` and `xdg-mime` offer the desktop
entry for every type it names; its Exec line, run as a desktop runs it, serves the file
and hands a browser (a fake one, which records what it is given) a private page that leads
to the viewer; the thumbnailer entry's Exec line writes what `hostapp render` draws;
`hostapp open-with` lists the applications the desktop offers (the default first) and hands
the file to one; uninstall leaves nothing; a prefix that cannot be written gets nothing.

  test_install.py BIN_DIR MANUAL   (the folder with hostapp and hostapp-full; the manual page
                                   ArgumentParser's generate-manual tool wrote for them)
"""
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
BIN = None
MANUAL = None


class InstallTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="desktop-test-")
        self.prefix = os.path.join(self.folder, "prefix")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.environment = dict(os.environ, XDG_DATA_HOME=os.path.join(self.folder, "data"), XDG_CONFIG_HOME=os.path.join(self.folder, "config"),
                                XDG_DATA_DIRS=os.path.join(self.prefix, "share") + ":/usr/share", PATH=os.path.join(self.prefix, "bin") + ":/usr/bin:/bin")

    def run_tool(self, arguments, check=True, env=None):
        return subprocess.run(arguments, capture_output=True, text=True, check=check, env=env or self.environment, timeout=120)

    def install(self):
        self.run_tool(["bash", os.path.join(ROOT, "Scripts", "install.sh"), self.prefix, BIN, MANUAL])
        with open(os.path.join(self.prefix, "share", "hostapp", "installed-files")) as f:
            return f.read().split()

    def entry(self, name):
        with open(os.path.join(self.prefix, "share", name)) as f:
            return dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)

    def test_the_desktop_offers_hostapp_for_every_type_it_names(self):
        files = self.install()
        for name in ["bin/hostapp", "bin/hostapp-full", "share/applications/hostapp.desktop", "share/thumbnailers/hostapp.thumbnailer",
                     "share/man/man1/hostapp.1", "share/bash-completion/completions/hostapp"]:
            self.assertIn(name, files)
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, name)), name)
        self.run_tool(["desktop-file-validate", os.path.join(self.prefix, "share", "applications", "hostapp.desktop")])
        self.run_tool(["update-desktop-database", os.path.join(self.prefix, "share", "applications")])
        manual = subprocess.run(["man", "-l", os.path.join(self.prefix, "share", "man", "man1", "hostapp.1")], capture_output=True, text=True,
                                env=dict(self.environment, MANPAGER="cat", PAGER="cat"), timeout=120)
        self.assertEqual(manual.returncode, 0, manual.stderr)
        self.assertIn("thumbnail", manual.stdout)
        # Each command is an item of the page's list (mdoc's `.It Em NAME`); the hidden worker
        # command (an engine process's side) is not a user's command.
        with open(os.path.join(self.prefix, "share", "man", "man1", "hostapp.1")) as f:
            commands = re.findall(r"^\.It Em (\S+)$", f.read(), re.MULTILINE)
        self.assertIn("thumbnail", commands)
        self.assertIn("serve", commands)
        self.assertNotIn("worker", commands)
        for mime in self.entry("applications/hostapp.desktop")["MimeType"].strip(";").split(";"):
            offered = self.run_tool(["gio", "mime", mime]).stdout
            self.assertIn("hostapp.desktop", offered, mime)
        # The types the thumbnailer names are the system's names for the files the project reads.
        for fixture in ["text.pdf", "book.epub", "book.fb2", "comic.cbz"]:
            known = self.run_tool(["xdg-mime", "query", "filetype", os.path.join(FIXTURES, fixture)]).stdout.strip()
            self.assertIn(known, self.entry("thumbnailers/hostapp.thumbnailer")["MimeType"].split(";"), fixture)
        self.run_tool(["xdg-mime", "default", "hostapp.desktop", "application/pdf"])
        self.assertEqual(self.run_tool(["xdg-mime", "query", "default", "application/pdf"]).stdout.strip(), "hostapp.desktop")

    def test_the_entries_exec_lines_run_as_a_desktop_runs_them(self):
        self.install()
        # The thumbnailer: %s, %i and %o as a file manager fills them.
        output = os.path.join(self.folder, "thumb.png")
        words = [{"%s": "128", "%i": os.path.join(FIXTURES, "text.pdf"), "%o": output}.get(word, word)
                 for word in self.entry("thumbnailers/hostapp.thumbnailer")["Exec"].split()]
        self.run_tool(words)
        rendered = os.path.join(self.folder, "rendered.png")
        self.run_tool(["hostapp", "render", os.path.join(FIXTURES, "text.pdf"), "--pages", "1", "-W", "128", "-H", "128", "-o", rendered])
        pixels = lambda path: subprocess.run(["pngtopam", path], capture_output=True, check=True).stdout
        self.assertEqual(pixels(output), pixels(rendered))
        # "Open with": %f is the file; the browser (a fake that keeps what it is given) gets a
        # page only this user can read, which leads to the viewer with the run's token.
        browser = os.path.join(self.folder, "browser")
        given = os.path.join(self.folder, "given")
        with open(browser, "w") as f:
            f.write("#!/bin/sh\nprintf '%s' \"$1\" > " + given + ".part && mv " + given + ".part " + given + "\n")
        os.chmod(browser, 0o755)
        words = [os.path.join(FIXTURES, "text.pdf") if word == "%f" else word for word in self.entry("applications/hostapp.desktop")["Exec"].split()]
        viewer = subprocess.Popen(words, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(self.environment, BROWSER=browser))
        try:
            line = viewer.stdout.readline()
            self.assertNotIn("token", line, "the token never printed when a browser is opened")
            deadline = time.time() + 120
            while not os.path.exists(given) and time.time() < deadline:
                time.sleep(0.05)
            with open(given) as f:
                page_url = f.read()
            page = page_url.removeprefix("file://")
            self.assertEqual(stat.S_IMODE(os.stat(page).st_mode), 0o600)
            with open(page) as f:
                address = re.search(r"url=(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+)", f.read()).group(1)
            token = address.split("token=")[1]
            request = urllib.request.Request(address.split("?")[0] + "api/documents", headers={"Authorization": "Bearer " + token})
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            self.assertIn("text.pdf", opener.open(request, timeout=60).read().decode())
        finally:
            viewer.send_signal(signal.SIGTERM)
            self.assertEqual(viewer.wait(timeout=120), 0)
            viewer.stdout.close()
            viewer.stderr.close()
        self.assertFalse(os.path.exists(os.path.dirname(page)), "the private page goes with the viewer")
        # What the viewer cannot show is refused in words, before any browser is asked.
        refused = self.run_tool(["hostapp", "view", os.path.join(FIXTURES, "book.epub")], check=False, env=dict(self.environment, BROWSER=browser))
        self.assertEqual(refused.returncode, 65, refused.stderr)
        self.assertIn("is not a PDF", refused.stderr)

    def test_open_with_lists_the_applications_and_hands_the_file_to_one(self):
        self.install()
        self.run_tool(["update-desktop-database", os.path.join(self.prefix, "share", "applications")])
        # An application of the test's own: a desktop entry whose Exec records the file it is given.
        applications = os.path.join(self.environment["XDG_DATA_HOME"], "applications")
        os.makedirs(applications)
        given = os.path.join(self.folder, "given")
        recorder = os.path.join(self.folder, "recorder")
        with open(recorder, "w") as f:
            f.write("#!/bin/sh\nprintf '%s' \"$1\" > " + given + ".part && mv " + given + ".part " + given + "\n")
        os.chmod(recorder, 0o755)
        with open(os.path.join(applications, "recorder.desktop"), "w") as f:
            f.write("[Desktop Entry]\nType=Application\nName=Recorder\nExec=" + recorder + " %f\nMimeType=application/pdf;\n")
        self.run_tool(["update-desktop-database", applications])
        document = os.path.join(FIXTURES, "text.pdf")
        listed = json.loads(self.run_tool(["hostapp", "open-with", "--json", document]).stdout)
        self.assertEqual(listed["contentType"], "application/pdf")
        ids = [application["id"] for application in listed["applications"]]
        self.assertIn("hostapp.desktop", ids)
        self.assertIn("recorder.desktop", ids)
        # The default comes first.
        self.run_tool(["xdg-mime", "default", "recorder.desktop", "application/pdf"])
        listed = json.loads(self.run_tool(["hostapp", "open-with", "--json", document]).stdout)
        self.assertEqual(listed["applications"][0], {"id": "recorder.desktop", "name": "Recorder", "isDefault": True})
        self.run_tool(["hostapp", "open-with", document, "--app", "recorder.desktop"])
        deadline = time.time() + 120
        while not os.path.exists(given) and time.time() < deadline:
            time.sleep(0.05)
        with open(given) as f:
            self.assertEqual(f.read(), document)
        refused = self.run_tool(["hostapp", "open-with", document, "--app", "nothing.desktop"], check=False)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("no application nothing.desktop", refused.stderr)

    def test_uninstall_leaves_nothing_and_a_prefix_that_cannot_be_written_gets_nothing(self):
        self.install()
        self.run_tool(["bash", os.path.join(ROOT, "Scripts", "install.sh"), "--uninstall", self.prefix])
        self.assertEqual([name for name in os.listdir(self.prefix)], [])
        blocker = os.path.join(self.folder, "a-file")
        open(blocker, "w").close()
        refused = self.run_tool(["bash", os.path.join(ROOT, "Scripts", "install.sh"), os.path.join(blocker, "prefix"), BIN, MANUAL], check=False)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("cannot make", refused.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: test_install.py BIN_DIR MANUAL")
    BIN = os.path.abspath(sys.argv.pop(1))
    MANUAL = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
