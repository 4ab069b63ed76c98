#include "support/Sha256.h"

#include <array>
#include <memory>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdexcept>
#include <vector>

namespace onceorder::server {

namespace {

std::string toHex(const unsigned char* digest, unsigned int length)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex(std::size_t {length} * 2, '\0');
    for (unsigned int i = 0; i < length; ++i) {
        hex[2 * i] = kHex[digest[i] >> 4];
        hex[2 * i + 1] = kHex[digest[i] & 0xF];
    }
    return hex;
}

struct MdFree
{
    void operator()(EVP_MD* md) const { EVP_MD_free(md); }
};

// OpenSSL 3 looks the algorithm up in its provider on every call that is given EVP_sha256(); a fingerprint per
// request made that lookup a fifth of the digest's cost. Fetched once, the same implementation is reused.
const EVP_MD* sha256()
{
    static const std::unique_ptr<EVP_MD, MdFree> md(EVP_MD_fetch(nullptr, "SHA256", nullptr));
    if (!md) {
        throw std::runtime_error("SHA-256 is not available");
    }
    return md.get();
}

} // namespace

std::string sha256Hex(std::string_view data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest {};
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest.data(), &length, sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    return toHex(digest.data(), length);
}

std::string hmacSha256Hex(std::string_view key, std::string_view data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest {};
    unsigned int length = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
              reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data(), &length)) {
        throw std::runtime_error("HMAC-SHA-256 failed");
    }
    return toHex(digest.data(), length);
}

bool constantTimeEquals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string randomHex(std::size_t bytes)
{
    std::vector<unsigned char> random(bytes);
    if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
        throw std::runtime_error("no random bytes");
    }
    return toHex(random.data(), static_cast<unsigned int>(random.size()));
}

} // namespace onceorder::server
