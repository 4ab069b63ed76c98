// Fuzzes the POST /checkout body parser and its canonical form (server-stub/checkout/CheckoutCommand), which is
// both the fingerprint's input and what the completer reads back to finish a request without the client.
//
// Properties: a refusal is one of the documented 400s (malformed-json, invalid-order, invalid-payment-method); the
// canonical form reads back as the same command with the same fingerprint; member order, whitespace, number
// spelling and line order never change the fingerprint; a changed quantity, product, cart id or payment method
// always does.
#include "checkout/CheckoutService.h"
#include "support/ChangedOrders.h"
#include "support/FuzzCheck.h"
#include "support/Json.h"
#include "support/JsonText.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace onceorder::server;
using onceorder::fuzz::require;

namespace {

CheckoutCommand requireCheckout(const std::variant<CheckoutCommand, Problem>& parsed, std::string_view property,
                                std::string_view text)
{
    const auto* problem = std::get_if<Problem>(&parsed);
    require(!problem, property, problem ? problem->detail + " in " + std::string(text) : "");
    return std::get<CheckoutCommand>(parsed);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = parseCheckoutCommand(text);
    if (const auto* problem = std::get_if<Problem>(&parsed)) {
        require(problem->status == 400 &&
                    (problem->slug == "malformed-json" || problem->slug == "invalid-order" ||
                     problem->slug == "invalid-payment-method"),
                "a refused checkout is 400 malformed-json, invalid-order or invalid-payment-method", problem->slug);
        require(!problem->detail.empty(), "a refusal says why");
        require(std::holds_alternative<JsonValue>(parseJson(problem->body())), "a problem body is valid JSON",
                problem->body());
        return 0;
    }
    const CheckoutCommand& command = std::get<CheckoutCommand>(parsed);
    const std::string print = CheckoutService::fingerprint(command);
    const std::string canonical = command.canonical();

    const CheckoutCommand again =
        requireCheckout(parseCheckoutCommand(canonical), "the canonical form is accepted", canonical);
    require(again.order.cartId == command.order.cartId && again.order.lines == command.order.lines &&
                again.paymentMethod == command.paymentMethod,
            "the canonical form reads back the same command", canonical);
    require(again.canonical() == canonical && CheckoutService::fingerprint(again) == print,
            "the canonical form reads back with the same fingerprint", canonical);
    require(again.amountCents() == command.amountCents(), "the canonical form reads back the same amount", canonical);

    const JsonValue root = std::get<JsonValue>(parseJson(text));
    for (const auto& spelling : onceorder::fuzz::allSpellings()) {
        const std::string other = onceorder::fuzz::writeJson(root, spelling);
        const auto respelled = requireCheckout(parseCheckoutCommand(other), "a respelled checkout is accepted", other);
        require(CheckoutService::fingerprint(respelled) == print,
                "member order, whitespace, number spelling and line order keep the fingerprint", other);
    }

    for (const auto& [what, order] : onceorder::fuzz::changedOrders(command.order)) {
        const std::string body = CheckoutCommand {order, command.paymentMethod}.canonical();
        const auto other = requireCheckout(parseCheckoutCommand(body), "a changed checkout is accepted", body);
        require(CheckoutService::fingerprint(other) != print, "a changed " + what + " changes the fingerprint", body);
    }
    CheckoutCommand method = command;
    method.paymentMethod = method.paymentMethod == "card" ? "invoice" : "card";
    const std::string body = method.canonical();
    const auto other = requireCheckout(parseCheckoutCommand(body), "another payment method is accepted", body);
    require(CheckoutService::fingerprint(other) != print, "a changed payment method changes the fingerprint", body);
    return 0;
}
