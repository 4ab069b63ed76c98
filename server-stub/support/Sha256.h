// Sha256: the hex SHA-256 digest used as a request fingerprint, the HMAC that signs payment webhooks, and the
// unguessable random ids those webhooks carry (all from OpenSSL).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onceorder::server {

std::string sha256Hex(std::string_view data);
std::string hmacSha256Hex(std::string_view key, std::string_view data);
// Compares in time independent of where the first difference is (signatures must not leak by timing).
bool constantTimeEquals(std::string_view a, std::string_view b);
// `bytes` bytes from the operating system's CSPRNG, as 2 * bytes lower-case hex digits.
std::string randomHex(std::size_t bytes);

} // namespace onceorder::server
