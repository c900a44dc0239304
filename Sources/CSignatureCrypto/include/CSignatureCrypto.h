#ifndef CSIGNATURECRYPTO_H
#define CSIGNATURECRYPTO_H

#include <stddef.h>

/*
 * The cryptographic half of PDF signatures, over OpenSSL's libcrypto. Checking: the CMS
 * signature (/Contents) against the bytes it signs (the /ByteRange's bytes, put together by
 * the caller), and the signer's certificate against trust anchors (verify.c). Signing: a
 * PKCS#12 identity read, and a detached CMS signature made with it (sign.c). What the PDF
 * says around the signature (the ranges, the incremental update) is Swift's.
 */

#ifdef __cplusplus
extern "C" {
#endif

/* How the signer's certificate chain ended. */
typedef enum {
	SIGCRYPTO_CHAIN_NOT_CHECKED = 0, /* no trust anchor was given */
	SIGCRYPTO_CHAIN_TRUSTED = 1,     /* it leads to a trust anchor and was valid at the time checked */
	SIGCRYPTO_CHAIN_UNTRUSTED = 2,   /* it leads to no trust anchor given */
	SIGCRYPTO_CHAIN_FAILED = 3,      /* it leads to one, but a certificate was expired, not yet valid or otherwise refused */
	SIGCRYPTO_CHAIN_REVOKED = 4,     /* it leads to one, but a revocation list or OCSP response says the certificate is revoked */
} sigcrypto_chain;

typedef struct {
	int parsed;               /* 1 when the bytes are a CMS SignedData with a signer certificate */
	int intact;               /* 1 when the content's digest is the signed one and the signature verifies with the signer's key */
	sigcrypto_chain chain;
	int chain_error;          /* OpenSSL's X509_V_ERR_* when the chain is untrusted or failed */
	int revocation_checked;   /* 1 when a revocation list of the certificate's issuer, or an OCSP response for it, was checked */
	int anchors_read;         /* how many certificates `anchors` held */
	int certificate_current;  /* 1 when the time checked is within the signer certificate's validity */
	int key_usage_allows;     /* 1 when the certificate has no key usage, or one with digitalSignature or nonRepudiation */
	int has_signing_time;     /* 1 when the signed attributes hold a signing time */
	long long signing_time;   /* that time, in seconds since 1970 (UTC) */
	long long checked_time;   /* the time the chain was checked at, in seconds since 1970 */
	char digest[32];          /* the digest algorithm's name, such as SHA256 */
	char signer[256];         /* the signer certificate's subject, on one line (RFC 2253) */
	char message[256];        /* what failed, in OpenSSL's words, or empty */
} sigcrypto_result;

/* Checks the DER CMS signature `cms` over `content` (detached; or, when `holds_sha1` is set,
   as adbe.pkcs7.sha1 signs: the signature holds the SHA-1 digest of `content`), the chain of
   its signer's certificate (helped by the certificates the signature carries) against the
   PEM certificates in `anchors` (`anchors_length` bytes, may be 0) and, when
   `system_anchors` is set, the system's; the PEM certificate revocation lists `anchors`
   holds too, and the `ocsp_count` OCSP responses (DER) in `ocsp`, one after another, of
   `ocsp_lengths` bytes each (one that is no response is passed over), are checked for the
   signer's certificate when one is its issuer's. The chain is
   checked at the signed signing time, else at `fallback_time` when it is not negative (the
   time the PDF's /M gives), else now. Returns 1 when `result` is set (whatever the verdict),
   0 when memory runs out. */
int sigcrypto_verify(const unsigned char *cms, size_t cms_length, const unsigned char *content, size_t content_length, int holds_sha1,
	const char *anchors, size_t anchors_length, int system_anchors, const unsigned char *ocsp, const size_t *ocsp_lengths, int ocsp_count,
	long long fallback_time, sigcrypto_result *result);

/* How reading an identity or signing ended. */
typedef enum {
	SIGCRYPTO_OK = 0,
	SIGCRYPTO_MALFORMED = 1,      /* the bytes are not PKCS#12 */
	SIGCRYPTO_WRONG_PASSWORD = 2, /* the password does not open them */
	SIGCRYPTO_NO_KEY = 3,         /* they hold no private key with its certificate */
	SIGCRYPTO_NO_MEMORY = 4,
	SIGCRYPTO_FAILED = 5,         /* OpenSSL refused; the message says why */
} sigcrypto_status;

/* A private key, its certificate and the chain that came with them; owned by the caller,
   freed with sigcrypto_identity_free. Used by one thread at a time. */
typedef struct sigcrypto_identity sigcrypto_identity;

/* What an identity's certificate says. */
typedef struct {
	long long not_before;    /* its validity, in seconds since 1970 (UTC) */
	long long not_after;
	int key_usage_allows;    /* 1 when it has no key usage, or one with digitalSignature or nonRepudiation */
	char subject[256];       /* its subject on one line (RFC 2253) */
	char common_name[128];   /* its subject's commonName (UTF-8), or empty */
} sigcrypto_identity_facts;

/* Reads the PKCS#12 bytes with `password` (UTF-8; an empty one also tries none) into
   `*identity`, and its certificate's facts into `facts`. `message` gets OpenSSL's words when
   it fails. */
sigcrypto_status sigcrypto_identity_read(const unsigned char *p12, size_t length, const char *password,
	sigcrypto_identity **identity, sigcrypto_identity_facts *facts, char *message, size_t message_size);

void sigcrypto_identity_free(sigcrypto_identity *identity);

/* Signs `content` with `identity`: a DER CMS SignedData without the content (detached), with
   the digest `digest` (an OpenSSL name: SHA256, SHA384, SHA512), the signing time, the
   certificate and its chain, and when `cades` is set the ESS signing-certificate-v2
   attribute that CAdES (and PAdES) require. `*der` (`*der_length` bytes) comes from
   OpenSSL's allocator: free it with sigcrypto_free. */
sigcrypto_status sigcrypto_sign(sigcrypto_identity *identity, const unsigned char *content, size_t content_length,
	const char *digest, int cades, unsigned char **der, size_t *der_length, char *message, size_t message_size);

/* Hands each certificate the DER CMS signature (or timestamp token) `cms` carries to `each`,
   as DER; returns how many, or -1 when `cms` cannot be read. */
int sigcrypto_certificates(const unsigned char *cms, size_t length, void (*each)(void *user, const unsigned char *der, size_t der_length),
	void *user);

/* Frees what sigcrypto_sign and the timestamp calls returned. */
void sigcrypto_free(void *bytes);

/* RFC 3161 timestamps (timestamp.c). */

/* An RFC 3161 request (DER) for the `digest` digest of `data`, with a random nonce, asking
   for the authority's certificate. */
sigcrypto_status sigcrypto_timestamp_request(const unsigned char *data, size_t length, const char *digest,
	unsigned char **request, size_t *request_length, char *message, size_t message_size);

/* The token (DER ContentInfo) of the authority's `response` to `request`, once the response
   grants it for the same digest and nonce and its authority's certificate may stamp times;
   its time in `*time` (seconds since 1970). SIGCRYPTO_FAILED, with the authority's words or
   OpenSSL's, otherwise. */
sigcrypto_status sigcrypto_timestamp_token(const unsigned char *request, size_t request_length, const unsigned char *response,
	size_t response_length, unsigned char **token, size_t *token_length, long long *time, char *message, size_t message_size);

/* The signature value of the DER CMS signature's one signer: what a signature timestamp
   stamps. */
sigcrypto_status sigcrypto_signature_value(const unsigned char *cms, size_t length, unsigned char **value, size_t *value_length,
	char *message, size_t message_size);

/* The DER CMS signature with `token` added to its signer's unsigned attributes as the
   signature-time-stamp-token (RFC 3161, appendix A). */
sigcrypto_status sigcrypto_add_signature_timestamp(const unsigned char *cms, size_t length, const unsigned char *token,
	size_t token_length, unsigned char **out, size_t *out_length, char *message, size_t message_size);

/* What a timestamp token says and whether it holds. */
typedef struct {
	int parsed;             /* 1 when the bytes are a timestamp token */
	int imprint_matches;    /* 1 when its message imprint is the digest of the data given */
	int signature_verifies; /* 1 when its signature verifies with the authority's certificate */
	int authority_may_stamp; /* 1 when that certificate may stamp times (RFC 3161, 2.3: the one
	                            extended key usage timeStamping, critical; any key usage signs) */
	sigcrypto_chain chain;  /* its authority's chain against the anchors */
	long long time;         /* its time, in seconds since 1970 */
	char authority[256];    /* the authority's certificate subject (RFC 2253) */
	char message[256];
} sigcrypto_timestamp_result;

/* Checks the DER timestamp token `token` over `data`: its imprint, its signature, whether its
   authority may stamp times, and its authority's chain against `anchors` (PEM, may be empty;
   its revocation lists are checked too) and, when set, the system's, at the token's time.
   Returns 1 when `result` is set, 0 when memory runs out. */
int sigcrypto_verify_timestamp(const unsigned char *token, size_t token_length, const unsigned char *data, size_t data_length,
	const char *anchors, size_t anchors_length, int system_anchors, sigcrypto_timestamp_result *result);

/* The DER timestamp token in the unsigned attributes of the CMS signature's signer, if any:
   1 with `*token` set (free with sigcrypto_free), 0 when there is none. */
int sigcrypto_signature_timestamp(const unsigned char *cms, size_t length, unsigned char **token, size_t *token_length);

#ifdef __cplusplus
}
#endif

#endif
