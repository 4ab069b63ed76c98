// OrderCommand: the validated content of POST /orders and its canonical form (the input of the fingerprint).
#pragma once

#include "support/Problem.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace onceorder::server {

inline constexpr int kMaxQuantity = 1000;
inline constexpr std::size_t kMaxItems = 50;
inline constexpr std::size_t kMaxCartIdLength = 128;
inline constexpr std::size_t kMaxProductIdLength = 64;

struct OrderLine
{
    std::string product;
    int quantity = 0;
    bool operator==(const OrderLine&) const = default;
};

struct OrderCommand
{
    std::optional<std::string> cartId;
    std::vector<OrderLine> lines; // sorted by product, one line per product

    // Same intended effect <=> same canonical text: member order, whitespace, number spelling
    // ("1", "1.0", "1e0") and the order of cart items do not change it.
    std::string canonical() const;
    // [{"product":…,"quantity":…},…] in line order: the canonical form's items and the answer's.
    std::string itemsJson() const;
};

// Validates the JSON body; on failure a 400 problem that is never stored and does not consume the key.
// Products are only checked for shape here; whether they exist is the store's business.
std::variant<OrderCommand, Problem> parseOrderCommand(std::string_view body);

struct JsonValue;
// The same for a body already parsed, which may carry `extraMembers` besides the order's (POST /checkout's
// payment method); those are left to the caller.
std::variant<OrderCommand, Problem> orderCommandFromJson(const JsonValue& root,
                                                         const std::vector<std::string_view>& extraMembers = {});

} // namespace onceorder::server
