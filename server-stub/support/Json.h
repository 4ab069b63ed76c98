// Json: a strict JSON reader for request bodies and a small writer for responses.
//
// Strictness is the point: a duplicated member is an error (not "last one wins"), strings must be valid UTF-8,
// nesting is bounded, so a hostile body gets a clear 400 instead of a silent merge or a stack overflow.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace onceorder::server {

struct JsonMember;

struct JsonValue
{
    using Array = std::vector<JsonValue>;
    using Object = std::vector<JsonMember>; // in document order, names unique

    std::variant<std::nullptr_t, bool, double, std::string, Array, Object> value;

    bool isObject() const { return std::holds_alternative<Object>(value); }
    bool isArray() const { return std::holds_alternative<Array>(value); }
    bool isString() const { return std::holds_alternative<std::string>(value); }
    bool isNumber() const { return std::holds_alternative<double>(value); }
    const JsonValue* member(std::string_view name) const;
};

// One member of an object. A class of its own rather than std::pair<std::string, JsonValue>: instantiating that
// pair while JsonValue is being defined asks whether JsonValue is copyable before it is complete, which clang with
// libstdc++ refuses (the fuzz build). `first` and `second` keep the pair's names, so members read as before.
struct JsonMember
{
    JsonMember(std::string name, JsonValue value)
        : first(std::move(name))
        , second(std::move(value))
    {
    }

    std::string first;
    JsonValue second;
};

struct JsonError
{
    std::size_t offset = 0;
    std::string message;
};

inline constexpr int kMaxJsonDepth = 32;

std::variant<JsonValue, JsonError> parseJson(std::string_view text, int maxDepth = kMaxJsonDepth);

// A JSON string literal (with quotes) for any bytes: valid UTF-8 is kept, each byte that is not becomes U+FFFD, so an
// answer that echoes a percent-decoded path or a header is still valid JSON text.
std::string jsonQuote(std::string_view text);

// Builds one JSON object left to right; values are appended already encoded.
class JsonObjectWriter
{
public:
    JsonObjectWriter& raw(std::string_view name, std::string_view encodedValue);
    JsonObjectWriter& str(std::string_view name, std::string_view value);
    JsonObjectWriter& num(std::string_view name, long long value);
    JsonObjectWriter& boolean(std::string_view name, bool value);
    std::string finish() const { return m_text + "}"; }

private:
    std::string m_text = "{";
};

} // namespace onceorder::server
