// KeyPerClick: a teaching KeySource, the article's client mistake. Every attempt after the first (each click, each
// automatic retry) gets a new key, so a retry after a lost answer looks like a new order to the server: without a
// business key (UNIQUE cart_id) the cart is ordered twice. Installed by the debug panel and the scenarios, never the
// default.
#pragma once

#include "submission/KeySource.h"

namespace onceorder::core {

class KeyPerClick final : public KeySource
{
public:
    KeyStrategy strategy() const override { return KeyStrategy::PerClick; }
    QString keyForNewSubmission() const override;
    std::optional<QString> keyForNextAttempt(const Submission& stored) const override;
};

} // namespace onceorder::core
