// NoKey: a teaching KeySource. No Idempotency-Key header at all, so the server cannot tell a retry from a new order
// (this server refuses such a POST). Installed by the debug panel, never the default.
#pragma once

#include "submission/KeySource.h"

namespace onceorder::core {

class NoKey final : public KeySource
{
public:
    KeyStrategy strategy() const override { return KeyStrategy::None; }
    QString keyForNewSubmission() const override { return {}; }
    std::optional<QString> keyForNextAttempt(const Submission& /*stored*/) const override { return std::nullopt; }
};

} // namespace onceorder::core
