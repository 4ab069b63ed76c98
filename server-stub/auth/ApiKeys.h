// ApiKeys: how API keys are kept. A key is stored only as its hash ("sha256:" and 64 hex digits): the keys are random
// and long, so a plain SHA-256 is enough to make a stolen database useless for logging in, and lets a key be found
// by its hash. Hashes are compared in constant time. The demo keys of SPEC §3 are published: they are for loopback.
#pragma once

#include <string>
#include <string_view>

namespace onceorder::server::apikeys {

// "sha256:" + hex(SHA-256(key)).
std::string hash(std::string_view key);
// A stored value that is already a hash (databases written before keys were hashed hold the keys themselves).
bool isHash(std::string_view stored);
// Equal in time that depends only on the lengths.
bool constantTimeEquals(std::string_view a, std::string_view b);
// A new key: "oo_" and 43 characters of base64url, 256 random bits from the system's CSPRNG.
std::string generate();
// Whether this hash is one of the published demo keys' (demo-key-A, demo-key-B, demo-key-admin).
bool isPublished(std::string_view keyHash);

} // namespace onceorder::server::apikeys
