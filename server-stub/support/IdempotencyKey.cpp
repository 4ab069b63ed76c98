#include "support/IdempotencyKey.h"

namespace onceorder::server {

namespace {

bool isVisibleAscii(char c)
{
    return c >= 0x21 && c <= 0x7E;
}

std::string_view trimSpaces(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

std::variant<std::string, KeyError> checkValue(std::string value)
{
    if (value.empty()) {
        return KeyError {"the Idempotency-Key is empty"};
    }
    if (value.size() > kMaxIdempotencyKeyLength) {
        return KeyError {"the Idempotency-Key is " + std::to_string(value.size()) + " characters long; at most " +
                         std::to_string(kMaxIdempotencyKeyLength) + " are allowed"};
    }
    for (const char c : value) {
        if (!isVisibleAscii(c)) {
            return KeyError {"the Idempotency-Key may contain only visible ASCII characters (no spaces or controls)"};
        }
    }
    return value;
}

} // namespace

std::variant<std::string, KeyError> parseIdempotencyKey(std::string_view headerValue)
{
    const std::string_view text = trimSpaces(headerValue);
    if (text.empty()) {
        return KeyError {"the Idempotency-Key header is empty"};
    }
    if (text.front() != '"') {
        // A bare token such as a UUID: tolerated, as most clients send it so.
        for (const char c : text) {
            if (c == '"' || c == '\\' || c == ';' || c == ',') {
                return KeyError {"an unquoted Idempotency-Key may not contain '\"', '\\\\', ';' or ','; "
                                 "send it as a quoted string, e.g. Idempotency-Key: \"8e03978e-40d5\""};
            }
        }
        return checkValue(std::string(text));
    }
    std::string value;
    std::size_t pos = 1;
    while (true) {
        if (pos >= text.size()) {
            return KeyError {"the quoted Idempotency-Key has no closing quote"};
        }
        const char c = text[pos++];
        if (c == '"') {
            break;
        }
        if (c == '\\') {
            if (pos >= text.size() || (text[pos] != '"' && text[pos] != '\\')) {
                return KeyError {"in a quoted Idempotency-Key, '\\' may only escape '\"' or '\\'"};
            }
            value += text[pos++];
            continue;
        }
        if (c < 0x20 || c > 0x7E) {
            return KeyError {"the Idempotency-Key may contain only visible ASCII characters (no spaces or controls)"};
        }
        value += c;
    }
    if (pos != text.size()) {
        return KeyError {"unexpected characters after the quoted Idempotency-Key (parameters are not supported)"};
    }
    return checkValue(std::move(value));
}

} // namespace onceorder::server
