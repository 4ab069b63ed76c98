// JsonText: writes a parsed JsonValue back as text in several spellings of the same document, so the fuzzers can
// check that what must not matter (member order, whitespace, number spelling, cart line order) does not.
#pragma once

#include "support/Json.h"

#include <string>
#include <string_view>
#include <vector>

namespace onceorder::fuzz {

struct JsonSpelling
{
    bool reverseMembers = false; // objects' members last to first
    bool reverseArrays = false; // arrays' elements last to first (only for arrays whose order must not matter)
    bool spaces = false; // whitespace around every token
    bool longNumbers = false; // whole numbers as "1.0e0" instead of "1"
};

// The spellings every property is checked under (the plain one first).
std::vector<JsonSpelling> allSpellings();

std::string writeJson(const server::JsonValue& value, const JsonSpelling& spelling = {});

bool isValidUtf8(std::string_view text);

} // namespace onceorder::fuzz
