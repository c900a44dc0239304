"""An independent JWT signer and verifier (Python's `cryptography`), so that the project's
tokens are checked against the standard (RFC 7515, 7518) and not only against themselves.

  jwt_witness.py sign KEY.pem 'PAYLOAD-JSON'   prints a token (ES256 for an EC key, RS256 for RSA)
  jwt_witness.py verify KEY.pem TOKEN          prints the payload if the signature holds, else exits 1
"""
import base64
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa, utils


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(key_path, payload):
    key = serialization.load_pem_private_key(open(key_path, "rb").read(), password=None)
    algorithm = "ES256" if isinstance(key, ec.EllipticCurvePrivateKey) else "RS256"
    signing_input = b64(json.dumps({"alg": algorithm, "typ": "JWT"}).encode()) + "." + b64(payload.encode())
    if algorithm == "ES256":
        r, s = utils.decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    else:
        signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    print(signing_input + "." + b64(signature))


def verify(key_path, token):
    data = open(key_path, "rb").read()
    key = serialization.load_pem_public_key(data) if b"PUBLIC" in data else serialization.load_pem_private_key(data, None).public_key()
    header, payload, signature = token.split(".")
    signing_input = (header + "." + payload).encode()
    raw = unb64(signature)
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            if json.loads(unb64(header))["alg"] != "ES256" or len(raw) != 64:
                sys.exit(1)
            der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            key.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
        else:
            if json.loads(unb64(header))["alg"] != "RS256":
                sys.exit(1)
            key.verify(raw, signing_input, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        sys.exit(1)
    print(unb64(payload).decode())


if __name__ == "__main__":
    {"sign": sign, "verify": verify}[sys.argv[1]](sys.argv[2], sys.argv[3])
