"""Schemathesis hooks for this API (loaded through SCHEMATHESIS_HOOKS by run_schemathesis.py):
an upload's body (`application/pdf`) goes as the bytes generated, as the built-in binary
serializer sends `application/octet-stream`."""
import schemathesis

schemathesis.serializer.alias("application/pdf", "application/octet-stream")
