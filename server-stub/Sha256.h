// Sha256: the hex SHA-256 digest used as a request fingerprint.
#pragma once

#include <string>
#include <string_view>

namespace onceorder::server {

std::string sha256Hex(std::string_view data);

} // namespace onceorder::server
