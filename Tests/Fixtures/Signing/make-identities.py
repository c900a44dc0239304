#!/usr/bin/env python3
"""Makes the signing identities the signing tests use, into the folder given, with Python's
`cryptography` (OpenSSL underneath). Nothing here is secret: a test CA made for the tests.

- ca.pem: "Test Signing Root", a self-signed CA certificate (RSA 2048), valid 2020-2050.
- signer.p12: "Ada Signer" (RSA 2048), issued by the root, valid 2020-2050, key usage
  digitalSignature and nonRepudiation; with the root in its chain.
- ec-signer.p12: "Eve Signer" (EC P-256), otherwise as signer.p12.
- expired.p12: "Old Signer", valid 2020-01-01 to 2021-01-01 only.
- encipher-only.p12: "Key Only Signer", whose key usage is keyEncipherment alone.
- stranger.p12: "Stray Signer", issued by another root that no test trusts.
- unicode.p12: "Łukasz Żółć Ψ Жанна" (Latin, Greek and Cyrillic beyond Latin-1), otherwise as
  signer.p12.
- tsa.pem and tsa.key: "Test TSA", the time-stamping authority tsa-server.py runs.
- ca.crl: the root's CRL (DER), revoking nothing.
- revoked.p12: "Rex Signer", otherwise as signer.p12; revoked.crl: the root's CRL (DER),
  issued 2025-01-01 (after signatures dated earlier), next updated 2050-01-01, that lists Rex
  Signer's certificate as revoked on 2020-06-01.
- revoked.ocsp and signer.ocsp: OCSP responses (DER) the root signs, of 2025-01-01, saying
  that Rex Signer's certificate was revoked on 2020-06-01 and that Ada Signer's is good.
Every .p12 file's password is "correct horse" (in password.txt, with a line end).
"""
import datetime
import os
import sys

from cryptography import x509
from cryptography.x509 import ocsp
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

folder = sys.argv[1]
password = b"correct horse"
start, end = datetime.datetime(2020, 1, 1), datetime.datetime(2050, 1, 1)


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Renderer Provider Tests")])


def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def root(common):
    key = rsa_key()
    certificate = (x509.CertificateBuilder().subject_name(name(common)).issuer_name(name(common)).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                   .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
                   .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
                   .sign(key, hashes.SHA256()))
    return key, certificate


def leaf(common, issuer, key=None, valid=(start, end), signing=True):
    issuer_key, issuer_certificate = issuer
    key = key or rsa_key()
    usage = (x509.KeyUsage(True, True, False, False, False, False, False, False, False) if signing
             else x509.KeyUsage(False, False, True, False, False, False, False, False, False))
    certificate = (x509.CertificateBuilder().subject_name(name(common)).issuer_name(issuer_certificate.subject).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(valid[0]).not_valid_after(valid[1])
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .add_extension(usage, critical=True)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
                   .sign(issuer_key, hashes.SHA256()))
    return key, certificate


def write_p12(file, identity, chain):
    key, certificate = identity
    data = pkcs12.serialize_key_and_certificates(file.encode(), key, certificate, chain, serialization.BestAvailableEncryption(password))
    open(os.path.join(folder, file), "wb").write(data)


ca = root("Test Signing Root")
open(os.path.join(folder, "ca.pem"), "wb").write(ca[1].public_bytes(serialization.Encoding.PEM))
ada = leaf("Ada Signer", ca)
write_p12("signer.p12", ada, [ca[1]])
write_p12("ec-signer.p12", leaf("Eve Signer", ca, key=ec.generate_private_key(ec.SECP256R1())), [ca[1]])
write_p12("expired.p12", leaf("Old Signer", ca, valid=(start, datetime.datetime(2021, 1, 1))), [ca[1]])
write_p12("encipher-only.p12", leaf("Key Only Signer", ca, signing=False), [ca[1]])
other = root("Stray Root")
write_p12("stranger.p12", leaf("Stray Signer", other), [other[1]])
write_p12("unicode.p12", leaf("Łukasz Żółć Ψ Жанна", ca), [ca[1]])
rex = leaf("Rex Signer", ca)
write_p12("revoked.p12", rex, [ca[1]])
open(os.path.join(folder, "password.txt"), "wb").write(password + b"\n")

# The time-stamping authority the timestamp tests start (tsa-server.py): "Test TSA", issued by
# the root, valid 2020-2050, extended key usage timeStamping (critical), as RFC 3161 asks.
tsa_key = rsa_key()
tsa = (x509.CertificateBuilder().subject_name(name("Test TSA")).issuer_name(ca[1].subject).public_key(tsa_key.public_key())
       .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
       .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
       .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
       .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
       .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca[0].public_key()), critical=False)
       .sign(ca[0], hashes.SHA256()))
open(os.path.join(folder, "tsa.pem"), "wb").write(tsa.public_bytes(serialization.Encoding.PEM))
open(os.path.join(folder, "tsa.key"), "wb").write(tsa_key.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))

# ca.crl: the root's certificate revocation list (DER), revoking nothing, issued 2020-01-01 and
# next updated 2050-01-01: the validation data the long-term tests embed.
crl = (x509.CertificateRevocationListBuilder().issuer_name(ca[1].subject).last_update(start).next_update(end)
       .add_extension(x509.CRLNumber(1), critical=False)
       .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca[0].public_key()), critical=False)
       .sign(ca[0], hashes.SHA256()))
open(os.path.join(folder, "ca.crl"), "wb").write(crl.public_bytes(serialization.Encoding.DER))

# revoked.crl: the root's CRL of 2025 listing Rex Signer's certificate, revoked 2020-06-01.
revocation = (x509.RevokedCertificateBuilder().serial_number(rex[1].serial_number).revocation_date(datetime.datetime(2020, 6, 1)).build())
revoked_crl = (x509.CertificateRevocationListBuilder().issuer_name(ca[1].subject).last_update(datetime.datetime(2025, 1, 1)).next_update(end)
               .add_revoked_certificate(revocation)
               .add_extension(x509.CRLNumber(2), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca[0].public_key()), critical=False)
               .sign(ca[0], hashes.SHA256()))
open(os.path.join(folder, "revoked.crl"), "wb").write(revoked_crl.public_bytes(serialization.Encoding.DER))

# OCSP responses the root signs itself, as a CA that answers for its own certificates does.
def ocsp_response(subject, status):
    revoked = status == ocsp.OCSPCertStatus.REVOKED
    builder = (ocsp.OCSPResponseBuilder()
               .add_response(cert=subject[1], issuer=ca[1], algorithm=hashes.SHA1(), cert_status=status,
                             this_update=datetime.datetime(2025, 1, 1), next_update=end,
                             revocation_time=datetime.datetime(2020, 6, 1) if revoked else None, revocation_reason=None)
               .responder_id(ocsp.OCSPResponderEncoding.HASH, ca[1]).certificates([ca[1]]))
    return builder.sign(ca[0], hashes.SHA256()).public_bytes(serialization.Encoding.DER)


open(os.path.join(folder, "revoked.ocsp"), "wb").write(ocsp_response(rex, ocsp.OCSPCertStatus.REVOKED))
open(os.path.join(folder, "signer.ocsp"), "wb").write(ocsp_response(ada, ocsp.OCSPCertStatus.GOOD))
