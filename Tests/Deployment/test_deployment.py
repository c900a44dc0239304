"""The deployment (Deployment/Containerfile, Deployment/kubernetes, examples/kubernetes),
checked on this machine without a container engine or a cluster:

- every manifest is valid Kubernetes (kubernetes-validate, strict: an unknown field fails);
- the manifests name each other rightly (selectors, ports, the ConfigMap's and the Secret's
  keys, the autoscaler's target and metric, the grace periods, the page cache's address and
  the policy that lets only the replicas reach it, the documents' and uploads' folders);
- the pod's container runs as the manifests say: its arguments and environment, with the
  ConfigMap's and the Secret's files and its volumes made in a temporary folder, on the
  image's entrypoint (the hostapp the tests built), against a throwaway PostgreSQL; its
  probes' own commands pass, fail with another token, and the readiness probe fails once the
  database is gone; SIGTERM ends it within its grace; the Secret as shipped is refused;
- the Containerfile passes hadolint, builds with make install (which installs only the build's
  packages), installs what Scripts/runtime-packages.sh names (held against the executables'
  libraries) and runs as the Deployment's user on the Deployment's port.

Usage: test_deployment.py BIN_DIR [unittest arguments], BIN_DIR holding hostapp and
hostapp-full.
"""

import glob
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from postgres_server import PostgresServer  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MANIFESTS = os.path.join(ROOT, "Deployment", "kubernetes")
CONTAINERFILE = os.path.join(ROOT, "Deployment", "Containerfile")
BIN = None


def manifests():
    """Every object of Deployment/kubernetes, by kind."""
    objects = {}
    for path in sorted(glob.glob(os.path.join(MANIFESTS, "*.yaml"))):
        with open(path) as f:
            for document in yaml.safe_load_all(f):
                objects.setdefault(document["kind"], []).append(document)
    return objects


def only(objects, kind, name=None):
    """The one object of `kind` (named `name`, when given)."""
    found = [item for item in objects.get(kind, []) if name is None or item["metadata"]["name"] == name]
    assert len(found) == 1, "one %s %s expected, found %d" % (kind, name or "", len(found))
    return found[0]


