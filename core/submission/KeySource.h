// KeySource: where a submission's Idempotency-Key comes from, the one thing SubmissionEngine asks about keys. The
// correct source is OneKeyPerCart (the engine's default); the article's mistakes (KeyPerClick, NoKey) live in teaching/
// and are installed by the debug panel or a scenario through SubmissionEngine::setKeyStrategy. A source is immutable,
// so one object may be shared by engines on several threads.
#pragma once

#include "submission/KeyStrategy.h"

#include <QString>

#include <optional>

namespace onceorder::core {

struct Submission;

class KeySource
{
public:
    virtual ~KeySource() = default;

    // Its name, for the debug panel's choice and the timeline's words.
    virtual KeyStrategy strategy() const = 0;
    // The key a new submission of a cart is stored with before its first byte leaves; empty: no Idempotency-Key.
    virtual QString keyForNewSubmission() const = 0;
    // The key the next attempt of a stored submission sends instead of its stored one; nullopt: the stored key again.
    virtual std::optional<QString> keyForNextAttempt(const Submission& stored) const = 0;
};

} // namespace onceorder::core
