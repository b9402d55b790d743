"""Container structure for the `video` kind of scripts/mutate-run: the
boxes of an ISO BMFF file (.mp4, .mov), the elements of a Matroska file
(.mkv, .webm) and the chunks of a RIFF file (.avi), as flat lists of
Nodes, and the edits that keep every enclosing size right (splice).

Only what the mutations need is parsed: where each node starts, where its
payload starts and ends, where its size field is and how it is written,
and which nodes enclose it.
"""
import struct

# ISO BMFF boxes that hold boxes. stsd holds sample entries after 8 bytes;
# a visual sample entry holds boxes (avcC, pasp, colr ...) after 78 bytes.
MP4_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"dinf", b"udta", b"mvex", b"moof",
                  b"traf", b"mfra", b"meta"}
# Matroska master elements (they hold elements), by ID.
MKV_MASTERS = {0x1A45DFA3, 0x18538067, 0x114D9B74, 0x4DBB, 0x1549A966, 0x1654AE6B, 0xAE, 0xE0, 0x55B0, 0x1F43B675,
               0xA0, 0x1C53BB6B, 0xBB, 0xB7, 0x1254C367, 0x7373, 0x63C0, 0x67C8, 0x75A1, 0xA6, 0x6D80, 0x6240,
               0x1043A770, 0x45B9, 0xB6, 0x1941A469, 0x61A7}


class Node:
    """One box, element or chunk: `name` (4 letters, or the element ID in
    hex), `start` (of its header), `data` (of its payload), `end`; its size
    field (`size_at`, `size_len`, `size_kind`: "be32", "be64", "vint",
    "le32" or None when it cannot be rewritten) and `parents`, outermost
    first. `path` names it with its parents, like moov/trak/tkhd."""

    def __init__(self, name, start, data, end, size_at, size_len, size_kind, parents):
        self.name, self.start, self.data, self.end = name, start, data, end
        self.size_at, self.size_len, self.size_kind = size_at, size_len, size_kind
        self.parents = parents
        self.path = "/".join([p.name for p in parents] + [name])


def parse(ext, data):
    """The nodes of data, a file of extension ext, in file order."""
    if ext in ("mp4", "mov", "m4v"):
        return mp4_nodes(data, 0, len(data), [])
    if ext in ("mkv", "webm"):
        return mkv_nodes(data, 0, len(data), [])
    if ext == "avi":
        return riff_nodes(data, 0, len(data), [])
    return []


def mp4_nodes(data, pos, end, parents):
    """The boxes between pos and end, and the boxes inside them."""
    out = []
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        header, size_kind, size_len = 8, "be32", 4
        if size == 1 and pos + 16 <= end:
            size, header, size_kind, size_len = struct.unpack(">Q", data[pos + 8:pos + 16])[0], 16, "be64", 8
        elif size == 0:
            size, size_kind = end - pos, None
        if size < header or pos + size > end:
            break
        name = kind.decode("latin-1")
        node = Node(name, pos, pos + header, pos + size, pos if size_len == 4 else pos + 8, size_len, size_kind,
                    parents)
        out.append(node)
        inner = parents + [node]
        if kind in MP4_CONTAINERS:
            first = node.data + (4 if kind == b"meta" else 0)
            out += mp4_nodes(data, first, node.end, inner)
        elif kind == b"stsd":
            out += mp4_nodes(data, node.data + 8, node.end, inner)
        elif parents and parents[-1].name == "stsd" and node.end - node.data > 78:
            out += mp4_nodes(data, node.data + 78, node.end, inner)
        pos = node.end
    return out


def read_vint(data, pos, keep_marker):
    """(value, length) of the EBML variable-length integer at pos; the
    value is None for the all-ones "unknown size"."""
    if pos >= len(data) or data[pos] == 0:
        return None, 0
    first = data[pos]
    length = 9 - first.bit_length()
    if pos + length > len(data):
        return None, 0
    value = first if keep_marker else first & (0xFF >> length)
    for b in data[pos + 1:pos + length]:
        value = value << 8 | b
    if not keep_marker and value == (1 << (7 * length)) - 1:
        return None, length
    return value, length


