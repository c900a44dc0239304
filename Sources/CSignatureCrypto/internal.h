#ifndef SIGCRYPTO_INTERNAL_H
#define SIGCRYPTO_INTERNAL_H

/* What verify.c, sign.c and timestamp.c share; not part of the module's interface. */

#include "CSignatureCrypto.h"

#include <openssl/asn1.h>
#include <openssl/x509.h>

/* Puts the first of OpenSSL's queued errors, or `fallback`, into `message` (when given), and
   clears the queue. */
void sigcrypto_set_message(char *message, size_t size, const char *fallback);

/* `time` in seconds since 1970 in `*seconds`; 0 when it cannot be read. */
int sigcrypto_seconds_of(const ASN1_TIME *time, long long *seconds);

/* A store of the certificates in `pem` (counted in `*count`), the certificate revocation
   lists it holds, and, if asked, the system's certificates; NULL when memory runs out. */
X509_STORE *sigcrypto_anchor_store(const char *pem, size_t length, int system_anchors, int *count);

/* How `certificate`'s chain (helped by `carried`) ends against `store` at `at`; once it is
   trusted, whether a revocation list of its issuer that the store holds (signed with the
   issuer's key, issued at any time) lists it (`*revocation_checked` 1 when there is one).
   OpenSSL's X509_V_ERR_* in `*error` and its words in `message` (unless set already) when
   it fails. */
sigcrypto_chain sigcrypto_check_chain(X509 *certificate, STACK_OF(X509) *carried, X509_STORE *store, long long at, int *error,
	int *revocation_checked, char *message, size_t message_size);

/* 1 when `certificate` has no key usage, or one with digitalSignature or nonRepudiation. */
int sigcrypto_may_sign(X509 *certificate);

/* `certificate`'s subject on one line (RFC 2253) into `out`. */
void sigcrypto_subject_of(X509 *certificate, char *out, size_t size);

#endif
