#include "internal.h"

#include <limits.h>
#include <openssl/bn.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pkcs7.h>
#include <openssl/rand.h>
#include <openssl/ts.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>

/* RFC 3161 timestamps: requests to an authority, its tokens checked, and tokens put into and
   read from a CMS signature's unsigned attributes. */

/* The one signer of the DER CMS signature `cms`, parsed into `*info`; NULL when there is
   not exactly one. */
static CMS_SignerInfo *only_signer(const unsigned char *cms, size_t length, CMS_ContentInfo **info)
{
	const unsigned char *cursor = cms;
	*info = length <= LONG_MAX ? d2i_CMS_ContentInfo(NULL, &cursor, (long)length) : NULL;
	if (!*info)
		return NULL;
	STACK_OF(CMS_SignerInfo) *signers = CMS_get0_SignerInfos(*info);
	return sk_CMS_SignerInfo_num(signers) == 1 ? sk_CMS_SignerInfo_value(signers, 0) : NULL;
}

sigcrypto_status sigcrypto_timestamp_request(const unsigned char *data, size_t length, const char *digest,
	unsigned char **request, size_t *request_length, char *message, size_t message_size)
{
	sigcrypto_status status = SIGCRYPTO_FAILED;
	TS_REQ *query = TS_REQ_new();
	TS_MSG_IMPRINT *imprint = TS_MSG_IMPRINT_new();
	X509_ALGOR *algorithm = X509_ALGOR_new();
	BIGNUM *random = BN_new();
	ASN1_INTEGER *nonce = NULL;
	unsigned char hash[EVP_MAX_MD_SIZE];
	unsigned int hash_length = 0;
	const EVP_MD *md = EVP_get_digestbyname(digest);

	*request = NULL;
	*request_length = 0;
	ERR_clear_error();
	if (!query || !imprint || !algorithm || !random) {
		status = SIGCRYPTO_NO_MEMORY;
		goto done;
	}
	if (!md || !EVP_Digest(data, length, hash, &hash_length, md, NULL)) {
		sigcrypto_set_message(message, message_size, "the digest is unknown");
		goto done;
	}
	if (!X509_ALGOR_set0(algorithm, OBJ_nid2obj(EVP_MD_get_type(md)), V_ASN1_NULL, NULL) || !TS_MSG_IMPRINT_set_algo(imprint, algorithm)
		|| !TS_MSG_IMPRINT_set_msg(imprint, hash, (int)hash_length) || !TS_REQ_set_version(query, 1)
		|| !TS_REQ_set_msg_imprint(query, imprint) || !BN_rand(random, 64, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY)
		|| !(nonce = BN_to_ASN1_INTEGER(random, NULL)) || !TS_REQ_set_nonce(query, nonce) || !TS_REQ_set_cert_req(query, 1)) {
		sigcrypto_set_message(message, message_size, "the timestamp request cannot be made");
		goto done;
	}
	int encoded = i2d_TS_REQ(query, request);
	if (encoded <= 0) {
		sigcrypto_set_message(message, message_size, "the timestamp request cannot be encoded");
		goto done;
	}
	*request_length = (size_t)encoded;
	status = SIGCRYPTO_OK;

done:
	ASN1_INTEGER_free(nonce);
	BN_free(random);
	X509_ALGOR_free(algorithm);
	TS_MSG_IMPRINT_free(imprint);
	TS_REQ_free(query);
	ERR_clear_error();
	return status;
}

/* 1 when `authority` may stamp times: RFC 3161, 2.3 asks for the one extended key usage
   timeStamping, marked critical, and a key usage (if any) that signs; OpenSSL's purpose check. */
static int may_stamp(X509 *authority)
{
	return X509_check_purpose(authority, X509_PURPOSE_TIMESTAMP_SIGN, 0) == 1;
}

