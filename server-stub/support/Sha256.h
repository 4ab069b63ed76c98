// Sha256: the hex SHA-256 digest used as a request fingerprint, and the HMAC that signs payment webhooks.
#pragma once

#include <string>
#include <string_view>

namespace onceorder::server {

std::string sha256Hex(std::string_view data);
std::string hmacSha256Hex(std::string_view key, std::string_view data);
// Compares in time independent of where the first difference is (signatures must not leak by timing).
bool constantTimeEquals(std::string_view a, std::string_view b);

} // namespace onceorder::server
