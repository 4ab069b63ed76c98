#include "submission/OneKeyPerCart.h"

#include <QUuid>

namespace onceorder::core {

QString OneKeyPerCart::freshKey()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString OneKeyPerCart::keyForNewSubmission() const
{
    return freshKey();
}

std::optional<QString> OneKeyPerCart::keyForNextAttempt(const Submission& /*stored*/) const
{
    return std::nullopt; // the stored key, always
}

} // namespace onceorder::core
