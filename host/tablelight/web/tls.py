"""HTTPS for the table's pages, so that nobody else on the network reads a seat's token or page.

On a shared Wi-Fi another player can watch plain HTTP go by: the join links carry seat tokens
and the seat pages carry hands. ``--https`` serves the pages over TLS:

- with ``--https-cert FILE --https-key FILE``: the owner's own certificate (for example one made
  by mkcert, whose root the phones already trust);
- with ``--https`` alone: a self-signed certificate made here once for this machine's addresses
  and kept beside the game store (its key readable only by the owner). Phones warn the first
  time; the shared screen prints the certificate's SHA-256 fingerprint so a player can check it
  in the warning before going on. The same certificate is used again while it covers the
  addresses served and has not expired, so a phone that accepted it once keeps working.
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

from tablelight.core.errors import SetupError

SELF_SIGNED_DAYS = 365
#: Made again this long before it expires, so a game never starts on a certificate about to lapse.
RENEW_BEFORE = datetime.timedelta(days=7)
CERT_NAME = "tablelight-cert.pem"
KEY_NAME = "tablelight-key.pem"


@dataclass(frozen=True)
class TlsFiles:
    """A certificate chain and its private key, both PEM files, as uvicorn takes them."""

    cert: Path
    key: Path

    def check(self) -> None:
        """Refuse files that are missing or do not form a certificate and its key, naming which."""
        for what, path in (("certificate", self.cert), ("key", self.key)):
            if not path.is_file():
                raise SetupError(f"--https: the {what} file {path} does not exist")
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(self.cert, self.key)
        except (ssl.SSLError, ValueError) as error:
            raise SetupError(f"--https: {self.cert} and {self.key} are not a PEM certificate and its key ({error})") from None

    @property
    def fingerprint(self) -> str:
        """The certificate's SHA-256 fingerprint as browsers show it (``AB:CD:...``)."""
        der = ssl.PEM_cert_to_DER_cert(self.cert.read_text(encoding="ascii"))
        return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def self_signed(directory: Path, addresses: list[str]) -> TlsFiles:
    """The self-signed certificate kept in ``directory`` for ``addresses``, made when none fits."""
    files = TlsFiles(directory / CERT_NAME, directory / KEY_NAME)
    if not covers(files, addresses):
        make_self_signed(files, addresses)
    return files


def covers(files: TlsFiles, addresses: list[str]) -> bool:
    """Whether the kept certificate exists, names every address and is not about to expire."""
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
        files.check()
    except (OSError, ValueError, SetupError):
        return False
    try:
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    named = {str(ip) for ip in names.get_values_for_type(x509.IPAddress)}
    fresh = cert.not_valid_after_utc - RENEW_BEFORE > datetime.datetime.now(datetime.timezone.utc)
    return fresh and set(addresses) <= named


def make_self_signed(files: TlsFiles, addresses: list[str]) -> None:
    """Write a new key (mode 0600) and a certificate for ``addresses`` and ``localhost``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tablelight table")])
    now = datetime.datetime.now(datetime.timezone.utc)
    alternative = [x509.DNSName("localhost")] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=SELF_SIGNED_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    files.key.parent.mkdir(parents=True, exist_ok=True)
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    descriptor = os.open(files.key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        os.fchmod(out.fileno(), 0o600)  # an existing file keeps its mode through O_CREAT: set it
        out.write(key_pem)
    files.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


@dataclass(frozen=True)
class HttpsChoice:
    """What ``--https``, ``--https-cert`` and ``--https-key`` asked for, resolved once the addresses are known."""

    own: TlsFiles | None = None
    #: Where the self-signed certificate is kept (``--https`` without files).
    self_signed_in: Path | None = None

    @classmethod
    def from_options(cls, https: bool, cert: str | None, key: str | None, directory: Path) -> HttpsChoice | None:
        """None for plain HTTP; refuses a certificate without its key (or the other way round)."""
        if (cert is None) != (key is None):
            raise SetupError("--https-cert and --https-key go together: give both files, or neither (then --https makes a certificate)")
        if cert is not None and key is not None:
            own = TlsFiles(Path(cert).expanduser(), Path(key).expanduser())
            own.check()
            return cls(own=own)
        return cls(self_signed_in=directory) if https else None

    def files_for(self, addresses: list[str]) -> TlsFiles:
        if self.own is not None:
            return self.own
        assert self.self_signed_in is not None
        return self_signed(self.self_signed_in, addresses)
