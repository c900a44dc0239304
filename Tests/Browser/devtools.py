"""A DevTools connection to a whole Chromium that Selenium drives, for what Selenium's own
`execute_cdp_cmd` reaches only in the page: the network taken away and given back
(`Network.emulateNetworkConditions`) in every page and service worker, since a service worker
fetches on its own. Used by the browser tests and `make bench-viewer`."""

import itertools
import json
import urllib.request


class DevTools:
    """A connection to the DevTools of the whole browser that `driver` runs."""

    def __init__(self, driver):
        import websocket  # Selenium's own dependency
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen("http://%s/json/version" % address, timeout=30) as response:
            endpoint = json.load(response)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(endpoint, timeout=30, suppress_origin=True)
        self.ids = itertools.count(1)
        self.sessions = {}

    def call(self, method, params=None, session=None):
        """The result of `method` in the browser, or in the target of `session`."""
        ident = next(self.ids)
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer["result"]

    def offline(self, offline):
        """Takes the network from every page and service worker (`offline`), or gives it back."""
        for target in self.call("Target.getTargets")["targetInfos"]:
            if target["type"] not in ("page", "service_worker"):
                continue
            if target["targetId"] not in self.sessions:
                self.sessions[target["targetId"]] = self.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
            session = self.sessions[target["targetId"]]
            self.call("Network.enable", {}, session)
            self.call("Network.emulateNetworkConditions", {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session)

    def close(self):
        self.socket.close()
