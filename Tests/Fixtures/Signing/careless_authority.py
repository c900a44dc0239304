"""A careless time-stamping authority for the signing tests (imported by tsa-server.py and
stamp-carelessly.py): pyHanko's DummyTimeStamper, signing its tokens with any identity of the
folder make-identities.py filled, such as signer.p12, whose certificate lacks the extended key
usage timeStamping that RFC 3161 (2.3) asks. OpenSSL's `ts -reply` refuses to stamp with such a
certificate, so the tests take their careless tokens from here.
"""
import os

from asn1crypto import keys, x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs12
from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper


def careless_stamper(folder, p12):
    """The stamper signing with the identity `p12` of `folder` (its password.txt opens it)."""
    password = open(os.path.join(folder, "password.txt"), "rb").read().strip()
    key, certificate, _ = pkcs12.load_key_and_certificates(open(os.path.join(folder, p12), "rb").read(), password)
    der = serialization.Encoding.DER
    return DummyTimeStamper(x509.Certificate.load(certificate.public_bytes(der)),
                            keys.PrivateKeyInfo.load(key.private_bytes(der, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())))
