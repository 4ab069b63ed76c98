#include "teaching/KeyPerClick.h"

#include "submission/OneKeyPerCart.h"
#include "submission/Submission.h"

namespace onceorder::core {

QString KeyPerClick::keyForNewSubmission() const
{
    return OneKeyPerCart::freshKey();
}

std::optional<QString> KeyPerClick::keyForNextAttempt(const Submission& stored) const
{
    if (stored.attempts.isEmpty()) {
        return std::nullopt; // the first attempt sends the key it was stored with
    }
    return OneKeyPerCart::freshKey(); // a retry that looks like a brand-new request to the server
}

} // namespace onceorder::core