sigcrypto_status sigcrypto_timestamp_token(const unsigned char *request, size_t request_length, const unsigned char *response,
	size_t response_length, unsigned char **token, size_t *token_length, long long *time, char *message, size_t message_size)
{
	sigcrypto_status status = SIGCRYPTO_FAILED;
	const unsigned char *cursor;
	TS_REQ *query = NULL;
	TS_RESP *reply = NULL;
	TS_VERIFY_CTX *context = NULL;

	*token = NULL;
	*token_length = 0;
	ERR_clear_error();
	cursor = request;
	query = request_length <= LONG_MAX ? d2i_TS_REQ(NULL, &cursor, (long)request_length) : NULL;
	cursor = response;
	reply = response_length <= LONG_MAX ? d2i_TS_RESP(NULL, &cursor, (long)response_length) : NULL;
	if (!query || !reply) {
		sigcrypto_set_message(message, message_size, "the authority's answer is not a timestamp response");
		goto done;
	}
	/* The version, the imprint and the nonce; the signature is checked where the token is
	   verified, against trust anchors. */
	context = TS_REQ_to_TS_VERIFY_CTX(query, NULL);
	if (context)
		TS_VERIFY_CTX_set_flags(context, TS_VFY_VERSION | TS_VFY_IMPRINT | TS_VFY_NONCE);
	if (!context || TS_RESP_verify_response(context, reply) != 1) {
		sigcrypto_set_message(message, message_size, "the authority did not grant a timestamp for this request");
		goto done;
	}
	PKCS7 *granted = TS_RESP_get_token(reply);
	STACK_OF(X509) *signers = granted ? PKCS7_get0_signers(granted, NULL, 0) : NULL;
	int authority_may_stamp = sk_X509_num(signers) == 1 && may_stamp(sk_X509_value(signers, 0));
	sk_X509_free(signers);
	if (!authority_may_stamp) {
		sigcrypto_set_message(message, message_size,
			"the authority's certificate may not stamp times (RFC 3161 asks for the one extended key usage timeStamping)");
		goto done;
	}
	const ASN1_GENERALIZEDTIME *when = TS_TST_INFO_get_time(TS_RESP_get_tst_info(reply));
	int encoded = granted ? i2d_PKCS7(granted, token) : 0;
	if (encoded <= 0 || !sigcrypto_seconds_of(when, time)) {
		sigcrypto_set_message(message, message_size, "the timestamp token cannot be read");
		goto done;
	}
	*token_length = (size_t)encoded;
	status = SIGCRYPTO_OK;

done:
	TS_VERIFY_CTX_free(context);
	TS_RESP_free(reply);
	TS_REQ_free(query);
	ERR_clear_error();
	return status;
}

sigcrypto_status sigcrypto_signature_value(const unsigned char *cms, size_t length, unsigned char **value, size_t *value_length,
	char *message, size_t message_size)
{
	CMS_ContentInfo *info = NULL;
	CMS_SignerInfo *signer = only_signer(cms, length, &info);
	ASN1_OCTET_STRING *signature = signer ? CMS_SignerInfo_get0_signature(signer) : NULL;
	sigcrypto_status status = SIGCRYPTO_FAILED;

	*value = NULL;
	*value_length = 0;
	if (!signature) {
		sigcrypto_set_message(message, message_size, "the signature has no one signer");
	} else if (!(*value = OPENSSL_memdup(ASN1_STRING_get0_data(signature), (size_t)ASN1_STRING_length(signature)))) {
		status = SIGCRYPTO_NO_MEMORY;
	} else {
		*value_length = (size_t)ASN1_STRING_length(signature);
		status = SIGCRYPTO_OK;
	}
	CMS_ContentInfo_free(info);
	ERR_clear_error();
	return status;
}

sigcrypto_status sigcrypto_add_signature_timestamp(const unsigned char *cms, size_t length, const unsigned char *token,
	size_t token_length, unsigned char **out, size_t *out_length, char *message, size_t message_size)
{
	CMS_ContentInfo *info = NULL;
	CMS_SignerInfo *signer = only_signer(cms, length, &info);
	sigcrypto_status status = SIGCRYPTO_FAILED;

	*out = NULL;
	*out_length = 0;
	if (!signer || token_length > INT_MAX
		|| !CMS_unsigned_add1_attr_by_NID(signer, NID_id_smime_aa_timeStampToken, V_ASN1_SEQUENCE, token, (int)token_length)) {
		sigcrypto_set_message(message, message_size, "the timestamp cannot be added to the signature");
	} else {
		int encoded = i2d_CMS_ContentInfo(info, out);
		if (encoded > 0) {
			*out_length = (size_t)encoded;
			status = SIGCRYPTO_OK;
		} else {
			sigcrypto_set_message(message, message_size, "the timestamped signature cannot be encoded");
		}
	}
	CMS_ContentInfo_free(info);
	ERR_clear_error();
	return status;
}

