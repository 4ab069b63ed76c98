#include "checkout/CheckoutCommand.h"

#include "support/Json.h"
#include "support/Problems.h"

#include <algorithm>

namespace onceorder::server {

long long CheckoutCommand::amountCents() const
{
    long long pieces = 0;
    for (const auto& line : order.lines) {
        pieces += line.quantity;
    }
    return pieces * kUnitPriceCents;
}

std::string CheckoutCommand::canonical() const
{
    std::string text = order.canonical();
    text.pop_back(); // reopen the object: the payment method is one more member
    return text + ",\"payment_method\":" + jsonQuote(paymentMethod) + "}";
}

std::variant<CheckoutCommand, Problem> parseCheckoutCommand(std::string_view body)
{
    auto parsed = parseJson(body);
    if (const auto* error = std::get_if<JsonError>(&parsed)) {
        return problems::malformedJson(*error);
    }
    const JsonValue& root = std::get<JsonValue>(parsed);
    auto order = orderCommandFromJson(root, {"payment_method"});
    if (auto* problem = std::get_if<Problem>(&order)) {
        return *problem;
    }
    const JsonValue* method = root.member("payment_method");
    const std::string* text = method ? std::get_if<std::string>(&method->value) : nullptr;
    const bool valid = text && !text->empty() && text->size() <= kMaxPaymentMethodLength &&
        std::all_of(text->begin(), text->end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
    if (!valid) {
        return problems::invalidPaymentMethod(kMaxPaymentMethodLength);
    }
    return CheckoutCommand {std::get<OrderCommand>(order), *text};
}

} // namespace onceorder::server
