#include "support/Json.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_set>

namespace onceorder::server {

const JsonValue* JsonValue::member(std::string_view name) const
{
    const auto* object = std::get_if<Object>(&value);
    if (!object) {
        return nullptr;
    }
    for (const auto& [key, child] : *object) {
        if (key == name) {
            return &child;
        }
    }
    return nullptr;
}

namespace {

// Length of the valid UTF-8 sequence at pos, or 0 (overlongs, surrogates and > U+10FFFF are invalid).
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos)
{
    const auto byte = [&](std::size_t i) {
        return static_cast<unsigned char>(text[pos + i]);
    };
    const std::size_t left = text.size() - pos;
    const unsigned char b0 = byte(0);
    auto cont = [&](std::size_t i) {
        return i < left && (byte(i) & 0xC0) == 0x80;
    };
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        return cont(1) ? 2 : 0;
    }
    if (b0 >= 0xE0 && b0 <= 0xEF) {
        if (!cont(1) || !cont(2)) {
            return 0;
        }
        if ((b0 == 0xE0 && byte(1) < 0xA0) || (b0 == 0xED && byte(1) >= 0xA0)) {
            return 0;
        }
        return 3;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) {
            return 0;
        }
        if ((b0 == 0xF0 && byte(1) < 0x90) || (b0 == 0xF4 && byte(1) >= 0x90)) {
            return 0;
        }
        return 4;
    }
    return 0;
}

// The names of one object's members seen so far, for the duplicate check: a scan while the object is small (most of
// ours have two or three members), a hash set of member indexes once it is not, so an object of n members costs O(n)
// and not O(n²) (a 64 KiB body of 8,687 short names took ~70 ms of the server's CPU before). Indexes, not the
// strings' addresses: the members' vector moves them as it grows.
class MemberNames
{
public:
    explicit MemberNames(const JsonValue::Object& members)
        : m_members(members)
        , m_index(0, Hash {this}, Equal {this})
    {
    }
    MemberNames(const MemberNames&) = delete;
    MemberNames& operator=(const MemberNames&) = delete;

    // Whether `name` is among the members already; the caller then appends it.
    bool contains(const std::string& name)
    {
        if (m_members.size() < kScanUpTo) {
            for (const auto& existing : m_members) {
                if (existing.first == name) {
                    return true;
                }
            }
            return false;
        }
        while (m_indexed < m_members.size()) {
            m_index.insert(m_indexed++);
        }
        m_probe = name;
        return m_index.count(kProbe) > 0;
    }

private:
    static constexpr std::size_t kScanUpTo = 16;
    // The index that stands for the name being looked up rather than a member's.
    static constexpr std::size_t kProbe = static_cast<std::size_t>(-1);

    std::string_view nameOf(std::size_t index) const { return index == kProbe ? m_probe : m_members[index].first; }

    struct Hash
    {
        const MemberNames* names;
        std::size_t operator()(std::size_t index) const { return std::hash<std::string_view> {}(names->nameOf(index)); }
    };
    struct Equal
    {
        const MemberNames* names;
        bool operator()(std::size_t a, std::size_t b) const { return names->nameOf(a) == names->nameOf(b); }
    };

    const JsonValue::Object& m_members;
    std::string_view m_probe;
    std::unordered_set<std::size_t, Hash, Equal> m_index;
    std::size_t m_indexed = 0;
};

class Parser
{
public:
    Parser(std::string_view text, int maxDepth)
        : m_text(text)
        , m_maxDepth(maxDepth)
    {
    }

