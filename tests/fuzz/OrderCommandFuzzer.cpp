// Fuzzes the POST /orders body parser and its canonical form (server-stub/orders/OrderCommand), the input of the
// fingerprint that decides between a replay and 422 idempotency-key-reused.
//
// Properties: a refusal is one of the documented 400s (malformed-json, invalid-order) with a valid problem+json
// body; an accepted order read back from its canonical form is the same command with the same fingerprint; member
// order, whitespace, number spelling, the order of cart lines and the single-line form never change the
// fingerprint; a changed quantity, product or cart id always does.
#include "orders/OrderService.h"
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

OrderCommand requireOrder(const std::variant<OrderCommand, Problem>& parsed, std::string_view property,
                          std::string_view text)
{
    const auto* problem = std::get_if<Problem>(&parsed);
    require(!problem, property, problem ? problem->detail + " in " + std::string(text) : "");
    return std::get<OrderCommand>(parsed);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = parseOrderCommand(text);
    if (const auto* problem = std::get_if<Problem>(&parsed)) {
        require(problem->status == 400 && (problem->slug == "malformed-json" || problem->slug == "invalid-order"),
                "a refused order is 400 malformed-json or invalid-order", problem->slug);
        require(!problem->detail.empty(), "a refusal says why");
        require(std::holds_alternative<JsonValue>(parseJson(problem->body())), "a problem body is valid JSON",
                problem->body());
        return 0;
    }
    const OrderCommand& order = std::get<OrderCommand>(parsed);
    const std::string print = OrderService::fingerprint(order);
    const std::string canonical = order.canonical();

    const OrderCommand again = requireOrder(parseOrderCommand(canonical), "the canonical form is accepted", canonical);
    require(again.cartId == order.cartId && again.lines == order.lines, "the canonical form reads back the same order",
            canonical);
    require(again.canonical() == canonical && OrderService::fingerprint(again) == print,
            "the canonical form reads back with the same fingerprint", canonical);

    const JsonValue root = std::get<JsonValue>(parseJson(text));
    for (const auto& spelling : onceorder::fuzz::allSpellings()) {
        const std::string other = onceorder::fuzz::writeJson(root, spelling);
        const OrderCommand respelled = requireOrder(parseOrderCommand(other), "a respelled order is accepted", other);
        require(OrderService::fingerprint(respelled) == print,
                "member order, whitespace, number spelling and line order keep the fingerprint", other);
    }
    if (order.lines.size() == 1 && !order.cartId) {
        const std::string single =
            JsonObjectWriter().str("product", order.lines[0].product).num("quantity", order.lines[0].quantity).finish();
        require(OrderService::fingerprint(
                    requireOrder(parseOrderCommand(single), "the single-line form is accepted", single)) == print,
                "the single-line and the items form have the same fingerprint", single);
    }

    for (const auto& [what, changed] : onceorder::fuzz::changedOrders(order)) {
        const std::string body = changed.canonical();
        const OrderCommand other = requireOrder(parseOrderCommand(body), "a changed order is accepted", body);
        require(OrderService::fingerprint(other) != print, "a changed " + what + " changes the fingerprint", body);
    }
    return 0;
}
