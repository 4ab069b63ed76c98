// Fuzzes the strict JSON reader (server-stub/support/Json) and the writer's quoting.
//
// Properties: every input is either a value or an error inside the text; a value written back in any spelling
// (members reversed, whitespace, long numbers) reads back as the same value; any valid UTF-8 text quoted by
// jsonQuote reads back as itself, and the quoted form of any bytes is valid JSON text (it ends up in answers).
#include "support/FuzzCheck.h"
#include "support/Json.h"
#include "support/JsonText.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace onceorder::server;
using onceorder::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const auto quoted = parseJson(jsonQuote(text));
    require(std::holds_alternative<JsonValue>(quoted), "jsonQuote writes valid JSON for any bytes",
            std::holds_alternative<JsonError>(quoted) ? std::get<JsonError>(quoted).message : "");
    if (onceorder::fuzz::isValidUtf8(text)) {
        const auto* back = std::get_if<std::string>(&std::get<JsonValue>(quoted).value);
        require(back && *back == text, "jsonQuote of valid UTF-8 reads back as the same text");
    }

    const auto parsed = parseJson(text);
    if (const auto* error = std::get_if<JsonError>(&parsed)) {
        require(error->offset <= text.size(), "an error points inside the text");
        require(!error->message.empty(), "an error says what is wrong");
        return 0;
    }
    const JsonValue& value = std::get<JsonValue>(parsed);
    const std::string plain = onceorder::fuzz::writeJson(value);
    for (const auto& spelling : onceorder::fuzz::allSpellings()) {
        const auto again = parseJson(onceorder::fuzz::writeJson(value, spelling));
        require(std::holds_alternative<JsonValue>(again), "a value written back reads back", plain);
        // Reversing twice restores the order, so the plain spelling of the round trip must be the original one.
        auto restore = spelling;
        restore.spaces = restore.longNumbers = false;
        require(onceorder::fuzz::writeJson(std::get<JsonValue>(again), restore) == plain,
                "a value written back reads back as the same value", plain);
    }
    return 0;
}
