"""Schemathesis hooks for this API (loaded through SCHEMATHESIS_HOOKS by run_schemathesis.py):
an upload's body (`application/pdf`, or an HTML page: `text/html`, `application/xhtml+xml`)
goes as the bytes generated, as the built-in binary serializer sends
`application/octet-stream` (without the aliases, an HTML body generated as bytes was sent
empty)."""
import schemathesis

for media_type in ("application/pdf", "text/html", "application/xhtml+xml"):
    schemathesis.serializer.alias(media_type, "application/octet-stream")
