"""A throwaway CUPS print server for the browser tests: Debian's scheduler (`cupsd -f`) on a
free loopback port with the configuration, spool and MIME types of its own that
Tests/Fixtures/CUPS holds (the Swift tests' CUPSServer reads the same files). Queues print to
/dev/null and each job's document stays in the spool. cupsd needs root, as CI runs."""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "CUPS")


def _template(name, **values):
    with open(os.path.join(TEMPLATES, name)) as f:
        text = f.read()
    for key, value in values.items():
        text = text.replace("@%s@" % key, str(value))
    return text


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class CUPSServer:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="cups-")
        os.chmod(self.folder, 0o755)  # the filters run as lp
        for sub in ("spool/tmp", "cache", "state", "log", "data/mime", "data/banners"):
            os.makedirs(os.path.join(self.folder, sub))
        shutil.copy("/usr/share/cups/mime/mime.types", os.path.join(self.folder, "data/mime"))
        with open(os.path.join(self.folder, "cups-files.conf"), "w") as f:
            f.write(_template("cups-files.conf", FOLDER=self.folder))
        self.process = None
        for _ in range(3):
            self.port = _free_port()
            with open(os.path.join(self.folder, "cupsd.conf"), "w") as f:
                f.write(_template("cupsd.conf", PORT=self.port))
            self.process = subprocess.Popen(
                ["/usr/sbin/cupsd", "-f", "-c", os.path.join(self.folder, "cupsd.conf"), "-s", os.path.join(self.folder, "cups-files.conf")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if self._answers():
                return
            self.stop()
        raise RuntimeError("cupsd did not start (make setup installs Debian's cups-daemon)")

    @property
    def address(self):
        return "127.0.0.1:%d" % self.port

    def _answers(self):
        """Whether the scheduler answers within a minute, asked every 50 ms, while it runs."""
        deadline = time.time() + 60
        while time.time() < deadline and self.process.poll() is None:
            result = subprocess.run(["lpstat", "-h", self.address, "-r"], capture_output=True, text=True)
            if "is running" in result.stdout:
                return True
            time.sleep(0.05)
        return False

    def add_queue(self, name, document_format):
        ppd = os.path.join(self.folder, name + ".ppd")
        with open(ppd, "w") as f:
            f.write(_template("queue.ppd", NAME=name, FORMAT=document_format))
        subprocess.run(["lpadmin", "-h", self.address, "-p", name, "-E", "-v", "file:///dev/null", "-P", ppd], check=True, capture_output=True)

    def spooled(self, job):
        with open(os.path.join(self.folder, "spool", "d%05d-001" % job), "rb") as f:
            return f.read()

    def job_attributes(self, job):
        """The job's attributes as ipptool reads them: name to value, in ipptool's words."""
        output = subprocess.run(["ipptool", "-tv", "ipp://%s/jobs/%d" % (self.address, job), "get-job-attributes.test"],
                                capture_output=True, text=True).stdout
        attributes = {}
        for line in output.splitlines():
            name, equals, value = line.strip().partition(" = ")
            if equals:
                attributes[name.split(" ")[0]] = value
        return attributes

    def stop(self):
        """Ends the scheduler with SIGKILL (a SIGTERM may be blocked in what it inherited) and removes its folder."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def remove(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
