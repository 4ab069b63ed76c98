// The key strategies by name: the object that does what a KeyStrategy names, for the debug panel to install in the
// engine and for the scenarios' engine configurations.
#pragma once

#include "submission/KeySource.h"

#include <memory>

namespace onceorder::core {

// OneKeyPerCart for PerCart, KeyPerClick for PerClick, NoKey for None.
std::shared_ptr<const KeySource> keySourceFor(KeyStrategy strategy);

} // namespace onceorder::core
