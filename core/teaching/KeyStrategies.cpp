#include "teaching/KeyStrategies.h"

#include "submission/OneKeyPerCart.h"
#include "teaching/KeyPerClick.h"
#include "teaching/NoKey.h"

namespace onceorder::core {

std::shared_ptr<const KeySource> keySourceFor(KeyStrategy strategy)
{
    switch (strategy) {
    case KeyStrategy::PerClick:
        return std::make_shared<KeyPerClick>();
    case KeyStrategy::None:
        return std::make_shared<NoKey>();
    case KeyStrategy::PerCart:
        break;
    }
    return std::make_shared<OneKeyPerCart>();
}

} // namespace onceorder::core
