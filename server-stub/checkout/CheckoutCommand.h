// CheckoutCommand: the validated content of POST /checkout (an order plus how to pay) and its canonical form,
// which is both the fingerprint's input and what the key row keeps so the completer can finish the request
// without the client.
#pragma once

#include "orders/OrderCommand.h"

namespace onceorder::server {

inline constexpr std::size_t kMaxPaymentMethodLength = 64;
// The stub has no price list: every piece costs the same.
inline constexpr long long kUnitPriceCents = 19900;

struct CheckoutCommand
{
    OrderCommand order;
    std::string paymentMethod; // e.g. "card"; opaque to us, passed to the gateway

    long long amountCents() const;
    // The order's canonical form with "payment_method" added; parseCheckoutCommand reads it back.
    std::string canonical() const;
};

// Validates the JSON body: the order's fields (as POST /orders) and "payment_method". 400 problems only.
std::variant<CheckoutCommand, Problem> parseCheckoutCommand(std::string_view body);

} // namespace onceorder::server
