#include "auth/ApiKeys.h"

#include "storage/DemoData.h"
#include "support/Sha256.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace onceorder::server::apikeys {

namespace {

constexpr std::string_view kPrefix = "sha256:";

} // namespace

std::string hash(std::string_view key)
{
    return std::string(kPrefix) + sha256Hex(key);
}

bool isHash(std::string_view stored)
{
    return stored.size() == kPrefix.size() + 64 && stored.substr(0, kPrefix.size()) == kPrefix;
}

bool constantTimeEquals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string generate()
{
    std::array<unsigned char, 32> bytes {};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("no random bytes for a new API key");
    }
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string key = "oo_";
    unsigned bits = 0;
    int held = 0;
    for (const unsigned char byte : bytes) {
        bits = (bits << 8) | byte;
        held += 8;
        while (held >= 6) {
            held -= 6;
            key += kAlphabet[(bits >> held) & 0x3F];
        }
    }
    if (held > 0) {
        key += kAlphabet[(bits << (6 - held)) & 0x3F];
    }
    return key;
}

bool isPublished(std::string_view keyHash)
{
    bool published = false;
    for (const auto& client : demo::kClients) {
        published = constantTimeEquals(keyHash, hash(client.apiKey)) || published;
    }
    return published;
}

} // namespace onceorder::server::apikeys