    std::variant<JsonValue, JsonError> parseDocument()
    {
        skipSpace();
        auto value = parseValue(0);
        if (!value) {
            return m_error;
        }
        skipSpace();
        if (m_pos != m_text.size()) {
            return JsonError {m_pos, "unexpected data after the JSON value"};
        }
        return std::move(*value);
    }

private:
    std::optional<JsonValue> fail(std::string message)
    {
        m_error = JsonError {m_pos, std::move(message)};
        return std::nullopt;
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r')) {
            ++m_pos;
        }
    }

    bool consumeLiteral(std::string_view literal)
    {
        if (m_text.substr(m_pos, literal.size()) == literal) {
            m_pos += literal.size();
            return true;
        }
        return false;
    }

    std::optional<JsonValue> parseValue(int depth)
    {
        if (depth > m_maxDepth) {
            return fail("nesting deeper than " + std::to_string(m_maxDepth) + " levels");
        }
        if (m_pos >= m_text.size()) {
            return fail("unexpected end of input");
        }
        const char c = m_text[m_pos];
        if (c == '{') {
            return parseObject(depth);
        }
        if (c == '[') {
            return parseArray(depth);
        }
        if (c == '"') {
            auto text = parseString();
            if (!text) {
                return std::nullopt;
            }
            return JsonValue {std::move(*text)};
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return parseNumber();
        }
        if (consumeLiteral("true")) {
            return JsonValue {true};
        }
        if (consumeLiteral("false")) {
            return JsonValue {false};
        }
        if (consumeLiteral("null")) {
            return JsonValue {nullptr};
        }
        return fail("unexpected character");
    }

    std::optional<JsonValue> parseObject(int depth)
    {
        ++m_pos; // '{'
        JsonValue::Object members;
        MemberNames names(members);
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return JsonValue {std::move(members)};
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
                return fail("expected a member name");
            }
            const std::size_t nameAt = m_pos;
            auto name = parseString();
            if (!name) {
                return std::nullopt;
            }
            if (names.contains(*name)) {
                m_pos = nameAt;
                return fail("duplicate member \"" + *name + "\"");
            }
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
                return fail("expected ':' after a member name");
            }
            ++m_pos;
            skipSpace();
            auto child = parseValue(depth + 1);
            if (!child) {
                return std::nullopt;
            }
            members.emplace_back(std::move(*name), std::move(*child));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return JsonValue {std::move(members)};
            }
            return fail("expected ',' or '}' in an object");
        }
    }

    std::optional<JsonValue> parseArray(int depth)
    {
        ++m_pos; // '['
        JsonValue::Array items;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return JsonValue {std::move(items)};
        }
        while (true) {
            skipSpace();
            auto child = parseValue(depth + 1);
            if (!child) {
                return std::nullopt;
            }
            items.push_back(std::move(*child));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return JsonValue {std::move(items)};
            }
            return fail("expected ',' or ']' in an array");
        }
    }

    std::optional<JsonValue> parseNumber()
    {
        // Grammar of RFC 8259 checked by hand; strtod then only converts what is known to be valid.
        const std::size_t start = m_pos;
        auto digits = [this] {
            const std::size_t from = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
                ++m_pos;
            }
            return m_pos - from;
        };
        if (m_text[m_pos] == '-') {
            ++m_pos;
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '0') {
            ++m_pos;
        } else if (digits() == 0) {
            return fail("invalid number");
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '.') {
            ++m_pos;
            if (digits() == 0) {
                return fail("invalid number: digits expected after '.'");
            }
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-')) {
                ++m_pos;
            }
            if (digits() == 0) {
                return fail("invalid number: digits expected in the exponent");
            }
        }
        const std::string literal(m_text.substr(start, m_pos - start));
        const double number = std::strtod(literal.c_str(), nullptr);
        if (!std::isfinite(number)) {
            m_pos = start;
            return fail("number out of range");
        }
        return JsonValue {number};
    }

    std::optional<unsigned> hex4()
    {
        if (m_pos + 4 > m_text.size()) {
            return std::nullopt;
        }
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = m_text[m_pos++];
            code <<= 4;
            if (h >= '0' && h <= '9') {
                code |= static_cast<unsigned>(h - '0');
            } else if (h >= 'a' && h <= 'f') {
                code |= static_cast<unsigned>(h - 'a' + 10);
            } else if (h >= 'A' && h <= 'F') {
                code |= static_cast<unsigned>(h - 'A' + 10);
            } else {
                return std::nullopt;
            }
        }
        return code;
    }

    static void appendUtf8(std::string& out, unsigned code)
    {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    // After a backslash: the escape's character appended to `out`; false (having failed) if it is no valid escape.
    bool parseEscape(std::string& out)
    {
        if (m_pos >= m_text.size()) {
            fail("unterminated escape");
            return false;
        }
        const char e = m_text[m_pos++];
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out += e;
            return true;
        case 'b':
            out += '\b';
            return true;
        case 'f':
            out += '\f';
            return true;
        case 'n':
            out += '\n';
            return true;
        case 'r':
            out += '\r';
            return true;
        case 't':
            out += '\t';
            return true;
        case 'u':
            return parseUnicodeEscape(out);
        default:
            fail("invalid escape");
            return false;
        }
    }

    // After "\u": the code point (a surrogate pair read as one) appended to `out` as UTF-8; false (having failed) if
    // the digits are not hex or a surrogate is unpaired.
    bool parseUnicodeEscape(std::string& out)
    {
        auto code = hex4();
        if (!code) {
            fail("invalid \\u escape");
            return false;
        }
        if (*code >= 0xD800 && *code <= 0xDBFF) {
            if (!consumeLiteral("\\u")) {
                fail("unpaired surrogate in \\u escape");
                return false;
            }
            auto low = hex4();
            if (!low || *low < 0xDC00 || *low > 0xDFFF) {
                fail("unpaired surrogate in \\u escape");
                return false;
            }
            *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
        } else if (*code >= 0xDC00 && *code <= 0xDFFF) {
            fail("unpaired surrogate in \\u escape");
            return false;
        }
        appendUtf8(out, *code);
        return true;
    }

    std::optional<std::string> parseString()
    {
        ++m_pos; // opening quote
        std::string out;
        while (true) {
            if (m_pos >= m_text.size()) {
                fail("unterminated string");
                return std::nullopt;
            }
            const auto c = static_cast<unsigned char>(m_text[m_pos]);
            if (c == '"') {
                ++m_pos;
                return out;
            }
            if (c < 0x20) {
                fail("control character in a string");
                return std::nullopt;
            }
            if (c == '\\') {
                ++m_pos;
                if (!parseEscape(out)) {
                    return std::nullopt;
                }
                continue;
            }
            if (c < 0x80) {
                out += static_cast<char>(c);
                ++m_pos;
                continue;
            }
            const std::size_t length = utf8SequenceLength(m_text, m_pos);
            if (length == 0) {
                fail("invalid UTF-8 in a string");
                return std::nullopt;
            }
            out.append(m_text.substr(m_pos, length));
            m_pos += length;
        }
    }

    std::string_view m_text;
    int m_maxDepth;
    std::size_t m_pos = 0;
    JsonError m_error;
};

} // namespace

