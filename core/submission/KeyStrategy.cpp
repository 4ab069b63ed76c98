#include "submission/KeyStrategy.h"

namespace onceorder::core {

QString keyStrategyName(KeyStrategy strategy)
{
    switch (strategy) {
    case KeyStrategy::PerCart:
        return QStringLiteral("per-cart");
    case KeyStrategy::PerClick:
        return QStringLiteral("per-click");
    case KeyStrategy::None:
        return QStringLiteral("none");
    }
    return QStringLiteral("per-cart");
}

} // namespace onceorder::core
