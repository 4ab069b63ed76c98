// IsoTime: RFC 3339 UTC time for a millisecond timestamp, as every answer and row list writes it.
#pragma once

#include <cstdint>
#include <string>

namespace onceorder::server {

std::string isoTime(std::int64_t ms);

} // namespace onceorder::server
