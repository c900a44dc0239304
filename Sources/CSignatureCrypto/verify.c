#include "internal.h"

#include <limits.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
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
		return sigcrypto_seconds_of(value->value.utctime, seconds);
	if (value->type == V_ASN1_GENERALIZEDTIME)
		return sigcrypto_seconds_of(value->value.generalizedtime, seconds);
	return 0;
}

/* 1 when the CMS `info` verifies over what it holds, and that is the SHA-1 digest of
   `content` (adbe.pkcs7.sha1); else the reason in `result`'s message. */
static int holds_sha1_of(CMS_ContentInfo *info, STACK_OF(X509) *carried, const unsigned char *content, size_t content_length,
	sigcrypto_result *result)
{
	unsigned char expected[EVP_MAX_MD_SIZE];
	unsigned int expected_length = 0;
	char *held = NULL;
	int intact = 0;
	BIO *out = BIO_new(BIO_s_mem());
	if (!out || CMS_verify(info, carried, NULL, NULL, out, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY) != 1)
		note_error(result);
	else if (EVP_Digest(content, content_length, expected, &expected_length, EVP_sha1(), NULL) == 1
		&& BIO_get_mem_data(out, &held) == (long)expected_length && memcmp(held, expected, expected_length) == 0)
		intact = 1;
	else
		snprintf(result->message, sizeof result->message, "the digest the signature holds is not the SHA-1 digest of the signed bytes");
	BIO_free(out);
	return intact;
}

int sigcrypto_verify(const unsigned char *cms, size_t cms_length, const unsigned char *content, size_t content_length, int holds_sha1,
	const char *anchors, size_t anchors_length, int system_anchors, const unsigned char *ocsp, const size_t *ocsp_lengths, int ocsp_count,
	long long fallback_time, sigcrypto_result *result)
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
	sigcrypto_subject_of(signer, result->signer, sizeof result->signer);
	X509_ALGOR *digest = NULL;
	CMS_SignerInfo_get0_algs(signer_info, NULL, NULL, &digest, NULL);
	if (digest) {
		const ASN1_OBJECT *algorithm = NULL;
		X509_ALGOR_get0(&algorithm, NULL, NULL, digest);
		snprintf(result->digest, sizeof result->digest, "%s", OBJ_nid2sn(OBJ_obj2nid(algorithm)));
	}

	if (holds_sha1) {
		result->intact = holds_sha1_of(info, carried, content, content_length, result);
	} else {
		data = BIO_new_mem_buf(content, (int)content_length);
		result->intact = data && CMS_verify(info, carried, NULL, data, NULL, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY) == 1;
		if (!result->intact)
			note_error(result);
	}

	result->has_signing_time = signing_time(signer_info, &result->signing_time);
	result->checked_time = result->has_signing_time ? result->signing_time : fallback_time >= 0 ? fallback_time : (long long)time(NULL);
	time_t at = (time_t)result->checked_time;
	result->certificate_current = X509_cmp_time(X509_get0_notBefore(signer), &at) < 0 && X509_cmp_time(X509_get0_notAfter(signer), &at) > 0;
	result->key_usage_allows = sigcrypto_may_sign(signer);

	store = sigcrypto_anchor_store(anchors, anchors_length, system_anchors, &result->anchors_read);
	if (!store) {
		ERR_clear_error();
		return 0;
	}
	if (result->anchors_read > 0 || system_anchors) {
		sigcrypto_responses responses;
		sigcrypto_ocsp_responses(ocsp, ocsp_lengths, ocsp_count, &responses);
		result->chain = sigcrypto_check_chain(signer, carried, store, &responses, result->checked_time, &result->chain_error,
			&result->revocation_checked, result->message, sizeof result->message);
		sigcrypto_free_responses(&responses);
	}

done:
	ERR_clear_error();
	X509_STORE_free(store);
	sk_X509_pop_free(carried, X509_free);
	CMS_ContentInfo_free(info);
	BIO_free(data);
	BIO_free(in);
	return 1;
}
