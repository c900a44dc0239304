#include "CSignatureCrypto.h"

#include <limits.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Keeps the first of OpenSSL's queued errors as the message, unless one is set already. */
static void note_error(sigcrypto_result *result)
{
	unsigned long code = ERR_peek_error();
	if (code && !result->message[0])
		ERR_error_string_n(code, result->message, sizeof result->message);
	ERR_clear_error();
}

/* `time` in seconds since 1970; 0 when it cannot be read. */
static int seconds_of(const ASN1_TIME *time, long long *seconds)
{
	struct tm parts;
	if (!time || !ASN1_TIME_to_tm(time, &parts))
		return 0;
	*seconds = (long long)timegm(&parts);
	return 1;
}

/* The signed signingTime attribute of `info`; 0 when it has none. */
static int signing_time(CMS_SignerInfo *info, long long *seconds)
{
	int index = CMS_signed_get_attr_by_NID(info, NID_pkcs9_signingTime, -1);
	if (index < 0)
		return 0;
	ASN1_TYPE *value = X509_ATTRIBUTE_get0_type(CMS_signed_get_attr(info, index), 0);
	if (!value)
		return 0;
	if (value->type == V_ASN1_UTCTIME)
		return seconds_of(value->value.utctime, seconds);
	if (value->type == V_ASN1_GENERALIZEDTIME)
		return seconds_of(value->value.generalizedtime, seconds);
	return 0;
}

/* A store of the certificates in `pem` (counted in `*count`) and, if asked, the system's. */
static X509_STORE *anchor_store(const char *pem, size_t length, int system_anchors, int *count)
{
	X509_STORE *store = X509_STORE_new();
	*count = 0;
	if (!store)
		return NULL;
	if (length > 0 && length <= INT_MAX) {
		BIO *bio = BIO_new_mem_buf(pem, (int)length);
		X509 *certificate;
		while (bio && (certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
			if (X509_STORE_add_cert(store, certificate))
				(*count)++;
			X509_free(certificate);
		}
		BIO_free(bio);
		ERR_clear_error(); /* the end of the PEM text reads as an error */
	}
	if (system_anchors)
		X509_STORE_set_default_paths(store);
	return store;
}

/* Checks `signer`'s chain at `at` against the anchors; sets the chain fields of `result`. */
static void check_chain(X509 *signer, STACK_OF(X509) *carried, X509_STORE *store, long long at, sigcrypto_result *result)
{
	X509_STORE_CTX *context = X509_STORE_CTX_new();
	if (!context || !X509_STORE_CTX_init(context, store, signer, carried)) {
		note_error(result);
		result->chain = SIGCRYPTO_CHAIN_FAILED;
		X509_STORE_CTX_free(context);
		return;
	}
	X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), (time_t)at);
	if (X509_verify_cert(context) == 1) {
		result->chain = SIGCRYPTO_CHAIN_TRUSTED;
	} else {
		int error = X509_STORE_CTX_get_error(context);
		result->chain_error = error;
		switch (error) {
		case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
		case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
		case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
		case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
			result->chain = SIGCRYPTO_CHAIN_UNTRUSTED;
			break;
		default:
			result->chain = SIGCRYPTO_CHAIN_FAILED;
		}
		if (!result->message[0])
			snprintf(result->message, sizeof result->message, "%s", X509_verify_cert_error_string(error));
	}
	ERR_clear_error();
	X509_STORE_CTX_free(context);
}

/* Writes `certificate`'s subject on one line into `out`. */
static void subject_of(X509 *certificate, char *out, size_t size)
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

int sigcrypto_verify(const unsigned char *cms, size_t cms_length, const unsigned char *content, size_t content_length,
	const char *anchors, size_t anchors_length, int system_anchors, long long fallback_time, sigcrypto_result *result)
{
	BIO *in = NULL, *data = NULL;
	CMS_ContentInfo *info = NULL;
	STACK_OF(X509) *carried = NULL;
	X509_STORE *store = NULL;
	X509 *signer = NULL;
	int i;

	memset(result, 0, sizeof *result);
	ERR_clear_error();
	if (cms_length > INT_MAX || content_length > INT_MAX) {
		snprintf(result->message, sizeof result->message, "the signature or the signed bytes are too large");
		return 1;
	}
	in = BIO_new_mem_buf(cms, (int)cms_length);
	info = in ? d2i_CMS_bio(in, NULL) : NULL;
	if (!info || OBJ_obj2nid(CMS_get0_type(info)) != NID_pkcs7_signed) {
		note_error(result);
		if (!result->message[0])
			snprintf(result->message, sizeof result->message, "the signature is not CMS signed data");
		goto done;
	}
	STACK_OF(CMS_SignerInfo) *infos = CMS_get0_SignerInfos(info);
	if (sk_CMS_SignerInfo_num(infos) != 1) {
		snprintf(result->message, sizeof result->message, "the signature has %d signers, not one", sk_CMS_SignerInfo_num(infos));
		goto done;
	}
	CMS_SignerInfo *signer_info = sk_CMS_SignerInfo_value(infos, 0);
	carried = CMS_get1_certs(info);
	for (i = 0; i < sk_X509_num(carried) && !signer; i++)
		if (CMS_SignerInfo_cert_cmp(signer_info, sk_X509_value(carried, i)) == 0)
			signer = sk_X509_value(carried, i);
	if (!signer) {
		snprintf(result->message, sizeof result->message, "the signature carries no signer certificate");
		goto done;
	}
	CMS_SignerInfo_set1_signer_cert(signer_info, signer);
	result->parsed = 1;
	subject_of(signer, result->signer, sizeof result->signer);
	X509_ALGOR *digest = NULL;
	CMS_SignerInfo_get0_algs(signer_info, NULL, NULL, &digest, NULL);
	if (digest) {
		const ASN1_OBJECT *algorithm = NULL;
		X509_ALGOR_get0(&algorithm, NULL, NULL, digest);
		snprintf(result->digest, sizeof result->digest, "%s", OBJ_nid2sn(OBJ_obj2nid(algorithm)));
	}

	data = BIO_new_mem_buf(content, (int)content_length);
	if (data && CMS_verify(info, carried, NULL, data, NULL, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY) == 1)
		result->intact = 1;
	else
		note_error(result);

	result->has_signing_time = signing_time(signer_info, &result->signing_time);
	result->checked_time = result->has_signing_time ? result->signing_time : fallback_time >= 0 ? fallback_time : (long long)time(NULL);
	time_t at = (time_t)result->checked_time;
	result->certificate_current = X509_cmp_time(X509_get0_notBefore(signer), &at) < 0 && X509_cmp_time(X509_get0_notAfter(signer), &at) > 0;
	uint32_t flags = X509_get_extension_flags(signer);
	result->key_usage_allows = !(flags & EXFLAG_KUSAGE) || (X509_get_key_usage(signer) & (KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION));

	store = anchor_store(anchors, anchors_length, system_anchors, &result->anchors_read);
	if (!store) {
		ERR_clear_error();
		return 0;
	}
	if (result->anchors_read > 0 || system_anchors)
		check_chain(signer, carried, store, result->checked_time, result);

done:
	ERR_clear_error();
	X509_STORE_free(store);
	sk_X509_pop_free(carried, X509_free);
	CMS_ContentInfo_free(info);
	BIO_free(data);
	BIO_free(in);
	return 1;
}
