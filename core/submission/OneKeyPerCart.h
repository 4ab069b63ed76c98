// OneKeyPerCart: the correct KeySource. A cart's submission gets one random key when it is stored, and every attempt
// (each automatic retry, each click, each resume after a restart) sends that key again, so the server places the cart
// once and replays its stored answer to the rest.
#pragma once

#include "submission/KeySource.h"

namespace onceorder::core {

class OneKeyPerCart final : public KeySource
{
public:
    KeyStrategy strategy() const override { return KeyStrategy::PerCart; }
    QString keyForNewSubmission() const override;
    std::optional<QString> keyForNextAttempt(const Submission& stored) const override;

    // A fresh random key (a UUID without braces).
    static QString freshKey();
};

} // namespace onceorder::core