def containerfile_instructions(text):
    """(instruction, arguments) of each line of a Containerfile, continuations joined and
    comments left out."""
    instructions, pending = [], ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, arguments = whole.partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
    return instructions


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ManifestTests(unittest.TestCase):
    def test_every_manifest_is_valid_kubernetes(self):
        files = sorted(glob.glob(os.path.join(MANIFESTS, "*.yaml")) + glob.glob(os.path.join(ROOT, "examples", "kubernetes", "*.yaml")))
        self.assertGreaterEqual(len(files), 7)
        result = subprocess.run(["kubernetes-validate", "--strict", "--quiet", *files], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        # The validator reads the fields: one misspelled is refused.
        with tempfile.TemporaryDirectory() as folder:
            wrong = os.path.join(folder, "deployment.yaml")
            with open(os.path.join(MANIFESTS, "deployment.yaml")) as f:
                text = f.read()
            self.assertIn("containerPort:", text)
            with open(wrong, "w") as f:
                f.write(text.replace("containerPort:", "containerPorts:"))
            result = subprocess.run(["kubernetes-validate", "--strict", "--quiet", wrong], capture_output=True, text=True)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("'containerPort' is a required property", result.stdout + result.stderr)

    def test_the_parts_name_each_other(self):
        objects = manifests()
        deployment, service = only(objects, "Deployment", "hostapp"), only(objects, "Service", "hostapp")
        budget, autoscaler = only(objects, "PodDisruptionBudget"), only(objects, "HorizontalPodAutoscaler")
        config, secret, claim = only(objects, "ConfigMap"), only(objects, "Secret"), only(objects, "PersistentVolumeClaim")
        pod = deployment["spec"]["template"]
        labels = pod["metadata"]["labels"]
        self.assertEqual(deployment["spec"]["selector"]["matchLabels"], labels)
        for selector in (service["spec"]["selector"], budget["spec"]["selector"]["matchLabels"]):
            self.assertTrue(selector.items() <= labels.items(), selector)
        (container,) = pod["spec"]["containers"]
        ports = {port["name"]: port["containerPort"] for port in container["ports"]}
        args = container["args"]
        self.assertEqual(args[0], "serve")
        self.assertEqual(ports[service["spec"]["ports"][0]["targetPort"]], int(args[args.index("--port") + 1]))
        for probe in ("readinessProbe", "livenessProbe"):
            self.assertIn("127.0.0.1:%d/api/" % ports["http"], container[probe]["exec"]["command"][-1])
        target = autoscaler["spec"]["scaleTargetRef"]
        self.assertEqual((target["kind"], target["name"]), ("Deployment", deployment["metadata"]["name"]))
        self.assertGreaterEqual(autoscaler["spec"]["minReplicas"], budget["spec"]["maxUnavailable"] + 2)
        # Every key the pod reads is in the ConfigMap or the Secret it names.
        for variable in container["env"]:
            source = variable["valueFrom"]
            if "configMapKeyRef" in source:
                self.assertEqual(source["configMapKeyRef"]["name"], config["metadata"]["name"])
                self.assertIn(source["configMapKeyRef"]["key"], config["data"])
            else:
                self.assertEqual(source["secretKeyRef"]["name"], secret["metadata"]["name"])
                self.assertIn(source["secretKeyRef"]["key"], secret["stringData"])
        volumes = {volume["name"]: volume for volume in pod["spec"]["volumes"]}
        self.assertEqual(volumes["config"]["configMap"]["name"], config["metadata"]["name"])
        self.assertEqual(volumes["secret"]["secret"]["secretName"], secret["metadata"]["name"])
        self.assertEqual(volumes["documents"]["persistentVolumeClaim"]["claimName"], claim["metadata"]["name"])
        self.assertIn("ReadWriteMany", claim["spec"]["accessModes"])
        for volume in ("config", "secret"):
            kind = "configMap" if volume == "config" else "secret"
            store = config["data"] if volume == "config" else secret["stringData"]
            for item in volumes[volume][kind]["items"]:
                self.assertIn(item["key"], store)
        # Every file the arguments name is under a mount; each mount is one of the pod's volumes.
        mounts = [mount["mountPath"] for mount in container["volumeMounts"]]
        self.assertEqual({mount["name"] for mount in container["volumeMounts"]}, set(volumes))
        for argument in args:
            if argument.startswith("/"):
                self.assertTrue(any(argument == mount or argument.startswith(mount + "/") for mount in mounts), argument)
        # The server's own grace and the preStop pause end before Kubernetes kills the pod.
        grace = int(args[args.index("--shutdown-grace") + 1])
        pause = container["lifecycle"]["preStop"]["sleep"]["seconds"]
        self.assertLess(grace + pause, pod["spec"]["terminationGracePeriodSeconds"])
        # The page cache: its Service selects its pods, the replicas are told its address, and
        # only they may reach it.
        cache, cache_service = only(objects, "Deployment", "hostapp-page-cache"), only(objects, "Service", "hostapp-page-cache")
        cache_labels = cache["spec"]["template"]["metadata"]["labels"]
        self.assertTrue(cache_service["spec"]["selector"].items() <= cache_labels.items())
        self.assertFalse(service["spec"]["selector"].items() <= cache_labels.items(), "the replicas' Service would select the cache")
        (memcached,) = cache["spec"]["template"]["spec"]["containers"]
        self.assertEqual(config["data"]["shared-cache"], "%s:%d" % (cache_service["metadata"]["name"], cache_service["spec"]["ports"][0]["port"]))
        self.assertIn("$(HOSTAPP_SHARED_CACHE)", args[args.index("--shared-cache") + 1])
        self.assertEqual(memcached["ports"][0]["containerPort"], int(memcached["args"][memcached["args"].index("-p") + 1]))
        policy = only(objects, "NetworkPolicy", "hostapp-page-cache")
        self.assertEqual(policy["spec"]["podSelector"]["matchLabels"], cache_labels)
        self.assertEqual(policy["spec"]["ingress"][0]["from"][0]["podSelector"]["matchLabels"], labels)
        # Documents and uploads are two folders of the one shared volume.
        shared = {mount["mountPath"]: mount.get("subPath") for mount in container["volumeMounts"] if mount["name"] == "documents"}
        self.assertEqual(shared, {args[-1]: "documents", args[args.index("--upload-folder") + 1]: "uploads"})
        # The Secret as shipped holds no value to be used as it is.
        self.assertEqual(set(secret["stringData"].values()), {""})


class PodTests(unittest.TestCase):
    """The Deployment's container run as Kubernetes would run it, with the image's entrypoint
    being the hostapp the tests built."""

    @classmethod
    def setUpClass(cls):
        cls.objects = manifests()
        cls.deployment = only(cls.objects, "Deployment", "hostapp")
        cls.pod = cls.deployment["spec"]["template"]["spec"]
        (cls.container,) = cls.pod["containers"]
        with open(CONTAINERFILE) as f:
            entrypoint = next(json.loads(arguments) for keyword, arguments in containerfile_instructions(f.read()) if keyword == "ENTRYPOINT")
        cls.entrypoint = [os.path.join(BIN, entrypoint[0]), *entrypoint[1:]]
        cls.postgres = PostgresServer()
        cls.folder = tempfile.mkdtemp(prefix="pod-")

    @classmethod
    def tearDownClass(cls):
        cls.postgres.remove()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def make_pod(self, secret_values):
        """The container's files, arguments and environment in a folder of its own: the
        ConfigMap's database pointed at the throwaway cluster (its user and database kept), the
        Secret holding `secret_values`, the documents' volume holding the sample, a free port on
        loopback. Returns (command, environment, probes, folder)."""
        config = dict(only(self.objects, "ConfigMap")["data"])
        shipped = urllib.parse.urlsplit(config["database"])
        config["database"] = urllib.parse.urlunsplit(shipped._replace(netloc="%s@%s" % (shipped.username, self.postgres.address)))
        # No page cache runs here: a free port, where every lookup is a miss at once.
        config["shared-cache"] = "127.0.0.1:%d" % free_port()
        root = tempfile.mkdtemp(dir=self.folder)
        volumes = {volume["name"]: volume for volume in self.pod["volumes"]}
        places = {}
        for mount in self.container["volumeMounts"]:
            place = os.path.join(root, mount["name"], mount.get("subPath", ""))
            os.makedirs(place)
            places[mount["mountPath"]] = place
            volume = volumes[mount["name"]]
            if "configMap" in volume or "secret" in volume:
                source = config if "configMap" in volume else secret_values
                for item in (volume.get("configMap") or volume.get("secret"))["items"]:
                    with open(os.path.join(place, item["path"]), "w") as f:
                        f.write(source[item["key"]])
            elif "persistentVolumeClaim" in volume and mount["mountPath"] == self.container["args"][-1]:
                shutil.copy(os.path.join(ROOT, "Samples", "sample.pdf"), place)
        port = free_port()
        environment = {}
        for variable in self.container["env"]:
            source = variable["valueFrom"]
            environment[variable["name"]] = (config[source["configMapKeyRef"]["key"]] if "configMapKeyRef" in source
                                             else secret_values[source["secretKeyRef"]["key"]])

        def localize(word):
            # $(NAME) is Kubernetes' expansion of the container's variables in its arguments.
            word = re.sub(r"\$\((\w+)\)", lambda match: environment[match.group(1)], word)
            mounts = "|".join(re.escape(mount) for mount in sorted(places, key=len, reverse=True))
            word = re.sub(r"(%s)(?=/|$|\s|\")" % mounts, lambda match: places[match.group(1)], word)
            return word.replace("127.0.0.1:%d" % self.container["ports"][0]["containerPort"], "127.0.0.1:%d" % port)

        args = [localize(word) for word in self.container["args"]]
        args[args.index("--port") + 1] = str(port)
        args[args.index("--host") + 1] = "127.0.0.1"  # a test listens on loopback only
        probes = {name: [localize(word) for word in self.container[name]["exec"]["command"]] for name in ("readinessProbe", "livenessProbe")}
        environment = {**os.environ, **environment, "HOME": places["/var/lib/hostapp"], "TMPDIR": places["/tmp"]}
        return self.entrypoint + args, environment, probes, port

    def secret_values(self):
        key = subprocess.run("openssl ecparam -name prime256v1 -genkey -noout | openssl ec -pubout 2>/dev/null",
                             shell=True, capture_output=True, text=True, check=True).stdout
        return {"token": secrets.token_urlsafe(24), "collab-key.pem": key, "database-password": "unused with trust"}

    def run_probe(self, command):
        return subprocess.run(command, capture_output=True, text=True, timeout=30).returncode

    def test_the_container_serves_and_its_probes_pass(self):
        values = self.secret_values()
        command, environment, probes, port = self.make_pod(values)
        server = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            # The first line is the server's address: it listens from then on.
            first = server.stdout.readline()
            self.assertIn("127.0.0.1:%d" % port, first, server.stderr.read() if server.poll() is not None else "")
            self.assertEqual(self.run_probe(probes["readinessProbe"]), 0)
            self.assertEqual(self.run_probe(probes["livenessProbe"]), 0)
            # The probes carry the token: with another in the Secret's file they fail.
            token_file = next(word for word in command if word.endswith("/token"))
            with open(token_file, "w") as f:
                f.write(secrets.token_urlsafe(24))
            self.assertNotEqual(self.run_probe(probes["readinessProbe"]), 0)
            self.assertNotEqual(self.run_probe(probes["livenessProbe"]), 0)
            with open(token_file, "w") as f:
                f.write(values["token"])
            # The metric the autoscaler follows is one the server exposes.
            metric = only(self.objects, "HorizontalPodAutoscaler")["spec"]["metrics"][0]["pods"]["metric"]["name"]
            request = urllib.request.Request("http://127.0.0.1:%d/api/metrics" % port, headers={"Authorization": "Bearer " + values["token"]})
            with urllib.request.urlopen(request, timeout=30) as answer:
                self.assertRegex(answer.read().decode(), r"(?m)^%s \d" % metric)
            # The database the ConfigMap names gone, the replica is not ready, and still alive.
            self.postgres.stop()
            self.assertNotEqual(self.run_probe(probes["readinessProbe"]), 0)
            self.assertEqual(self.run_probe(probes["livenessProbe"]), 0)
            # SIGTERM (after the preStop pause) ends it, within the pod's grace.
            grace = self.pod["terminationGracePeriodSeconds"] - self.container["lifecycle"]["preStop"]["sleep"]["seconds"]
            server.send_signal(signal.SIGTERM)
            self.assertEqual(server.wait(timeout=grace), 0, server.stderr.read())
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
            server.stdout.close()
            server.stderr.close()

    def test_the_secret_as_shipped_is_refused(self):
        shipped = only(self.objects, "Secret")["stringData"]
        command, environment, _, _ = self.make_pod(dict(shipped, **{"collab-key.pem": self.secret_values()["collab-key.pem"]}))
        result = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 64, result.stderr)
        self.assertIn("must be at least 16 printable ASCII characters", result.stderr)


class ContainerfileTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(CONTAINERFILE) as f:
            cls.text = f.read()
        cls.instructions = containerfile_instructions(cls.text)
        stages, current = [], None
        for keyword, arguments in cls.instructions:
            if keyword == "FROM":
                current = []
                stages.append((arguments, current))
            elif current is not None:
                current.append((keyword, arguments))
        cls.stages = stages

    def test_hadolint_passes_and_reads_the_file(self):
        result = subprocess.run(["hadolint", CONTAINERFILE], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        # The same file run as root is found (DL3002).
        with tempfile.NamedTemporaryFile("w", suffix="Containerfile") as worse:
            self.assertIn("\nUSER 10001:10001\n", self.text)
            worse.write(self.text.replace("\nUSER 10001:10001\n", "\nUSER root\n"))
            worse.flush()
            result = subprocess.run(["hadolint", worse.name], capture_output=True, text=True)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("DL3002", result.stdout)

    def test_it_builds_on_debian_12_with_make_install(self):
        (build_from, build), (run_from, run) = self.stages
        default = dict(arguments.split("=", 1) for keyword, arguments in self.instructions if keyword == "ARG")
        image = re.sub(r"\$\{(\w+)\}", lambda match: default[match.group(1)], build_from.split()[0])
        self.assertRegex(image, r"^docker\.io/library/swift:[\d.]+-bookworm$")
        self.assertEqual(build_from.split()[-1], "build")
        self.assertEqual(run_from, "docker.io/library/debian:bookworm-slim")
        (command,) = [arguments for keyword, arguments in build if keyword == "RUN"]
        prefix = re.search(r"make install PREFIX=(\S+)", command).group(1)
        self.assertIn("Scripts/runtime-packages.sh %s/bin/hostapp %s/bin/hostapp-full" % (prefix, prefix), command)
        # make install installs what the build links, not what the tests use.
        plan = subprocess.run(["make", "-n", "install", "PREFIX=" + tempfile.gettempdir()], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(plan.returncode, 0, plan.stderr)
        self.assertIn("libmupdf-dev", plan.stdout)
        for package in ("chromium", "postgresql", "libreoffice-core-nogui", "r-doc-pdf"):
            self.assertNotRegex(plan.stdout, r"\b%s\b" % re.escape(package))

    def test_it_installs_what_the_executables_load_and_runs_as_the_pod_does(self):
        (_, build), (_, run) = self.stages
        copies = [arguments for keyword, arguments in run if keyword == "COPY"]
        self.assertTrue(any(copy.startswith("--from=build") and copy.endswith("/runtime-packages /tmp/runtime-packages") for copy in copies))
        self.assertTrue(any(copy.startswith("--from=build") and "/bin/hostapp " in copy and "/bin/hostapp-full " in copy for copy in copies))
        (install,) = [arguments for keyword, arguments in run if keyword == "RUN"]
        self.assertIn("xargs --arg-file=/tmp/runtime-packages apt-get install -y --no-install-recommends", install)
        extra = install.split("--no-install-recommends", 1)[1].split("&&")[0].split()
        self.assertIn("libtesseract5", extra)
        shown = subprocess.run(["apt-cache", "show", "--no-all-versions", *extra], capture_output=True, text=True)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertEqual(set(re.findall(r"(?m)^Package: (\S+)$", shown.stdout)), set(extra))
        # The pod's user and port are the image's.
        pod = only(manifests(), "Deployment", "hostapp")["spec"]["template"]["spec"]
        user = next(arguments for keyword, arguments in run if keyword == "USER")
        self.assertEqual(user, "%d:%d" % (pod["securityContext"]["runAsUser"], pod["securityContext"]["runAsGroup"]))
        self.assertIn("--uid %d " % pod["securityContext"]["runAsUser"], install)
        self.assertEqual(next(arguments for keyword, arguments in run if keyword == "EXPOSE"), str(pod["containers"][0]["ports"][0]["containerPort"]))

    def test_runtime_packages_names_the_package_of_every_library_loaded(self):
        executables = [os.path.join(BIN, name) for name in ("hostapp", "hostapp-full")]
        # The tests' build loads the Swift runtime from the toolchain (the shipped build links it
        # in): set aside here, and refused when not set aside.
        swift_runtime = None
        for line in subprocess.run(["ldd", executables[0]], capture_output=True, text=True, check=True).stdout.splitlines():
            if "libswiftCore.so" in line:
                swift_runtime = os.path.dirname(line.split("=>")[1].split()[0])
        script = os.path.join(ROOT, "Scripts", "runtime-packages.sh")
        if swift_runtime:
            refused = subprocess.run(["bash", script, *executables], capture_output=True, text=True)
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn("libswiftCore.so is loaded, and no installed package holds it", refused.stderr)
        result = subprocess.run(["bash", script, *(["--except", swift_runtime] if swift_runtime else []), *executables],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        packages = result.stdout.split()
        self.assertIn("libgs10", packages)
        self.assertIn("libpoppler126", packages)
        # Witness: every library the loader resolves for each executable's own NEEDED entries is
        # a file one of those packages installs (dpkg -L).
        files = set()
        for package in packages:
            listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True, check=True).stdout.split()
            files.update(os.path.realpath(path) for path in listed)
        for executable in executables:
            needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]",
                                subprocess.run(["readelf", "-d", executable], capture_output=True, text=True, check=True).stdout)
            self.assertGreater(len(needed), 5)
            loaded = {}
            for line in subprocess.run(["ldd", executable], capture_output=True, text=True, check=True).stdout.splitlines():
                words = line.split()
                if "=>" in words:
                    loaded[words[0]] = words[2]
                elif words and words[0].startswith("/"):
                    loaded[os.path.basename(words[0])] = words[0]
            for library in needed:
                path = os.path.realpath(loaded[library])
                if swift_runtime and path.startswith(os.path.realpath(swift_runtime)):
                    continue
                self.assertIn(path, files, "%s of %s is in none of %s" % (library, executable, packages))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
