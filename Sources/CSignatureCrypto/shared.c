#include "internal.h"

#include <limits.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The helpers verify.c, sign.c and timestamp.c share (internal.h). */

void sigcrypto_set_message(char *message, size_t size, const char *fallback)
{
	unsigned long code = ERR_peek_error();
	if (message && size) {
		if (code)
			ERR_error_string_n(code, message, size);
		else
			snprintf(message, size, "%s", fallback);
	}
	ERR_clear_error();
}

int sigcrypto_seconds_of(const ASN1_TIME *time, long long *seconds)
{
	struct tm parts;
	if (!time || !ASN1_TIME_to_tm(time, &parts))
		return 0;
	*seconds = (long long)timegm(&parts);
	return 1;
}

X509_STORE *sigcrypto_anchor_store(const char *pem, size_t length, int system_anchors, int *count)
{
	X509_STORE *store = X509_STORE_new();
	*count = 0;
	if (!store)
		return NULL;
	if (length > 0 && length <= INT_MAX) {
		/* Block by block, so that a block that holds no certificate or list (bytes a stranger
		   kept in a document's security store) is passed over, not the end of the reading. */
		BIO *bio = BIO_new_mem_buf(pem, (int)length);
		char *name = NULL, *header = NULL;
		unsigned char *data = NULL;
		long size = 0;
		while (bio && PEM_read_bio(bio, &name, &header, &data, &size)) {
			const unsigned char *cursor = data;
			if (!strcmp(name, PEM_STRING_X509) || !strcmp(name, PEM_STRING_X509_OLD)) {
				X509 *certificate = d2i_X509(NULL, &cursor, size);
				if (certificate && X509_STORE_add_cert(store, certificate))
					(*count)++;
				X509_free(certificate);
			} else if (!strcmp(name, PEM_STRING_X509_CRL)) {
				X509_CRL *crl = d2i_X509_CRL(NULL, &cursor, size);
				if (crl)
					X509_STORE_add_crl(store, crl);
				X509_CRL_free(crl);
			}
			OPENSSL_free(name);
			OPENSSL_free(header);
			OPENSSL_free(data);
		}
		BIO_free(bio);
		ERR_clear_error(); /* the end of the PEM text reads as an error */
	}
	if (system_anchors)
		X509_STORE_set_default_paths(store);
	return store;
}

int sigcrypto_may_sign(X509 *certificate)
{
	uint32_t flags = X509_get_extension_flags(certificate);
	return !(flags & EXFLAG_KUSAGE) || (X509_get_key_usage(certificate) & (KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION));
}

void sigcrypto_ocsp_responses(const unsigned char *bytes, const size_t *lengths, int count, sigcrypto_responses *responses)
{
	const unsigned char *item = bytes;
	responses->items = NULL;
	responses->count = 0;
	for (int i = 0; bytes && i < count; item += lengths[i++]) {
		const unsigned char *cursor = item;
		OCSP_RESPONSE *response = d2i_OCSP_RESPONSE(NULL, &cursor, (long)lengths[i]);
		if (!response)
			continue;
		OCSP_BASICRESP *basic = OCSP_response_status(response) == OCSP_RESPONSE_STATUS_SUCCESSFUL ? OCSP_response_get1_basic(response) : NULL;
		OCSP_BASICRESP **grown = basic ? realloc(responses->items, sizeof *grown * (size_t)(responses->count + 1)) : NULL;
		if (grown) {
			responses->items = grown;
			responses->items[responses->count++] = basic;
		} else {
			OCSP_BASICRESP_free(basic);
		}
		OCSP_RESPONSE_free(response);
	}
	ERR_clear_error();
}

void sigcrypto_free_responses(sigcrypto_responses *responses)
{
	for (int i = 0; i < responses->count; i++)
		OCSP_BASICRESP_free(responses->items[i]);
	free(responses->items);
	responses->items = NULL;
	responses->count = 0;
}

/* What `responses` say of `certificate`, whose issuer is `issuer` (`chain` the certificates
   that lead to the anchors): -1 when none that verifies (signed by the issuer or its
   delegate, leading to `store`) speaks of it, 1 when one says it is revoked, else 0. */
