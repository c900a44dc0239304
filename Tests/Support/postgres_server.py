"""A throwaway PostgreSQL cluster for the Python tests (the deployment's and the fleet's) and
benchmarks (Benchmarks/collab_load.py): Debian's server made with `initdb` in a
temporary folder and run with `pg_ctl` on a free loopback port, as an unprivileged user when
the tests run as root (PostgreSQL refuses root), with trust authentication, fsync off, and
one database (`DATABASE`, owned by `USER`). The Swift tests' PostgresCluster does the same."""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile

USER = "hostapp"
DATABASE = "hostapp"


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    def __init__(self, max_connections=100):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[-3]))
        if not found:
            raise RuntimeError("PostgreSQL's server is not installed (make setup installs Debian's postgresql)")
        self.binaries = os.path.dirname(found[-1])
        self.folder = tempfile.mkdtemp(prefix="postgres-")
        self.user = None
        if os.getuid() == 0:
            self.user = next((name for name in ("postgres", "nobody") if self._has_user(name)), "nobody")
            shutil.chown(self.folder, user=self.user)
        self._run("initdb", "-D", self.folder + "/data", "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        # A port picked free can be taken before the server binds it: then another is tried.
        for attempt in range(5):
            self.port = _free_port()
            started = self._run("pg_ctl", "-D", self.folder + "/data", "-l", self.folder + "/server.log", "-w", "-t", "60",
                                "-o", "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=%d" % (self.port, self.folder, max_connections),
                                "start",
                                check=attempt == 4)
            if started:
                break
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, DATABASE)

    @staticmethod
    def _has_user(name):
        try:
            pwd.getpwnam(name)
            return True
        except KeyError:
            return False

    @property
    def address(self):
        """host:port of the server on loopback."""
        return "127.0.0.1:%d" % self.port

    @property
    def url(self):
        """The address of its database as its user, for `hostapp serve --database`."""
        return "postgres://%s@%s/%s" % (USER, self.address, DATABASE)

    def psql(self, *arguments):
        """The words of a psql command on its database, stopping at the first error."""
        return [os.path.join(self.binaries, "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", DATABASE, "-X", "-q",
                "-v", "ON_ERROR_STOP=1", *arguments]

    def query(self, sql):
        """What `sql` answers, one row a line, its columns separated by |."""
        return subprocess.run(self.psql("-A", "-t", "-c", sql), check=True, capture_output=True, text=True, timeout=60).stdout.strip()

    def _run(self, program, *arguments, check=True):
        words = ([ "/usr/sbin/runuser", "-u", self.user, "--"] if self.user else []) + [os.path.join(self.binaries, program), *arguments]
        # Not waiting on the output's pipe: the server pg_ctl leaves running would hold it open.
        with open(os.path.join(self.folder, program + ".out"), "w") as output:
            status = subprocess.call(words, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, cwd="/")
        if status != 0 and check:
            with open(os.path.join(self.folder, program + ".out")) as said:
                raise RuntimeError("PostgreSQL's %s failed (%d): %s" % (program, status, said.read()[-2000:]))
        return status == 0

    def stop(self):
        """Stops the server (fast shutdown); the folder stays until remove()."""
        self._run("pg_ctl", "-D", self.folder + "/data", "-m", "fast", "-w", "stop", check=False)

    def remove(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
