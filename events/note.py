"""Checkpoints of the public log of games as C2SP signed notes, and witnesses' cosignatures.

- A **signed note** (c2sp.org/signed-note): a text of newline-terminated lines, a blank
  line, then one or more signature lines `— <key name> base64(key ID || signature)`. The
  key ID is `SHA-256(key name || 0x0A || signature type || public key)[:4]`; type 0x01 is
  an Ed25519 signature over the text.
- A **checkpoint** (c2sp.org/tlog-checkpoint): a note whose text is the log's origin, its
  tree size in decimal and its RFC 6962 root hash in base64, one per line.
- A **cosignature** (c2sp.org/tlog-cosignature, `cosignature/v1`): a witness's signature
  line of type 0x04 whose signature is an 8-byte big-endian POSIX timestamp followed by an
  Ed25519 signature over `cosignature/v1\\ntime <timestamp>\\n` and the checkpoint's text.

Written here by hand from the three specifications: no maintained Python implementation
exists for our Python (docs/audit.md, "Checkpoints and witnesses", says which we looked
at). The signing is the `cryptography` package's Ed25519; tests/events/test_note.py holds
this module to the reference vectors of Go's golang.org/x/mod/sumdb/note.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from events import signature

ED25519, COSIGNATURE = 0x01, 0x04
DASH = "\u2014 "
MAX_SIGNATURES = 100  # per note (the spec asks verifiers to accept at least 16)
COSIGNED = "cosignature/v1"
_NAME = re.compile(r"[^\s+]+")
_SIZE = re.compile(r"0|[1-9][0-9]{0,19}")


class NoteError(ValueError):
    """Text that is not a signed note, a checkpoint or a key in the C2SP formats."""


@dataclass(frozen=True)
class Line:
    """A signature line: the key's name, its 4-byte ID and the signature bytes."""

    name: str
    key_id: bytes
    sig: bytes

    def text(self) -> str:
        return f"{DASH}{self.name} {_b64(self.key_id + self.sig)}\n"


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes

    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{_b64(self.root)}\n"


@dataclass(frozen=True)
class Verifier:
    """A public key as a C2SP verifier key (`vkey`): `<name>+<key ID hex>+base64(type ||
    public key)`."""

    name: str
    kind: int
    public: Ed25519PublicKey

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.kind, signature.raw(self.public))

    def text(self) -> str:
        raw = bytes([self.kind]) + signature.raw(self.public)
        return f"{self.name}+{self.key_id.hex()}+{_b64(raw)}"


def key_id(name: str, kind: int, public_raw: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public_raw).digest()[:4]


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise NoteError(f"a key name must be non-empty, without spaces or '+': {name!r}")
    return name


def parse_vkey(text: str) -> Verifier:
    """A verifier key, checked: its name, its type (Ed25519 or cosignature) and its ID."""
    parts = text.strip().split("+", 2)
    if len(parts) != 3:
        raise NoteError(f"not a verifier key <name>+<key id>+<key>: {text.strip()[:60]!r}")
    name, hex_id, material = parts
    check_name(name)
    raw = _unb64(material, "the verifier key")
    if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
        raise NoteError("a verifier key must be type 0x01 or 0x04 and a 32-byte Ed25519 key")
    public = Ed25519PublicKey.from_public_bytes(raw[1:])
    found = Verifier(name, raw[0], public)
    if hex_id.lower() != found.key_id.hex() or len(hex_id) != 8:
        raise NoteError(f"the verifier key of {name} names key ID {hex_id}, not its own")
    return found


def signer_text(name: str, kind: int, key: Ed25519PrivateKey) -> str:
    """A private key as Go's note package writes it: `PRIVATE+KEY+<name>+<id>+base64(type
    || seed)`."""
    seed = key.private_bytes_raw()
    ident = key_id(check_name(name), kind, signature.raw(key.public_key())).hex()
    return f"PRIVATE+KEY+{name}+{ident}+{_b64(bytes([kind]) + seed)}"


def parse_signer(text: str) -> tuple[str, int, Ed25519PrivateKey]:
    parts = text.strip().split("+", 4)
    if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise NoteError("not a private key PRIVATE+KEY+<name>+<key id>+<key>")
    name, hex_id = check_name(parts[2]), parts[3]
    raw = _unb64(parts[4], "the private key")
    if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
        raise NoteError("a private key must be type 0x01 or 0x04 and a 32-byte Ed25519 seed")
    key = Ed25519PrivateKey.from_private_bytes(raw[1:])
    if key_id(name, raw[0], signature.raw(key.public_key())).hex() != hex_id.lower():
        raise NoteError(f"the private key of {name} names key ID {hex_id}, not its own")
    return name, raw[0], key


