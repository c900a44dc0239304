#include "internal.h"

#include <limits.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct sigcrypto_identity {
	EVP_PKEY *key;
	X509 *certificate;
	STACK_OF(X509) *chain;
};

static void read_facts(X509 *certificate, sigcrypto_identity_facts *facts)
{
	memset(facts, 0, sizeof *facts);
	sigcrypto_seconds_of(X509_get0_notBefore(certificate), &facts->not_before);
	sigcrypto_seconds_of(X509_get0_notAfter(certificate), &facts->not_after);
	facts->key_usage_allows = sigcrypto_may_sign(certificate);
	sigcrypto_subject_of(certificate, facts->subject, sizeof facts->subject);
	X509_NAME *subject = X509_get_subject_name(certificate);
	int index = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
	if (index >= 0) {
		unsigned char *utf8 = NULL;
		int length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, index)));
		if (length > 0)
			snprintf(facts->common_name, sizeof facts->common_name, "%.*s", length, (const char *)utf8);
		OPENSSL_free(utf8);
	}
	ERR_clear_error();
}

sigcrypto_status sigcrypto_identity_read(const unsigned char *p12, size_t length, const char *password,
	sigcrypto_identity **identity, sigcrypto_identity_facts *facts, char *message, size_t message_size)
{
	sigcrypto_status status = SIGCRYPTO_OK;
	PKCS12 *bundle = NULL;
	sigcrypto_identity *made = NULL;
	const char *opening = password;

	*identity = NULL;
	ERR_clear_error();
	if (length > INT_MAX) {
		sigcrypto_set_message(message, message_size, "the PKCS#12 bytes are too large");
		return SIGCRYPTO_MALFORMED;
	}
	const unsigned char *cursor = p12;
	bundle = d2i_PKCS12(NULL, &cursor, (long)length);
	if (!bundle) {
		sigcrypto_set_message(message, message_size, "the bytes are not PKCS#12");
		return SIGCRYPTO_MALFORMED;
	}
	if (PKCS12_mac_present(bundle)) {
		if (!PKCS12_verify_mac(bundle, password, -1)) {
			if (password[0] == 0 && PKCS12_verify_mac(bundle, NULL, 0)) {
				opening = NULL;
			} else {
				sigcrypto_set_message(message, message_size, "the password does not open the PKCS#12 file");
				status = SIGCRYPTO_WRONG_PASSWORD;
				goto done;
			}
		}
	}
	made = OPENSSL_zalloc(sizeof *made);
	if (!made) {
		status = SIGCRYPTO_NO_MEMORY;
		goto done;
	}
	if (!PKCS12_parse(bundle, opening, &made->key, &made->certificate, &made->chain)) {
		sigcrypto_set_message(message, message_size, "the PKCS#12 file cannot be read with this password");
		status = SIGCRYPTO_WRONG_PASSWORD;
		goto done;
	}
	if (!made->key || !made->certificate || X509_check_private_key(made->certificate, made->key) != 1) {
		sigcrypto_set_message(message, message_size, "the PKCS#12 file holds no private key with its certificate");
		status = SIGCRYPTO_NO_KEY;
		goto done;
	}
	read_facts(made->certificate, facts);
	*identity = made;
	made = NULL;

done:
	sigcrypto_identity_free(made);
	PKCS12_free(bundle);
	ERR_clear_error();
	return status;
}

void sigcrypto_identity_free(sigcrypto_identity *identity)
{
	if (!identity)
		return;
	EVP_PKEY_free(identity->key);
	X509_free(identity->certificate);
	sk_X509_pop_free(identity->chain, X509_free);
	OPENSSL_free(identity);
}

sigcrypto_status sigcrypto_sign(sigcrypto_identity *identity, const unsigned char *content, size_t content_length,
	const char *digest, int cades, unsigned char **der, size_t *der_length, char *message, size_t message_size)
{
	sigcrypto_status status = SIGCRYPTO_FAILED;
	CMS_ContentInfo *cms = NULL;
	BIO *in = NULL;
	unsigned char *out = NULL;
	const unsigned int flags = CMS_DETACHED | CMS_BINARY | CMS_NOSMIMECAP;

	*der = NULL;
	*der_length = 0;
	ERR_clear_error();
	const EVP_MD *md = EVP_get_digestbyname(digest);
	if (!md || content_length > INT_MAX) {
		sigcrypto_set_message(message, message_size, "the digest is unknown or the content too large");
		return SIGCRYPTO_FAILED;
	}
	cms = CMS_sign(NULL, NULL, identity->chain, NULL, flags | CMS_PARTIAL);
	if (!cms || !CMS_add1_signer(cms, identity->certificate, identity->key, md, flags | (cades ? CMS_CADES : 0))) {
		sigcrypto_set_message(message, message_size, "the signer cannot be added");
		goto done;
	}
	in = BIO_new_mem_buf(content, (int)content_length);
	if (!in || !CMS_final(cms, in, NULL, flags)) {
		sigcrypto_set_message(message, message_size, "the signature cannot be made");
		goto done;
	}
	int length = i2d_CMS_ContentInfo(cms, &out);
	if (length <= 0) {
		sigcrypto_set_message(message, message_size, "the signature cannot be encoded");
		goto done;
	}
	*der = out;
	*der_length = (size_t)length;
	status = SIGCRYPTO_OK;

done:
	BIO_free(in);
	CMS_ContentInfo_free(cms);
	ERR_clear_error();
	return status;
}

int sigcrypto_certificates(const unsigned char *cms, size_t length, void (*each)(void *user, const unsigned char *der, size_t der_length),
	void *user)
{
	const unsigned char *cursor = cms;
	CMS_ContentInfo *info = length <= LONG_MAX ? d2i_CMS_ContentInfo(NULL, &cursor, (long)length) : NULL;
	STACK_OF(X509) *certificates = info ? CMS_get1_certs(info) : NULL;
	int count = info ? 0 : -1, i;
	for (i = 0; i < sk_X509_num(certificates); i++) {
		unsigned char *der = NULL;
		int encoded = i2d_X509(sk_X509_value(certificates, i), &der);
		if (encoded > 0) {
			each(user, der, (size_t)encoded);
			count++;
		}
		OPENSSL_free(der);
	}
	sk_X509_pop_free(certificates, X509_free);
	CMS_ContentInfo_free(info);
	ERR_clear_error();
	return count;
}

void sigcrypto_free(void *bytes)
{
	OPENSSL_free(bytes);
}