std::variant<JsonValue, JsonError> parseJson(std::string_view text, int maxDepth)
{
    return Parser(text, maxDepth).parseDocument();
}

namespace {

// Appends text as a JSON string; the writer quotes straight into its buffer, with no string per name and value.
void appendQuoted(std::string& out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20 || c == 0x7F) {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 0xF];
            } else if (c < 0x80) {
                out += ch;
            } else if (const std::size_t length = utf8SequenceLength(text, i)) {
                out.append(text.substr(i, length));
                i += length - 1;
            } else {
                // Not UTF-8 (a percent-decoded path, a header): U+FFFD keeps the answer valid JSON text.
                out += "\\ufffd";
            }
        }
    }
    out += '"';
}

} // namespace

std::string jsonQuote(std::string_view text)
{
    std::string out;
    appendQuoted(out, text);
    return out;
}

JsonObjectWriter& JsonObjectWriter::raw(std::string_view name, std::string_view encodedValue)
{
    if (m_text.size() > 1) {
        m_text += ',';
    }
    appendQuoted(m_text, name);
    m_text += ':';
    m_text += encodedValue;
    return *this;
}

JsonObjectWriter& JsonObjectWriter::str(std::string_view name, std::string_view value)
{
    raw(name, {});
    appendQuoted(m_text, value);
    return *this;
}

JsonObjectWriter& JsonObjectWriter::num(std::string_view name, long long value)
{
    return raw(name, std::to_string(value));
}

JsonObjectWriter& JsonObjectWriter::boolean(std::string_view name, bool value)
{
    return raw(name, value ? "true" : "false");
}

} // namespace onceorder::server