def vint(value, length):
    """value as an EBML size of exactly length bytes, or None when it does
    not fit."""
    if value >= (1 << (7 * length)) - 1:
        return None
    return (value | 1 << (7 * length)).to_bytes(length, "big")


def mkv_nodes(data, pos, end, parents):
    """The elements between pos and end, and the elements inside them."""
    out = []
    while pos < end:
        ident, id_len = read_vint(data, pos, True)
        if not id_len:
            break
        size, size_len = read_vint(data, pos + id_len, False)
        if not size_len:
            break
        start = pos + id_len + size_len
        stop = end if size is None else start + size
        if stop > end:
            break
        node = Node("%X" % ident, pos, start, stop, pos + id_len, size_len, "vint" if size is not None else None,
                    parents)
        out.append(node)
        if ident in MKV_MASTERS:
            out += mkv_nodes(data, start, stop, parents + [node])
        pos = stop
    return out


def riff_nodes(data, pos, end, parents):
    """The chunks between pos and end (RIFF and LIST chunks opened), each
    padded to an even length."""
    out = []
    while pos + 8 <= end:
        kind, size = struct.unpack("<4sI", data[pos:pos + 8])
        stop = pos + 8 + size
        if stop > end:
            break
        name = kind.decode("latin-1")
        if kind in (b"RIFF", b"LIST") and size >= 4:
            name = data[pos + 8:pos + 12].decode("latin-1")
        node = Node(name, pos, pos + 8, stop, pos + 4, 4, "le32", parents)
        out.append(node)
        if kind in (b"RIFF", b"LIST") and size >= 4:
            out += riff_nodes(data, pos + 12, stop, parents + [node])
        pos = stop + (size & 1)
    return out


def size_field(node, size):
    """The bytes of node's size field holding size: an EBML size grows
    longer when it must; None when the field cannot hold it, b"" when the
    node has none (it runs to its parent's end)."""
    if node.size_kind == "vint":
        return next((f for f in (vint(size, n) for n in range(node.size_len, 9)) if f), None)
    if node.size_kind == "be32":
        return struct.pack(">I", size) if size <= 0xFFFFFFFF else None
    if node.size_kind == "be64":
        return struct.pack(">Q", size)
    if node.size_kind == "le32":
        return struct.pack("<I", size) if size <= 0xFFFFFFFF else None
    return b""


def splice(data, node, start, end, new):
    """data with bytes start..end (inside node's payload, or the node
    itself with its parents' sizes alone fixed) replaced by new, every
    enclosing size changed to match; None when one cannot hold its new
    size."""
    delta = len(new) - (end - start)
    whole = start == node.start and end == node.end
    enclosing = node.parents if whole else node.parents + [node]
    # Innermost first: a size field that grows makes every outer node grow.
    edits = [(start, end, new)]
    for p in reversed(enclosing):
        # MP4 sizes count the header; Matroska and RIFF sizes do not.
        size = p.end - (p.start if p.size_kind in ("be32", "be64") else p.data)
        field = size_field(p, size + delta)
        if field is None:
            return None
        if field:
            edits.append((p.size_at, p.size_at + p.size_len, field))
            delta += len(field) - p.size_len
    # From the end of the file back, so that each edit's place still holds.
    out = bytearray(data)
    for a, b, text in edits:
        out[a:b] = text
    if node.size_kind in ("be32", "be64") and len(new) != end - start:
        shift_chunk_offsets(out, start, len(new) - (end - start))
    return bytes(out)


def shift_chunk_offsets(data, at, delta):
    """Moves every chunk offset (stco, co64) in the MP4 bytearray data that
    points past at by delta, so that an edit before the media data damages
    only what it meant to."""
    for node in mp4_nodes(data, 0, len(data), []):
        wide = node.name == "co64"
        if node.name not in ("stco", "co64") or node.end - node.data < 8:
            continue
        count = struct.unpack(">I", data[node.data + 4:node.data + 8])[0]
        step, fmt = (8, ">Q") if wide else (4, ">I")
        for i in range(min(count, (node.end - node.data - 8) // step)):
            pos = node.data + 8 + i * step
            offset = struct.unpack(fmt, data[pos:pos + step])[0]
            if offset >= at:
                data[pos:pos + step] = struct.pack(fmt, (offset + delta) % (1 << (8 * step)))
