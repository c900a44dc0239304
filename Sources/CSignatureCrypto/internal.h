#ifndef SIGCRYPTO_INTERNAL_H
#define SIGCRYPTO_INTERNAL_H

/* What verify.c, sign.c and timestamp.c share; not part of the module's interface. */

#include "CSignatureCrypto.h"

#include <openssl/asn1.h>
#include <openssl/ocsp.h>
#include <openssl/x509.h>

/* Basic OCSP responses, read by sigcrypto_ocsp_responses. */
typedef struct {
	OCSP_BASICRESP **items;
	int count;
} sigcrypto_responses;

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
   issuer's key, issued at any time) lists it, or else whether one of `responses` (may be
   NULL) that the issuer or its delegate signed says it is revoked (`*revocation_checked` 1
   when a list or a response spoke of it).
   OpenSSL's X509_V_ERR_* in `*error` and its words in `message` (unless set already) when
   it fails. */
sigcrypto_chain sigcrypto_check_chain(X509 *certificate, STACK_OF(X509) *carried, X509_STORE *store, const sigcrypto_responses *responses,
	long long at, int *error, int *revocation_checked, char *message, size_t message_size);

/* Those of the `count` OCSP responses (DER) in `bytes`, one after another of `lengths` bytes
   each, that are successful and hold a basic response, into `responses` (emptied by
   sigcrypto_free_responses); an item that is none is passed over. */
void sigcrypto_ocsp_responses(const unsigned char *bytes, const size_t *lengths, int count, sigcrypto_responses *responses);
void sigcrypto_free_responses(sigcrypto_responses *responses);

/* 1 when `certificate` has no key usage, or one with digitalSignature or nonRepudiation. */
int sigcrypto_may_sign(X509 *certificate);

/* `certificate`'s subject on one line (RFC 2253) into `out`. */
void sigcrypto_subject_of(X509 *certificate, char *out, size_t size);

#endif
