// KeyStrategy: how the client picks Idempotency-Keys. Only PerCart is correct; the other two exist so the debug
// panel can show what goes wrong without one key per cart.
#pragma once

namespace onceorder::core {

enum class KeyStrategy
{
    PerCart, // one key per cart, reused on every retry and every click (correct)
    PerClick, // a new key for every attempt (each click, each automatic retry): a lost response orders twice
    None, // no Idempotency-Key header at all: the server cannot recognise a retry
};

} // namespace onceorder::core
