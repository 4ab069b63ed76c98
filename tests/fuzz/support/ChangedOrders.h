// ChangedOrders: valid orders that differ from a given one in exactly one thing a customer would notice (a
// quantity, a product, the cart id), so the fuzzers can check that each of them changes the fingerprint.
#pragma once

#include "orders/OrderCommand.h"

#include <string>
#include <utility>
#include <vector>

namespace onceorder::fuzz {

// Each change with a word for what was changed.
std::vector<std::pair<std::string, server::OrderCommand>> changedOrders(const server::OrderCommand& order);

} // namespace onceorder::fuzz
