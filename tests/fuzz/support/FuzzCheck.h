// FuzzCheck: a property that must hold for every input. A violation aborts, so libFuzzer stops and keeps the input
// as a crash file (crash-<sha1>) that reproduces it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace onceorder::fuzz {

inline void require(bool holds, std::string_view property, std::string_view detail = {})
{
    if (holds) {
        return;
    }
    std::fprintf(stderr, "\nPROPERTY VIOLATED: %.*s\n  %.*s\n", static_cast<int>(property.size()), property.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

} // namespace onceorder::fuzz
