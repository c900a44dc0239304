"""Two viewers on one collaboration layer, in real browsers: Debian's headless Chromium,
driven by Selenium, against a real `hostapp serve --collab-key` on a free loopback port.

Run by `make test` as `python3 Tests/Browser/test_collaboration.py HOSTAPP`. Alice and Bob
each open the viewer in a browser of their own, with tokens that `hostapp token issue`
signed. What one adds, changes and deletes must appear in the other's page without a
reload; Bob may not change Alice's annotation (the editor is greyed out), but a reader
replies to another's annotation, and deleting a root takes its thread from both viewers; and the server's
layer, read through `hostapp sync pull` (a separate process), holds what the viewers show.
A reader who loses the network (Chromium's network emulation, in the page and in the viewer's
service worker) still reads the document and annotates it; back online, the layer has each
change once, as theirs, and a change that met another reader's is shown to them, not lost;
in English and in German. If Chromium cannot start, the tests fail and say why; they never skip.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Fixtures")
HOSTAPP = None  # set from the command line
TOKEN = "collaboration-browser-token-0123456789"
DOCUMENT = "docs/text.pdf"
LAYER = "review 'one'/two"  # quotes, a slash and a space travel verbatim


class CollaborationTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from test_viewer import ViewerTests, serve
        cls.folder = tempfile.mkdtemp(prefix="collaboration-test-")
        cls.docs = os.path.join(cls.folder, "docs")
        os.mkdir(cls.docs)
        shutil.copy(os.path.join(FIXTURES, "text.pdf"), cls.docs)
        token_file = os.path.join(cls.folder, "token")
        with open(token_file, "w") as f:
            f.write(TOKEN + "\n")
        private, public = os.path.join(cls.folder, "private.pem"), os.path.join(cls.folder, "public.pem")
        subprocess.run([HOSTAPP, "token", "keygen", "--private-key-out", private, "--public-key-out", public], check=True)
        cls.tokens = {}
        # Carol may change everyone's annotations; the others their own.
        for user in ("alice", "bob", "erin", "dora", "fay", "carol"):
            rights = ["--permission", "annotations:edit:all"] if user == "carol" else []
            cls.tokens[user] = subprocess.run(
                [HOSTAPP, "token", "issue", "--private-key", private, "--document", DOCUMENT, "--layer", LAYER, "--user", user,
                 "--permission", "read-document", "--permission", "write", *rights, "--expires-in", "86400"],
                check=True, capture_output=True, text=True).stdout.strip()
            with open(os.path.join(cls.folder, user + ".token"), "w") as f:
                f.write(cls.tokens[user])
        cls.server, cls.base = serve(
            HOSTAPP, [cls.docs, "--token-file", token_file, "--collab-key", public, "--database", os.path.join(cls.folder, "layers.sqlite"),
                     "--reader-state", ":memory:"])
        cls.browsers = {}
        for user in ("alice", "bob"):
            cls.browsers[user] = ViewerTests.start_browser()

    @classmethod
    def tearDownClass(cls):
        for browser in getattr(cls, "browsers", {}).values():
            browser.quit()
        cls.server.send_signal(signal.SIGTERM)
        try:
            cls.server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            cls.server.kill()
            raise
        shutil.rmtree(cls.folder, ignore_errors=True)

    def js(self, user, script, *arguments):
        return self.browsers[user].execute_script(script, *arguments)

    def wait_for(self, user, script, what, timeout=30, *arguments):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.js(user, script, *arguments)
            if value:
                return value
            time.sleep(0.1)
        self.fail("timed out waiting for %s in %s's viewer" % (what, user))

    def open(self, user):
        self.browsers[user].get(self.address(user))
        self.wait_for(user, "return document.querySelectorAll('.page').length === 3", "three pages")
        self.wait_for(user, "const i = document.querySelector('.page[data-index=\"0\"] .text-layer span'); return i !== null", "page 1's text layer")
        # The collaboration token is out of the address once the viewer has it.
        self.assertNotIn("collab=", self.browsers[user].current_url)
        self.assertIn("layer=", self.browsers[user].current_url)

    def address(self, user):
        """The viewer's address that opens the layer with `user`'s collaboration token."""
        from urllib.parse import quote
        return self.base + "/?token=" + TOKEN + "#doc=" + quote(DOCUMENT, safe="") + "&layer=" + quote(LAYER, safe="") + "&zoom=100&collab=" + self.tokens[user]

    def layer_url(self, path):
        from urllib.parse import quote
        return self.base + "/api/collab/documents/" + quote(DOCUMENT, safe="") + "/layers/" + quote(LAYER, safe="") + path

    def change(self, user, change):
        """Sends one change to the layer over HTTP with `user`'s token; returns its result."""
        request = urllib.request.Request(
            self.layer_url("/changes"), method="POST", data=json.dumps({"changes": [change]}).encode(),
            headers={"Authorization": "Bearer " + self.tokens[user], "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["results"][0]

    def stored(self):
        """The layer's annotations as the server holds them now, with their revisions, by id."""
        request = urllib.request.Request(self.layer_url("/annotations"), headers={"Authorization": "Bearer " + self.tokens["carol"]})
        with urllib.request.urlopen(request, timeout=30) as response:
            return {held["annotation"]["id"]: held for held in json.load(response)["annotations"]}

    def shapes(self, user, annotation_id):
        return self.js(user, "return document.querySelectorAll('svg .annotation[data-id=\"' + arguments[0] + '\"]').length", annotation_id)

    def layer(self):
        """The layer as the server holds it, pulled by `hostapp sync` in a process of its own."""
        pulled = subprocess.run(
            [HOSTAPP, "sync", "pull", "--server", self.base, "--token-file", os.path.join(self.folder, "alice.token"),
             "--store", os.path.join(self.folder, "witness-store"), "--output", os.path.join(self.folder, "layer.json")],
            capture_output=True, text=True)
        self.assertEqual(pulled.returncode, 0, pulled.stderr)
        with open(os.path.join(self.folder, "layer.json")) as f:
            return {a["id"]: a for a in json.load(f)}

    def test_two_viewers_see_each_others_changes(self):
        self.open("alice")
        self.open("bob")

        # Alice highlights words on page 1; Bob's page shows it, without a reload.
        self.js("alice", """
            // The first two words (a span of the text layer holds a run of words).
            const words = [...document.querySelectorAll('.page[data-index="0"] .text-layer span')]
              .flatMap((span) => [...span.firstChild.data.matchAll(/\\S+/g)].map((word) => [span.firstChild, word.index, word.index + word[0].length]));
            const range = document.createRange();
            range.setStart(words[0][0], words[0][1]);
            range.setEnd(words[1][0], words[1][2]);
            window.getSelection().removeAllRanges();
            window.getSelection().addRange(range);
        """)
        self.browsers["alice"].find_element("css selector", "#tools [data-tool=highlight]").click()
        created = self.wait_for("alice", "const s = document.querySelector('svg .annotation.layer-own'); return s && s.dataset.id", "alice's highlight")
        self.wait_for("bob", "return document.querySelectorAll('svg .annotation[data-id=\"' + arguments[0] + '\"]').length > 0",
                      "alice's highlight in bob's page", 30, created)
        layer = self.layer()
        self.assertEqual(layer[created]["kind"], "Highlight")
        self.assertEqual(layer[created]["author"], "alice")
        self.assertEqual(layer[created]["pageIndex"], 0)
        # Drawn where Alice drew it: the same box in both viewers.
        box = "const r = document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]'); return [...r.children].filter((c) => c.tagName !== 'title').map((c) => c.getAttribute('points'))"
        self.assertEqual(self.js("alice", box, created), self.js("bob", box, created))

        # Bob may not change it: it is greyed out, and his editor's buttons are disabled.
        self.assertTrue(self.js("bob", "return document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]').classList.contains('foreign')", created))
        self.js("bob", "document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))", created)
        self.wait_for("bob", "return !document.getElementById('editor').hidden", "bob's editor")
        self.assertTrue(self.js("bob", "return document.getElementById('editor-save').disabled && document.getElementById('editor-delete').disabled"))
        self.assertIn("not yours", self.js("bob", "return document.getElementById('editor-author').textContent"))

        # Alice edits its contents; Bob's list shows the new contents.
        self.js("alice", "document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))", created)
        self.wait_for("alice", "return !document.getElementById('editor').hidden && !document.getElementById('editor-save').disabled", "alice's editor")
        self.js("alice", "document.getElementById('editor-contents').value = 'seen by bob'; document.getElementById('editor-save').click()")
        self.wait_for("bob", "return document.getElementById('annotations').textContent.includes('seen by bob')", "the edit in bob's list")
        self.assertEqual(self.layer()[created]["contents"], "seen by bob")

        # Bob adds a rectangle of his own; Alice sees it, greyed out for her.
        page = self.browsers["bob"].find_element("css selector", ".page[data-index=\"0\"]")
        self.browsers["bob"].find_element("css selector", "#tools [data-tool=rectangle]").click()
        from selenium.webdriver.common.action_chains import ActionChains
        # Offsets count from the page's centre: start 150 and 200 pixels into its top-left.
        ActionChains(self.browsers["bob"]).move_to_element_with_offset(page, -page.rect["width"] / 2 + 150, -page.rect["height"] / 2 + 200) \
            .click_and_hold().move_by_offset(80, 60).release().perform()
        bobs = self.wait_for("bob", "const s = [...document.querySelectorAll('svg .annotation.layer-own')].find(s => s.dataset.id !== arguments[0]); return s && s.dataset.id",
                             "bob's rectangle", 30, created)
        self.wait_for("alice", "const s = document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]'); return s && s.classList.contains('foreign')",
                      "bob's rectangle in alice's page", 30, bobs)
        self.assertEqual(self.layer()[bobs]["author"], "bob")

        # Bob draws an ink stroke; Alice's page draws it as its stroke, not as a box.
        self.browsers["bob"].find_element("css selector", "#tools [data-tool=ink]").click()
        ActionChains(self.browsers["bob"]).move_to_element_with_offset(page, -page.rect["width"] / 2 + 100, -page.rect["height"] / 2 + 400) \
            .click_and_hold().move_by_offset(40, 30).move_by_offset(40, -30).move_by_offset(40, 30).release().perform()
        ink = self.wait_for("bob", "const s = document.querySelector('svg .annotation.layer-own[data-kind=\"Ink\"]'); return s && s.dataset.id", "bob's ink", 30)
        stroke = self.wait_for("alice", "const s = document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"] polyline'); return s && s.getAttribute('points')",
                               "bob's ink drawn as a stroke in alice's page", 30, ink)
        self.assertGreaterEqual(len(stroke.split()), 4, stroke)
        self.assertEqual(self.layer()[ink]["kind"], "Ink")
        self.assertGreaterEqual(len(self.layer()[ink]["inkPaths"][0]), 4)

        # Alice may not change Bob's rectangle, but she replies to it; Bob's notes list shows
        # her reply in its thread at once, and the layer holds it as hers.
        click = "document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))"
        def reply(user, root, text):
            self.js(user, click, root)
            self.wait_for(user, "return !document.getElementById('editor').hidden && !document.getElementById('editor-reply-send').disabled", user + "'s editor")
            self.js(user, "document.getElementById('editor-reply').value = arguments[0]; document.getElementById('editor-reply-send').click()", text)
        reply("alice", bobs, "looks right")
        self.assertTrue(self.js("alice", "return document.getElementById('editor-save').disabled"))
        self.wait_for("bob", "return document.getElementById('annotations').textContent.includes('alice: looks right')", "alice's reply in bob's list")
        answer = [a for a in self.layer().values() if a.get("inReplyTo") == bobs]
        self.assertEqual([(a["author"], a["contents"]) for a in answer], [("alice", "looks right")])
        # Her own highlight gets a reply of hers, which goes with it below.
        reply("alice", created, "mine too")
        self.wait_for("bob", "return document.getElementById('annotations').textContent.includes('alice: mine too')", "alice's second reply in bob's list")

        # Alice deletes hers, and its thread with it; both leave Bob's page and list.
        self.js("alice", "document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))", created)
        self.wait_for("alice", "return !document.getElementById('editor').hidden && !document.getElementById('editor-delete').disabled", "alice's editor")
        self.js("alice", "document.getElementById('editor-delete').click()")
        self.wait_for("bob", "return document.querySelectorAll('svg .annotation[data-id=\"' + arguments[0] + '\"]').length === 0", "the highlight gone from bob's page", 30, created)
        self.wait_for("bob", "return !document.getElementById('annotations').textContent.includes('mine too')", "the highlight's thread gone from bob's list")
        self.assertNotIn(created, self.layer())
        self.assertEqual([a["contents"] for a in self.layer().values() if a.get("inReplyTo")], ["looks right"])

        # Ctrl+Z takes Alice's deletion back: a new change of hers, which Bob's page shows.
        from selenium.webdriver.common.keys import Keys
        undo = lambda user: ActionChains(self.browsers[user]).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.js("alice", "document.activeElement.blur(); document.getElementById('viewer').focus()")
        undo("alice")
        back = self.wait_for("bob", "const s = document.querySelectorAll('svg .annotation[data-kind=\"Highlight\"]'); return s.length === 1 && s[0].dataset.id",
                             "alice's highlight back in bob's page")
        self.assertEqual((self.layer()[back]["author"], self.layer()[back]["contents"]), ("alice", "seen by bob"))
        # Bob's takes back his last change, the ink stroke, from Alice's page too.
        self.js("bob", "document.activeElement.blur(); document.getElementById('viewer').focus()")
        undo("bob")
        self.wait_for("alice", "return document.querySelectorAll('svg .annotation[data-id=\"' + arguments[0] + '\"]').length === 0", "bob's ink gone from alice's page", 30, ink)
        self.assertNotIn(ink, self.layer())

        # A reload keeps the layer (the token stays in the tab, out of the address).
        self.browsers["bob"].refresh()
        self.wait_for("bob", "return document.querySelectorAll('svg .annotation[data-id=\"' + arguments[0] + '\"]').length > 0", "bob's rectangle after a reload", 30, bobs)

    def test_a_layer_read_before_the_worker_took_over_is_kept(self):
        # On a first visit the page reads the layer before its service worker takes it over,
        # and reads it again through the worker once it does, with the reader's token (the
        # worker alone would ask with the cookie, which the layer refuses), so that the layer
        # is kept for reading offline. The worker's registration is held here until the layer
        # is read, so that every run meets that order, whatever the machine's load.
        from test_viewer import ViewerTests
        user = "fay"
        made = self.change(user, {"operationID": "read-before-the-worker", "action": "add", "annotation": {
            "kind": "Text", "pageIndex": 0, "contents": "read before the worker",
            "rect": {"origin": {"x": 200, "y": 500}, "size": {"width": 20, "height": 20}}}})
        self.assertEqual(made["status"], "applied", made)
        browser = ViewerTests.start_browser()
        self.browsers[user] = browser
        try:
            browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
                const register = ServiceWorkerContainer.prototype.register;
                const released = new Promise((resolve) => { window.releaseWorker = resolve; });
                ServiceWorkerContainer.prototype.register = function (...args) { return released.then(() => register.apply(this, args)); };
            """})
            self.open(user)
            self.wait_for(user, "return document.getElementById('annotations').textContent.includes('read before the worker')", "the layer read")
            self.assertTrue(self.js(user, "return navigator.serviceWorker.controller === null"), "a worker took over before it was let register")
            self.js(user, "window.releaseWorker()")
            self.wait_for(user, "return navigator.serviceWorker.controller !== null", "the worker in control")
            kept = """
                const done = arguments[arguments.length - 1];
                caches.open('renderer-viewer-kept').then((cache) => cache.keys()).then((requests) => {
                  done(requests.some((r) => decodeURIComponent(r.url).includes('/layers/')));
                }, () => done(false));"""
            deadline = time.time() + 30
            while not browser.execute_async_script(kept):
                self.assertLess(time.time(), deadline, "the layer read before the worker took over was never kept")
                time.sleep(0.2)
        finally:
            # The layer as the other tests expect it: without this reader's note.
            note = made["annotation"]["annotation"]["id"]
            self.change("carol", {"operationID": "gone-" + note, "action": "delete", "annotationID": note})
            browser.quit()
            del self.browsers[user]

    def test_offline_edits_reach_the_layer_once_when_back(self):
        for language, user in (("en", "erin"), ("de", "dora")):
            with self.subTest(language=language):
                self.read_and_annotate_offline(language, user)

    def read_and_annotate_offline(self, language, user):
        from devtools import DevTools
        from test_viewer import ViewerTests
        words = {"en": ("Changes made offline that were not applied", "Apply mine"),
                 "de": ("Offline gemachte Änderungen, die nicht übernommen wurden", "Meine übernehmen")}[language]
        # The reader's own note, in the layer before they open it.
        made = self.change(user, {"operationID": "base-" + language, "action": "add", "annotation": {
            "kind": "Text", "pageIndex": 0, "contents": "before " + language,
            "rect": {"origin": {"x": 300, "y": 500}, "size": {"width": 20, "height": 20}}}})
        self.assertEqual(made["status"], "applied", made)
        base = made["annotation"]["annotation"]["id"]
        added = None
        browser = ViewerTests.start_browser(language)
        self.browsers[user] = browser
        network = DevTools(browser)
        try:
            # First visit, online: the service worker takes the page over and keeps what it shows.
            self.open(user)
            kept = """
                const done = arguments[arguments.length - 1];
                caches.open('renderer-viewer-kept').then((cache) => cache.keys()).then((requests) => {
                  const urls = requests.map((r) => decodeURIComponent(r.url));
                  done(urls.some((u) => u.includes('/layers/')) && [0, 1, 2].every((i) => urls.some((u) => u.includes('/pages/' + i + '/image?dpi'))));
                }, () => done(false));"""
            deadline = time.time() + 30
            while not browser.execute_async_script(kept):
                self.assertLess(time.time(), deadline, "the viewer's service worker never kept the document")
                time.sleep(0.2)

            # An installable web app, by Chromium's own criteria.
            self.assertEqual(browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"], [])
            # The reader sees what is kept, and of what budget (200 MB until they choose).
            browser.find_element("id", "properties-open").click()
            usage = self.wait_for(user, "return document.getElementById('offline-usage').textContent", "what is kept")
            self.assertRegex(usage, r"\b200\b")
            self.assertEqual(self.js(user, "return document.getElementById('offline-budget').value"), str(200 * 1024 * 1024))
            browser.find_element("id", "properties-close").click()

            # The network goes; the viewer opens again from what it kept: pages, text, the note.
            network.offline(True)
            self.wait_for(user, "return navigator.onLine === false", "the browser offline")
            browser.refresh()
            self.wait_for(user, "return [...document.querySelectorAll('.page canvas.render')].filter((i) => i.dataset.state === 'drawn').length === 3", "the kept pages")
            self.wait_for(user, "return document.querySelector('.page[data-index=\"0\"] .text-layer span') !== null", "the kept text")
            self.wait_for(user, "return document.getElementById('annotations').textContent.includes(arguments[0])", "the kept note", 30, "before " + language)

            # Offline, the reader adds a note and writes in it, and changes their first note.
            browser.find_element("css selector", "#tools [data-tool=note]").click()
            left, top = self.js(user, "const r = document.querySelector('.page[data-index=\"0\"]').getBoundingClientRect(); return [r.left, r.top]")
            from selenium.webdriver.common.actions.action_builder import ActionBuilder
            click = ActionBuilder(browser)
            click.pointer_action.move_to_location(int(left + 100), int(top + 120))
            click.pointer_action.click()
            click.perform()
            added = self.wait_for(user, "const s = document.querySelector('svg .annotation.pending[data-kind=\"Text\"]'); return s && s.dataset.id", "the note made offline")
            edit = "document.querySelector('svg .annotation[data-id=\"' + arguments[0] + '\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))"
            for annotation, contents in ((added, "offline " + language), (base, "mine " + language)):
                browser.find_element("css selector", "#tools [data-tool=select]").click()
                self.js(user, edit, annotation)
                self.wait_for(user, "return !document.getElementById('editor').hidden && !document.getElementById('editor-save').disabled", "the editor")
                self.js(user, "document.getElementById('editor-contents').value = arguments[0]; document.getElementById('editor-save').click()", contents)
                self.wait_for(user, "return [...document.querySelectorAll('#annotations li.pending')].some((li) => li.textContent.includes(arguments[0]))",
                              "the offline edit, marked not sent", 30, contents)
            # Nothing reached the server; meanwhile Carol changes the first note.
            self.assertNotIn(added, self.stored())
            self.assertEqual(self.stored()[base]["annotation"]["contents"], "before " + language)
            theirs = self.change("carol", {"operationID": "carol-" + language, "action": "modify", "baseRevision": self.stored()[base]["revision"],
                                           "annotation": {**self.stored()[base]["annotation"], "contents": "carol " + language}})
            self.assertEqual(theirs["status"], "applied", theirs)
            # What waits is in the browser's storage, not the tab: a reload offline keeps it.
            browser.refresh()
            self.wait_for(user, "return [...document.querySelectorAll('#annotations li.pending')].length === 2", "the two waiting edits after a reload")

            # The network comes back: each change reaches the layer once, as the reader's; the
            # one that met Carol's is shown, with both texts, and the layer keeps Carol's.
            network.offline(False)
            self.wait_for(user, "return !document.getElementById('conflicts').hidden && document.querySelectorAll('#annotations li.pending').length === 0",
                          "the changes sent and the conflict shown")
            layer = self.stored()
            notes = [held["annotation"] for held in layer.values() if held["annotation"].get("contents") == "offline " + language]
            self.assertEqual(len(notes), 1, notes)
            self.assertEqual(notes[0]["id"], added)
            self.assertEqual(notes[0]["author"], user)
            self.assertEqual(layer[base]["annotation"]["contents"], "carol " + language)
            shown = self.js(user, "return document.getElementById('conflicts').innerText")
            self.assertIn(words[0], shown)
            self.assertIn("mine " + language, shown)
            self.assertIn("carol " + language, shown)
            # Offline and back again: nothing is sent twice.
            network.offline(True)
            self.wait_for(user, "return navigator.onLine === false", "the browser offline again")
            network.offline(False)
            self.wait_for(user, "return navigator.onLine === true", "the browser online again")
            self.js(user, "window.dispatchEvent(new Event('online'))")
            time.sleep(1)
            self.assertEqual(sum(1 for held in self.stored().values() if held["annotation"].get("contents") == "offline " + language), 1)

            # The reader chooses theirs: made on Carol's revision, still the reader's note.
            # (The list is drawn again when the layer's socket comes back too: found and
            # clicked in one step.)
            pressed = self.wait_for(user, "const b = document.querySelector('#conflicts .resend'); if (!b || b.disabled) return null; "
                                          "const text = b.textContent; b.click(); return text;", "the button to apply the reader's")
            self.assertEqual(pressed, words[1])
            self.wait_for(user, "return document.getElementById('conflicts').hidden", "the conflict settled")
            layer = self.stored()
            self.assertEqual(layer[base]["annotation"]["contents"], "mine " + language)
            self.assertEqual(layer[base]["annotation"]["author"], user)
            # A smaller budget, chosen in Properties, holds: the least recently used go first.
            browser.find_element("id", "properties-open").click()
            self.wait_for(user, "return document.getElementById('offline-budget').options.length > 0", "the budgets")
            self.js(user, "const s = document.getElementById('offline-budget'); s.value = String(50 * 1024 * 1024); s.dispatchEvent(new Event('change'))")
            self.wait_for(user, "return /\\b50\\b/.test(document.getElementById('offline-usage').textContent)", "the budget shown as chosen")
            browser.find_element("id", "properties-close").click()
            trimmed = browser.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const store = globalThis.offlineStore, megabytes = 1024 * 1024;
                (async () => {
                  await store.noteKept('/older', 30 * megabytes);
                  await store.noteKept('/newer', 30 * megabytes);
                  const kept = (await store.all('kept')).map((entry) => entry.url);
                  done({ usage: (await store.keptUsage()).bytes, older: kept.includes('/older'), newer: kept.includes('/newer') });
                })().catch((error) => done(String(error)));""")
            self.assertEqual(trimmed, {"usage": 30 * 1024 * 1024, "older": False, "newer": True})

        finally:
            # The layer as the other tests expect it: without this reader's notes.
            for annotation in (added, base):
                if annotation:
                    self.change("carol", {"operationID": "gone-" + annotation, "action": "delete", "annotationID": annotation})
            network.close()
            browser.quit()
            del self.browsers[user]


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_collaboration.py HOSTAPP [unittest arguments]")
    HOSTAPP = os.path.abspath(sys.argv.pop(1))
    sys.path.insert(0, HERE)
    unittest.main(verbosity=2)
