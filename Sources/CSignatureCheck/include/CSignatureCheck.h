#ifndef CSIGNATURECHECK_H
#define CSIGNATURECHECK_H

#include <stddef.h>

/*
 * The cryptographic half of checking a PDF signature, over OpenSSL's libcrypto: the CMS
 * signature (/Contents) against the bytes it signs (the /ByteRange's bytes, put together by
 * the caller), and the signer's certificate against trust anchors. What the PDF says around
 * it (the ranges, later revisions) is checked in Swift.
 */

#ifdef __cplusplus
extern "C" {
#endif

/* How the signer's certificate chain ended. */
typedef enum {
	SIGCHECK_CHAIN_NOT_CHECKED = 0, /* no trust anchor was given */
	SIGCHECK_CHAIN_TRUSTED = 1,     /* it leads to a trust anchor and was valid at the time checked */
	SIGCHECK_CHAIN_UNTRUSTED = 2,   /* it leads to no trust anchor given */
	SIGCHECK_CHAIN_FAILED = 3,      /* it leads to one, but a certificate was expired, not yet valid or otherwise refused */
} sigcheck_chain;

typedef struct {
	int parsed;               /* 1 when the bytes are a CMS SignedData with a signer certificate */
	int intact;               /* 1 when the content's digest is the signed one and the signature verifies with the signer's key */
	sigcheck_chain chain;
	int chain_error;          /* OpenSSL's X509_V_ERR_* when the chain is untrusted or failed */
	int anchors_read;         /* how many certificates `anchors` held */
	int certificate_current;  /* 1 when the time checked is within the signer certificate's validity */
	int key_usage_allows;     /* 1 when the certificate has no key usage, or one with digitalSignature or nonRepudiation */
	int has_signing_time;     /* 1 when the signed attributes hold a signing time */
	long long signing_time;   /* that time, in seconds since 1970 (UTC) */
	long long checked_time;   /* the time the chain was checked at, in seconds since 1970 */
	char digest[32];          /* the digest algorithm's name, such as SHA256 */
	char signer[256];         /* the signer certificate's subject, on one line (RFC 2253) */
	char message[256];        /* what failed, in OpenSSL's words, or empty */
} sigcheck_result;

/* Checks the DER CMS signature `cms` over `content`, the chain of its signer's certificate
   (helped by the certificates the signature carries) against the PEM certificates in
   `anchors` (`anchors_length` bytes, may be 0) and, when `system_anchors` is set, the
   system's. The chain is checked at the signed signing time, else at `fallback_time` when it
   is not negative (the time the PDF's /M gives), else now. Returns 1 when `result` is set
   (whatever the verdict), 0 when memory runs out. */
int sigcheck_verify(const unsigned char *cms, size_t cms_length, const unsigned char *content, size_t content_length,
	const char *anchors, size_t anchors_length, int system_anchors, long long fallback_time, sigcheck_result *result);

#ifdef __cplusplus
}
#endif

#endif
