// KeyStrategy: the names of the ways a client can pick Idempotency-Keys, as the debug panel lists them and the timeline
// describes them. Only PerCart is correct; the other two exist so the debug panel can show what goes wrong without one
// key per cart. What each does is a KeySource (OneKeyPerCart here; KeyPerClick and NoKey in teaching/).
#pragma once

#include <QString>

namespace onceorder::core {

enum class KeyStrategy
{
    PerCart, // one key per cart, reused on every retry and every click (correct)
    PerClick, // a new key for every attempt (each click, each automatic retry): a lost response orders twice
    None, // no Idempotency-Key header at all: the server cannot recognise a retry
};

// The strategy's stored name: "per-cart", "per-click", "none".
QString keyStrategyName(KeyStrategy strategy);

} // namespace onceorder::core
