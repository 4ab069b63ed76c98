#include "support/ChangedOrders.h"

#include <algorithm>

namespace onceorder::fuzz {

using server::OrderCommand;

namespace {

// `text` with its last character replaced (or one appended) so that it is still a valid identifier of at most
// maxLength characters and differs from every name in `taken`.
std::string otherName(const std::string& text, std::size_t maxLength, const std::vector<std::string>& taken)
{
    const std::string stem = text.size() < maxLength ? text : text.substr(0, maxLength - 1);
    for (char c = 0x21; c <= 0x7E; ++c) {
        const std::string candidate = stem + c;
        if (std::find(taken.begin(), taken.end(), candidate) == taken.end()) {
            return candidate;
        }
    }
    return stem; // unreachable: at most 50 lines take at most 50 of the 94 candidates
}

} // namespace

std::vector<std::pair<std::string, OrderCommand>> changedOrders(const OrderCommand& order)
{
    std::vector<std::pair<std::string, OrderCommand>> changes;
    if (order.lines.empty()) {
        return changes;
    }

    OrderCommand quantity = order;
    quantity.lines.front().quantity = quantity.lines.front().quantity % server::kMaxQuantity + 1;
    changes.emplace_back("quantity", quantity);

    std::vector<std::string> products;
    for (const auto& line : order.lines) {
        products.push_back(line.product);
    }
    OrderCommand product = order;
    product.lines.front().product = otherName(product.lines.front().product, server::kMaxProductIdLength, products);
    changes.emplace_back("product", product);

    OrderCommand cart = order;
    cart.cartId = otherName(order.cartId.value_or(""), server::kMaxCartIdLength, {order.cartId.value_or("")});
    changes.emplace_back("cart id", cart);
    if (order.cartId) {
        OrderCommand noCart = order;
        noCart.cartId.reset();
        changes.emplace_back("cart id removed", noCart);
    }
    return changes;
}

} // namespace onceorder::fuzz
