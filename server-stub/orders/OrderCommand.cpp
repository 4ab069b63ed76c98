#include "orders/OrderCommand.h"

#include "support/Json.h"
#include "support/Problems.h"

#include <algorithm>
#include <cmath>

namespace onceorder::server {

namespace {

bool isIdentifier(std::string_view text, std::size_t maxLength)
{
    if (text.empty() || text.size() > maxLength) {
        return false;
    }
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
}

// Members other than product and quantity have been checked by the caller.
std::variant<OrderLine, Problem> parseLine(const JsonValue& item, const std::string& where)
{
    const JsonValue* product = item.member("product");
    if (!product || !product->isString()) {
        return problems::invalidOrder(where + ".product must be a string");
    }
    const auto& productId = std::get<std::string>(product->value);
    if (!isIdentifier(productId, kMaxProductIdLength)) {
        return problems::invalidOrder(where + ".product must be 1-" + std::to_string(kMaxProductIdLength) +
                                      " visible ASCII characters");
    }
    const JsonValue* quantity = item.member("quantity");
    if (!quantity || !quantity->isNumber()) {
        return problems::invalidOrder(where + ".quantity must be a number");
    }
    const double q = std::get<double>(quantity->value);
    if (q != std::floor(q) || q < 1 || q > kMaxQuantity) {
        return problems::invalidOrder(where + ".quantity must be a whole number from 1 to " +
                                      std::to_string(kMaxQuantity));
    }
    return OrderLine {productId, static_cast<int>(q)};
}

} // namespace

std::string OrderCommand::itemsJson() const
{
    std::string items = "[";
    for (const auto& line : lines) {
        if (items.size() > 1) {
            items += ',';
        }
        items += JsonObjectWriter().str("product", line.product).num("quantity", line.quantity).finish();
    }
    return items + "]";
}

std::string OrderCommand::canonical() const
{
    JsonObjectWriter writer;
    if (cartId) {
        writer.str("cart_id", *cartId);
    }
    return writer.raw("items", itemsJson()).finish();
}

std::variant<OrderCommand, Problem> parseOrderCommand(std::string_view body)
{
    auto parsed = parseJson(body);
    if (const auto* error = std::get_if<JsonError>(&parsed)) {
        return problems::malformedJson(*error);
    }
    return orderCommandFromJson(std::get<JsonValue>(parsed));
}

std::variant<OrderCommand, Problem> orderCommandFromJson(const JsonValue& root,
                                                         const std::vector<std::string_view>& extraMembers)
{
    if (!root.isObject()) {
        return problems::invalidOrder("the body must be a JSON object");
    }
    for (const auto& [name, value] : std::get<JsonValue::Object>(root.value)) {
        const bool extra = std::find(extraMembers.begin(), extraMembers.end(), name) != extraMembers.end();
        if (name != "product" && name != "quantity" && name != "cart_id" && name != "items" && !extra) {
            return problems::invalidOrder("unknown member \"" + name + "\"");
        }
    }

    OrderCommand command;
    if (const JsonValue* cart = root.member("cart_id")) {
        if (!cart->isString() || !isIdentifier(std::get<std::string>(cart->value), kMaxCartIdLength)) {
            return problems::invalidOrder("cart_id must be a string of 1-" + std::to_string(kMaxCartIdLength) +
                                          " visible ASCII characters");
        }
        command.cartId = std::get<std::string>(cart->value);
    }

    const JsonValue* items = root.member("items");
    const bool singleForm = root.member("product") || root.member("quantity");
    if (items && singleForm) {
        return problems::invalidOrder("send either \"items\" or \"product\" with \"quantity\", not both");
    }
    if (singleForm) {
        auto line = parseLine(root, "the order");
        if (auto* problem = std::get_if<Problem>(&line)) {
            return *problem;
        }
        command.lines.push_back(std::get<OrderLine>(line));
        return command;
    }
    if (!items) {
        return problems::invalidOrder("the order needs \"items\" (or \"product\" and \"quantity\")");
    }
    if (!items->isArray()) {
        return problems::invalidOrder("items must be an array");
    }
    const auto& array = std::get<JsonValue::Array>(items->value);
    if (array.empty() || array.size() > kMaxItems) {
        return problems::invalidOrder("items must hold 1-" + std::to_string(kMaxItems) + " lines");
    }
    for (std::size_t i = 0; i < array.size(); ++i) {
        const std::string where = "items[" + std::to_string(i) + "]";
        if (!array[i].isObject()) {
            return problems::invalidOrder(where + " must be an object with \"product\" and \"quantity\"");
        }
        for (const auto& member : std::get<JsonValue::Object>(array[i].value)) {
            if (member.first != "product" && member.first != "quantity") {
                return problems::invalidOrder(where + " has an unknown member \"" + member.first + "\"");
            }
        }
        auto line = parseLine(array[i], where);
        if (auto* problem = std::get_if<Problem>(&line)) {
            return *problem;
        }
        command.lines.push_back(std::get<OrderLine>(line));
    }
    std::sort(command.lines.begin(), command.lines.end(),
              [](const OrderLine& a, const OrderLine& b) { return a.product < b.product; });
    for (std::size_t i = 1; i < command.lines.size(); ++i) {
        if (command.lines[i].product == command.lines[i - 1].product) {
            return problems::invalidOrder("product \"" + command.lines[i].product +
                                          "\" appears twice; use one line per product");
        }
    }
    return command;
}

} // namespace onceorder::server
