"""The one PDF writer of the hand-made fixtures in make-fixtures.sh: the header, each
object, a classic cross-reference table and the trailer, byte for byte as written here."""


def pdf_file(objects, version=b"1.7", trailer=b""):
    """The bytes of a PDF whose object n is objects[n]: a dict by number (numbers it lacks
    are free), or a list, from 1. `trailer` follows /Size and /Root 1 0 R in the trailer.
    Returns the bytes and the offset of the cross-reference table."""
    if isinstance(objects, list):
        objects = dict(enumerate(objects, 1))
    size = max(objects) + 1
    out = bytearray(b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        out += b"%010d 00000 n \n" % offsets[number] if number in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R" % size + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return out, xref