def sign(text: str, name: str, key: Ed25519PrivateKey) -> Line:
    """An Ed25519 note signature (type 0x01) over `text`."""
    _check_text(text)
    ident = key_id(check_name(name), ED25519, signature.raw(key.public_key()))
    return Line(name, ident, key.sign(text.encode()))


def cosign(text: str, name: str, key: Ed25519PrivateKey, timestamp: int) -> Line:
    """A `cosignature/v1` line (type 0x04) over a checkpoint's text, dated `timestamp`."""
    parse_checkpoint(text)
    ident = key_id(check_name(name), COSIGNATURE, signature.raw(key.public_key()))
    stamp = timestamp.to_bytes(8, "big")
    return Line(name, ident, stamp + key.sign(cosigned_message(text, timestamp)))


def cosigned_message(text: str, timestamp: int) -> bytes:
    if not 0 <= timestamp < 2**63:
        raise NoteError("a cosignature's timestamp must lie in [0, 2^63)")
    return f"{COSIGNED}\ntime {timestamp}\n{text}".encode()


def verifies(text: str, line: Line, key: Verifier) -> bool:
    """Whether `line` is `key`'s valid signature (or cosignature) on `text`."""
    if (line.name, line.key_id) != (key.name, key.key_id):
        return False
    message, sig = text.encode(), line.sig
    if key.kind == COSIGNATURE:
        if len(sig) != 72:
            return False
        message, sig = cosigned_message(text, int.from_bytes(sig[:8], "big")), sig[8:]
    try:
        key.public.verify(sig, message)
        return True
    except (InvalidSignature, NoteError):
        return False


def timestamp(line: Line) -> int:
    """The time a cosignature line states (POSIX seconds)."""
    return int.from_bytes(line.sig[:8], "big")


def note(text: str, lines: list[Line]) -> str:
    _check_text(text)
    return text + "\n" + "".join(line.text() for line in lines)


def split(data: str | bytes) -> tuple[str, list[Line]]:
    """A signed note's text and its signature lines; NoteError if it is not one."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise NoteError("a signed note must be UTF-8") from e
    _no_controls(data)
    cut = data.rfind("\n\n")
    if cut < 0 or not data.endswith("\n"):
        raise NoteError("a signed note is its text, a blank line, then signature lines")
    text, rest = data[: cut + 1], data[cut + 2 :]
    lines = []
    for raw in rest.split("\n")[:-1]:
        if not raw.startswith(DASH) or raw.count(" ") != 2:
            raise NoteError(f"not a signature line: {raw[:60]!r}")
        name, blob = raw[len(DASH) :].split(" ")
        sig = _unb64(blob, f"the signature of {check_name(name)}")
        if len(sig) < 5:
            raise NoteError(f"the signature of {name} is too short")
        lines.append(Line(name, sig[:4], sig[4:]))
    if not lines or len(lines) > MAX_SIGNATURES:
        raise NoteError(f"a signed note carries 1 to {MAX_SIGNATURES} signature lines")
    return text, lines


def parse_checkpoint(text: str) -> Checkpoint:
    """A checkpoint's origin, size and root from its text (NoteError if it is not one)."""
    _check_text(text)
    lines = text[:-1].split("\n")
    if len(lines) < 3 or any(not x for x in lines):
        raise NoteError("a checkpoint is at least 3 non-empty lines: origin, size, root hash")
    origin, size, root = lines[:3]
    if not _SIZE.fullmatch(size) or int(size) >= 2**63:
        raise NoteError(f"a checkpoint's tree size must be decimal without leading zeros: {size!r}")
    raw = _unb64(root, "the checkpoint's root hash")
    if len(raw) != 32:
        raise NoteError("a checkpoint's root hash must be 32 bytes")
    return Checkpoint(origin, int(size), raw)


def _check_text(text: str) -> None:
    if not text or not text.endswith("\n") or "\n\n" in text:
        raise NoteError("a note's text is one or more non-empty lines, each ending in a newline")
    _no_controls(text)


def _no_controls(data: str) -> None:
    if any(c < " " and c != "\n" for c in data):
        raise NoteError("a signed note holds no control characters but newlines")


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _unb64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as e:
        raise NoteError(f"{what} is not standard base64") from e