int sigcrypto_signature_timestamp(const unsigned char *cms, size_t length, unsigned char **token, size_t *token_length)
{
	CMS_ContentInfo *info = NULL;
	CMS_SignerInfo *signer = only_signer(cms, length, &info);
	int found = 0;

	*token = NULL;
	*token_length = 0;
	int index = signer ? CMS_unsigned_get_attr_by_NID(signer, NID_id_smime_aa_timeStampToken, -1) : -1;
	ASN1_TYPE *value = index >= 0 ? X509_ATTRIBUTE_get0_type(CMS_unsigned_get_attr(signer, index), 0) : NULL;
	if (value && value->type == V_ASN1_SEQUENCE) {
		int size = ASN1_STRING_length(value->value.sequence);
		*token = OPENSSL_memdup(ASN1_STRING_get0_data(value->value.sequence), (size_t)size);
		if (*token) {
			*token_length = (size_t)size;
			found = 1;
		}
	}
	CMS_ContentInfo_free(info);
	ERR_clear_error();
	return found;
}

int sigcrypto_verify_timestamp(const unsigned char *token, size_t token_length, const unsigned char *data, size_t data_length,
	const char *anchors, size_t anchors_length, int system_anchors, sigcrypto_timestamp_result *result)
{
	const unsigned char *cursor = token;
	PKCS7 *parsed = NULL;
	TS_TST_INFO *info = NULL;
	TS_VERIFY_CTX *context = NULL;
	X509_STORE *store = NULL;
	STACK_OF(X509) *signers = NULL;
	X509 *authority = NULL;
	int anchors_read = 0, ok = 1;

	memset(result, 0, sizeof *result);
	ERR_clear_error();
	parsed = token_length <= LONG_MAX ? d2i_PKCS7(NULL, &cursor, (long)token_length) : NULL;
	info = parsed ? PKCS7_to_TS_TST_INFO(parsed) : NULL;
	if (!info || data_length > INT_MAX) {
		sigcrypto_set_message(result->message, sizeof result->message, "the bytes are not a timestamp token");
		goto done;
	}
	result->parsed = 1;
	sigcrypto_seconds_of(TS_TST_INFO_get_time(info), &result->time);

	/* The imprint against the data, without the signature. */
	context = TS_VERIFY_CTX_new();
	BIO *bytes = context ? BIO_new_mem_buf(data, (int)data_length) : NULL;
	if (!context || !bytes) {
		BIO_free(bytes);
		ok = 0;
		goto done;
	}
	TS_VERIFY_CTX_set_flags(context, TS_VFY_VERSION | TS_VFY_DATA);
	TS_VERIFY_CTX_set_data(context, bytes);
	result->imprint_matches = TS_RESP_verify_token(context, parsed) == 1;
	ERR_clear_error();

	/* The signature with the authority's certificate, which the token carries. */
	signers = PKCS7_get0_signers(parsed, NULL, 0);
	authority = sk_X509_num(signers) == 1 ? sk_X509_value(signers, 0) : NULL;
	if (authority) {
		sigcrypto_subject_of(authority, result->authority, sizeof result->authority);
		result->signature_verifies = PKCS7_verify(parsed, NULL, NULL, NULL, NULL, PKCS7_NOVERIFY) == 1;
		result->authority_may_stamp = may_stamp(authority);
	} else {
		snprintf(result->message, sizeof result->message, "the token carries no certificate of its authority");
	}
	ERR_clear_error();

	store = sigcrypto_anchor_store(anchors, anchors_length, system_anchors, &anchors_read);
	if (!store) {
		ok = 0;
		goto done;
	}
	if (authority && (anchors_read > 0 || system_anchors)) {
		int error = 0, revocation_checked = 0;
		result->chain = sigcrypto_check_chain(authority, parsed->d.sign->cert, store, NULL, result->time, &error, &revocation_checked,
			result->message, sizeof result->message);
	}

done:
	sk_X509_free(signers);
	X509_STORE_free(store);
	TS_VERIFY_CTX_free(context);
	TS_TST_INFO_free(info);
	PKCS7_free(parsed);
	ERR_clear_error();
	return ok;
}