static int ocsp_status_of(const sigcrypto_responses *responses, X509 *certificate, X509 *issuer, STACK_OF(X509) *chain, X509_STORE *store)
{
	OCSP_CERTID *id = OCSP_cert_to_id(NULL, certificate, issuer);
	int found = -1;
	for (int i = 0; id && i < responses->count; i++) {
		OCSP_BASICRESP *basic = responses->items[i];
		int status = -1, reason = 0;
		ASN1_GENERALIZEDTIME *revoked_at = NULL, *this_update = NULL, *next_update = NULL;
		if (OCSP_basic_verify(basic, chain, store, 0) != 1
			|| !OCSP_resp_find_status(basic, id, &status, &reason, &revoked_at, &this_update, &next_update))
			continue;
		if (status == V_OCSP_CERTSTATUS_REVOKED) {
			found = 1;
			break;
		}
		if (status == V_OCSP_CERTSTATUS_GOOD)
			found = 0;
	}
	OCSP_CERTID_free(id);
	ERR_clear_error();
	return found;
}

/* What the revocation lists `store` holds say of `certificate`, whose issuer is `issuer`:
   -1 when none of them is the issuer's (signed with its key), 1 when one lists the
   certificate, else 0. A list is read whenever it was issued: a list made after the time
   the chain is checked at still says whether the certificate was revoked. */
static int revocation_of(X509_STORE *store, X509 *certificate, X509 *issuer)
{
	STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects(store);
	EVP_PKEY *key = X509_get0_pubkey(issuer);
	int found = -1;
	for (int i = 0; key && i < sk_X509_OBJECT_num(objects); i++) {
		X509_CRL *crl = X509_OBJECT_get0_X509_CRL(sk_X509_OBJECT_value(objects, i));
		X509_REVOKED *entry = NULL;
		if (!crl || X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_subject_name(issuer)) != 0 || X509_CRL_verify(crl, key) != 1)
			continue;
		if (X509_CRL_get0_by_cert(crl, &entry, certificate) == 1)
			return 1;
		found = 0;
	}
	ERR_clear_error();
	return found;
}

sigcrypto_chain sigcrypto_check_chain(X509 *certificate, STACK_OF(X509) *carried, X509_STORE *store, const sigcrypto_responses *responses,
	long long at, int *error, int *revocation_checked, char *message, size_t message_size)
{
	sigcrypto_chain chain;
	X509_STORE_CTX *context = X509_STORE_CTX_new();
	if (!context || !X509_STORE_CTX_init(context, store, certificate, carried)) {
		unsigned long code = ERR_peek_error();
		if (code && !message[0])
			ERR_error_string_n(code, message, message_size);
		ERR_clear_error();
		X509_STORE_CTX_free(context);
		return SIGCRYPTO_CHAIN_FAILED;
	}
	X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), (time_t)at);
	if (X509_verify_cert(context) == 1) {
		/* The issuer is the chain's second certificate; a trusted certificate that is its own
		   anchor issued itself. */
		STACK_OF(X509) *built = X509_STORE_CTX_get0_chain(context);
		X509 *issuer = sk_X509_value(built, sk_X509_num(built) > 1 ? 1 : 0);
		int revoked = issuer ? revocation_of(store, certificate, issuer) : -1;
		if (revoked < 0 && issuer && responses)
			revoked = ocsp_status_of(responses, certificate, issuer, built, store);
		*revocation_checked = revoked >= 0;
		chain = revoked == 1 ? SIGCRYPTO_CHAIN_REVOKED : SIGCRYPTO_CHAIN_TRUSTED;
		if (revoked == 1)
			*error = X509_V_ERR_CERT_REVOKED;
	} else {
		*error = X509_STORE_CTX_get_error(context);
		switch (*error) {
		case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
		case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
		case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
		case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
			chain = SIGCRYPTO_CHAIN_UNTRUSTED;
			break;
		default:
			chain = SIGCRYPTO_CHAIN_FAILED;
		}
		if (!message[0])
			snprintf(message, message_size, "%s", X509_verify_cert_error_string(*error));
	}
	ERR_clear_error();
	X509_STORE_CTX_free(context);
	return chain;
}

void sigcrypto_subject_of(X509 *certificate, char *out, size_t size)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *text = NULL;
	long length;
	if (!bio)
		return;
	if (X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253) >= 0) {
		length = BIO_get_mem_data(bio, &text);
		if (length > 0)
			snprintf(out, size, "%.*s", (int)length, text);
	}
	BIO_free(bio);
}

