#include "support/JsonText.h"

#include <charconv>
#include <cmath>

namespace onceorder::fuzz {

using server::JsonValue;

namespace {

void writeNumber(std::string& out, double number, bool longForm)
{
    char buffer[64];
    // Shortest text that reads back as the same double: the value, not its original spelling, is what must count.
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, number);
    out.append(buffer, written.ptr);
    if (longForm && number == std::floor(number) && std::fabs(number) < 1e15 &&
        std::string_view(buffer, static_cast<std::size_t>(written.ptr - buffer)).find_first_of(".e") ==
            std::string_view::npos) {
        out += ".0e0";
    }
}

void write(std::string& out, const JsonValue& value, const JsonSpelling& spelling)
{
    const char* space = spelling.spaces ? " \n\t " : "";
    if (std::holds_alternative<std::nullptr_t>(value.value)) {
        out += "null";
    } else if (const bool* flag = std::get_if<bool>(&value.value)) {
        out += *flag ? "true" : "false";
    } else if (const double* number = std::get_if<double>(&value.value)) {
        writeNumber(out, *number, spelling.longNumbers);
    } else if (const std::string* text = std::get_if<std::string>(&value.value)) {
        out += server::jsonQuote(*text);
    } else if (const auto* array = std::get_if<JsonValue::Array>(&value.value)) {
        out += '[';
        for (std::size_t i = 0; i < array->size(); ++i) {
            const auto& element = (*array)[spelling.reverseArrays ? array->size() - 1 - i : i];
            out += i ? "," : "";
            out += space;
            write(out, element, spelling);
            out += space;
        }
        out += ']';
    } else {
        const auto& object = std::get<JsonValue::Object>(value.value);
        out += '{';
        for (std::size_t i = 0; i < object.size(); ++i) {
            const auto& [name, member] = object[spelling.reverseMembers ? object.size() - 1 - i : i];
            out += i ? "," : "";
            out += space;
            out += server::jsonQuote(name);
            out += space;
            out += ':';
            out += space;
            write(out, member, spelling);
            out += space;
        }
        out += '}';
    }
}

} // namespace

std::vector<JsonSpelling> allSpellings()
{
    return {{},
            {true, false, false, false},
            {false, true, false, false},
            {false, false, true, false},
            {false, false, false, true},
            {true, true, true, true}};
}

std::string writeJson(const JsonValue& value, const JsonSpelling& spelling)
{
    std::string out;
    write(out, value, spelling);
    return out;
}

bool isValidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = 0;
        char32_t codePoint = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            codePoint = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            codePoint = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            codePoint = c & 0x07;
        } else {
            return false;
        }
        if (i + length > text.size()) {
            return false;
        }
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) {
                return false;
            }
            codePoint = (codePoint << 6) | (next & 0x3F);
        }
        const bool overlong = (length == 3 && codePoint < 0x800) || (length == 4 && codePoint < 0x10000);
        if (overlong || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF)) {
            return false;
        }
        i += length;
    }
    return true;
}

} // namespace onceorder::fuzz
