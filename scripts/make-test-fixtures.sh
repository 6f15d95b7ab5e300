#!/usr/bin/env bash
# Generates the TEST-ONLY keys and certificates under Tests/Fixtures. Nothing here is a real credential:
# the CA, server and client certificates exist only so the mock APNs server and tests can run real TLS.
# Re-running replaces everything; the committed copies are what the tests use.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures"
umask 077
days=36500

# Provider-token signing keys, in the App Store Connect .p8 form (PKCS#8 PEM, P-256).
mkdir -p keys
for name in TESTKEY001 TESTKEY002; do
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "keys/AuthKey_$name.p8"
  openssl pkey -in "keys/AuthKey_$name.p8" -pubout -out "keys/AuthKey_$name.pub.pem"
done
# Keys ES256 cannot use: wrong curve, not elliptic-curve.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out keys/p384.p8
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out keys/rsa.p8
printf -- '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n' > keys/malformed.p8

# A test CA, a server certificate for localhost / 127.0.0.1, and a client (provider) certificate.
mkdir -p tls
openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -keyout tls/ca.key -out tls/ca.pem \
  -days "$days" -subj "/CN=APNs Worker Test CA (test only)"
openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -keyout tls/server.key -out tls/server.csr \
  -subj "/CN=localhost"
openssl x509 -req -in tls/server.csr -CA tls/ca.pem -CAkey tls/ca.key -CAcreateserial -out tls/server.pem \
  -days "$days" -extfile <(printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
# The same host name without its address: a client that reaches it at 127.0.0.1 and checks names must refuse.
openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -keyout tls/server-dns-only.key -out tls/server-dns-only.csr \
  -subj "/CN=localhost"
openssl x509 -req -in tls/server-dns-only.csr -CA tls/ca.pem -CAkey tls/ca.key -CAcreateserial -out tls/server-dns-only.pem \
  -days "$days" -extfile <(printf 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n')
openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -keyout tls/client.key -out tls/client.csr \
  -subj "/CN=Apple Push Services: com.example.app/UID=com.example.app"
openssl x509 -req -in tls/client.csr -CA tls/ca.pem -CAkey tls/ca.key -CAcreateserial -out tls/client.pem \
  -days "$days" -extfile <(printf 'extendedKeyUsage=clientAuth\n')
openssl pkcs12 -export -in tls/client.pem -inkey tls/client.key -certfile tls/ca.pem -out tls/client.p12 \
  -passout pass:test-only-password
# A CA the client must not trust, to prove verification fails closed.
openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -keyout tls/untrusted-ca.key \
  -out tls/untrusted-ca.pem -days "$days" -subj "/CN=Untrusted Test CA (test only)"
rm -f tls/*.csr tls/*.srl
echo "test fixtures written to $(pwd)"
