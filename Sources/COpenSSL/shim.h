#ifndef C_OPENSSL_SHIM_H
#define C_OPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// SSL_set_tlsext_host_name is a macro over SSL_ctrl; SNI needs it.
static inline int COpenSSL_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

// SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl; we require TLS 1.2+.
static inline int COpenSSL_SSL_CTX_set_min_proto_version_tls12(SSL_CTX *ctx) {
    return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

// SSL_CTX_set_mode is a macro; partial writes let memory-BIO drivers move bytes in pieces. The record
// buffers (about 16 KiB each way) stay with the connection: SSL_MODE_RELEASE_BUFFERS would free and
// allocate them on every read and write of a busy connection, and each such request makes glibc
// consolidate its fast bins, for 33 KiB saved per idle connection.
static inline long COpenSSL_SSL_CTX_set_mode_partial_writes(SSL_CTX *ctx) {
    return SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

// SSL_OP_* are function-like macros (SSL_OP_BIT); compression (CRIME) and renegotiation stay off.
static inline uint64_t COpenSSL_SSL_CTX_set_hardening_options(SSL_CTX *ctx) {
    return SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
}

// SSL_CTX_add_extra_chain_cert is a macro over SSL_CTX_ctrl; PKCS#12 chains need it.
static inline long COpenSSL_SSL_CTX_add_extra_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return SSL_CTX_add_extra_chain_cert(ctx, cert);
}

// BIO_get_mem_data is a macro over BIO_ctrl; it exposes a memory BIO's bytes without a copy.
static inline long COpenSSL_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

// BIO_set_mem_eof_return is a macro over BIO_ctrl; an empty read BIO must mean "wait", not EOF.
static inline long COpenSSL_BIO_set_mem_eof_return_retry(BIO *bio) {
    return BIO_set_mem_eof_return(bio, -1);
}

// OPENSSL_free is a macro that adds __FILE__/__LINE__ to CRYPTO_free.
static inline void COpenSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

// STACK_OF(X509) accessors are macro-generated per type; PKCS#12 bundles return such a stack.
static inline int COpenSSL_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *COpenSSL_sk_X509_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}
static inline void COpenSSL_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

// OSSL_PKEY_PARAM_GROUP_NAME is a string macro; the key loader checks the curve by name.
static inline const char *COpenSSL_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }

#endif
