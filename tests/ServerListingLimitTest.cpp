// ?limit= on GET /orders and on the debug state, against the real onceorder-server process: a page is the
// listing's newest rows byte for byte, a bad limit is a 400 that changes nothing, and the totals count every row.
#include "support/EndToEndFixture.h"
#include "support/Http.h"
#include "support/Json.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <map>
#include <regex>

using namespace onceorder::test;
using onceorder::server::JsonValue;

namespace {

constexpr const char* kA = "demo-key-A";
constexpr const char* kB = "demo-key-B";
constexpr const char* kOne = R"({"product":"kniha","quantity":1})";
constexpr const char* kPay = R"({"product":"kniha","quantity":1,"payment_method":"card"})";

// The elements of a GET /orders array as the server wrote them: each order object starts with {"order_id":.
std::vector<std::string> orderElements(const std::string& array)
{
    std::vector<std::string> elements;
    const std::string start = "{\"order_id\":";
    for (auto at = array.find(start); at != std::string::npos;) {
        const auto next = array.find(start, at + 1);
        // Up to the comma before the next order, or the closing bracket of the array.
        elements.push_back(array.substr(at, (next == std::string::npos ? array.size() - 1 : next - 1) - at));
        at = next;
    }
    return elements;
}

std::string joined(const std::vector<std::string>& elements, std::size_t count)
{
    std::string out = "[";
    for (std::size_t i = 0; i < count && i < elements.size(); ++i) {
        out += (i ? "," : "") + elements[i];
    }
    return out + "]";
}

// The debug state without what other connections are doing at that moment (PostgreSQL's lock waits and open
// transactions: the run lease's heartbeat, the reaper or the completer may be in one): the rows that a refused
// request could have changed.
std::string withoutLiveActivity(const std::string& state)
{
    static const std::regex live(R"("waiting":.*?,("checkout_fault"))");
    return std::regex_replace(state, live, "$1", std::regex_constants::format_first_only);
}

JsonValue parsed(const std::string& body)
{
    auto value = onceorder::server::parseJson(body);
    EXPECT_TRUE(std::holds_alternative<JsonValue>(value)) << body.substr(0, 200);
    return std::holds_alternative<JsonValue>(value) ? std::get<JsonValue>(value) : JsonValue {};
}

// A member's text (string) or whole number, as text, for identifying rows.
std::string textOf(const JsonValue& value)
{
    if (value.isString()) {
        return std::get<std::string>(value.value);
    }
    if (value.isNumber()) {
        return std::to_string(static_cast<long long>(std::get<double>(value.value)));
    }
    return "null";
}

// The identifying member of each row of a list in the debug state, in the order listed.
std::vector<std::string> idsOf(const JsonValue& state, const std::string& list, const std::string& id)
{
    const JsonValue* rows = state.member(list);
    if (list == "gateway_charges") {
        rows = state.member("gateway") ? state.member("gateway")->member("charges") : nullptr;
    }
    EXPECT_TRUE(rows && rows->isArray()) << list;
    std::vector<std::string> ids;
    if (rows && rows->isArray()) {
        for (const auto& row : std::get<JsonValue::Array>(rows->value)) {
            ids.push_back(textOf(*row.member(id)));
        }
    }
    return ids;
}

long long total(const JsonValue& state, const std::string& list)
{
    const JsonValue* totals = state.member("totals");
    EXPECT_TRUE(totals && totals->member(list)) << list;
    return totals && totals->member(list) ? std::stoll(textOf(*totals->member(list))) : -1;
}

Reply postCheckout(httplib::Client& client, const std::string& key)
{
    return toReply(client.Post("/checkout",
                               {{"Authorization", std::string("Bearer ") + kA}, {"Idempotency-Key", "\"" + key + "\""}},
                               kPay, "application/json"));
}

// Every case on a SQLite file and on a fresh PostgreSQL database (skipped without PGHOST).
class ServerListingLimitTest : public EndToEndFixture
{
protected:
    // These tests place hundreds of orders and are not about durability (on SQLite: --synchronous normal).
    std::unique_ptr<ServerProcess> startServer() const
    {
        return EndToEndFixture::startServer(capabilities().fastWriteFlags);
    }

    long long count(const std::string& table) const { return scalar("SELECT count(*) FROM " + table); }
};

} // namespace

TEST_P(ServerListingLimitTest, OrdersLimitGivesTheNewestOrdersByteForByteAsTheFullListing)
{
    auto server = startServer();
    auto http = server->client();
    for (int i = 0; i < 7; ++i) {
        const std::string body = i % 3 == 0 ? R"({"cart_id":"cart-)" + std::to_string(i) +
                R"(","items":[{"product":"propiska","quantity":2},{"product":"hrnek","quantity":1}]})"
                                            : kOne;
        ASSERT_EQ(postOrder(*http, kA, "a" + std::to_string(i), body).status, 201);
        ASSERT_EQ(postOrder(*http, kB, "b" + std::to_string(i), kOne).status, 201) << "B's orders interleave";
    }

    const Reply full = get(*http, "/orders", kA);
    ASSERT_EQ(full.status, 200);
    const auto all = orderElements(full.body);
    ASSERT_EQ(all.size(), 7u);
    ASSERT_EQ(joined(all, all.size()), full.body) << "the splitting helper reassembles the listing";
    long long previous = std::numeric_limits<long long>::max();
    for (const auto& order : all) {
        const long long id = std::stoll(order.substr(std::string("{\"order_id\":").size()));
        EXPECT_LT(id, previous) << "newest first";
        previous = id;
    }

    for (int limit : {1, 2, 6, 7, 8, 1000}) {
        SCOPED_TRACE(limit);
        const Reply page = get(*http, "/orders?limit=" + std::to_string(limit), kA);
        EXPECT_EQ(page.status, 200);
        EXPECT_EQ(page.header("Content-Type"), "application/json");
        EXPECT_EQ(page.body, joined(all, static_cast<std::size_t>(limit)));
    }

    // cart_id and limit together: the cart's order (there is at most one), capped as asked.
    const Reply cart = get(*http, "/orders?cart_id=cart-3&limit=1", kA);
    EXPECT_EQ(cart.body, get(*http, "/orders?cart_id=cart-3", kA).body);
    EXPECT_EQ(countOf(cart.body, "\"order_id\":"), 1);
    EXPECT_EQ(get(*http, "/orders?limit=5&cart_id=no-such-cart", kA).body, "[]");
    EXPECT_EQ(get(*http, "/orders?limit=1&cart_id=cart-3", kB).body, "[]") << "A's cart is not B's";
}

TEST_P(ServerListingLimitTest, EveryOrderInALargePageCarriesItsOwnItems)
{
    auto server = startServer();
    auto http = server->client();
    // The answer to each POST is the order as GET /orders lists it; different items per order.
    const char* products[] = {"kniha", "hrnek", "propiska"};
    for (const char* product : products) {
        ASSERT_EQ(
            toReply(http->Put("/products/" + std::string(product) + "/stock",
                              {{"Authorization", "Bearer demo-key-admin"}}, R"({"stock":1000000})", "application/json"))
                .status,
            200);
    }
    std::map<long long, std::string> placed;
    for (int i = 0; i < 240; ++i) {
        std::string body = R"({"items":[{"product":")" + std::string(products[i % 3]) + R"(","quantity":)" +
            std::to_string(i % 4 + 1) + "}";
        if (i % 5 == 0) {
            body += R"(,{"product":")" + std::string(products[(i + 1) % 3]) + R"(","quantity":)" +
                std::to_string(i % 7 + 1) + "}";
        }
        body += "]}";
        const Reply created = postOrder(*http, kA, "k" + std::to_string(i), body);
        ASSERT_EQ(created.status, 201) << created.body;
        placed[std::stoll(created.field("order_id"))] = created.body;
    }
    const Reply page = get(*http, "/orders?limit=1000", kA);
    const auto listed = orderElements(page.body);
    ASSERT_EQ(static_cast<long long>(listed.size()), count("orders"));
    ASSERT_EQ(listed.size(), 240u);
    for (const auto& order : listed) {
        const long long id = std::stoll(order.substr(std::string("{\"order_id\":").size()));
        ASSERT_TRUE(placed.count(id)) << order;
        EXPECT_EQ(order, placed[id]) << "order " << id << " lists its own items";
    }
    EXPECT_EQ(page.body, get(*http, "/orders", kA).body);
    EXPECT_EQ(get(*http, "/orders?limit=25", kA).body, joined(listed, 25));
}

TEST_P(ServerListingLimitTest, BadLimitsAreRefusedWithInvalidLimitAndChangeNothing)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postOrder(*http, kA, "k1", kOne).status, 201);
    const std::string before = withoutLiveActivity(get(*http, "/_debug/state").body);
    ASSERT_EQ(before.find("\"transactions\""), std::string::npos) << before.substr(0, 400);
    ASSERT_NE(before.find("\"checkout_fault\""), std::string::npos) << before.substr(0, 400);

    for (const std::string limit : {"0", "1001", "-1", "abc", "", "1.5", "01", "%2B5", "99999999999", "5&limit=6"}) {
        SCOPED_TRACE("limit=" + limit);
        for (const Reply& refused :
             {get(*http, "/orders?limit=" + limit, kA), get(*http, "/orders?cart_id=c&limit=" + limit, kA),
              get(*http, "/_debug/state?limit=" + limit),
              postJson(*http, "/_debug/faults?limit=" + limit, R"({"fault":"unavailable"})"),
              postJson(*http, "/_debug/mode?limit=" + limit, R"({"unscoped_keys":true})"),
              postJson(*http, "/_debug/reset?limit=" + limit, "{}")}) {
            EXPECT_EQ(refused.status, 400);
            EXPECT_EQ(refused.problemType(), "/problems/invalid-limit");
            EXPECT_EQ(refused.header("Content-Type"), "application/problem+json");
        }
    }
    EXPECT_EQ(withoutLiveActivity(get(*http, "/_debug/state").body), before)
        << "no fault armed, no mode set, nothing reset";
    EXPECT_EQ(postOrder(*http, kA, "k2", kOne).status, 201) << "no fault was armed";
    EXPECT_EQ(get(*http, "/orders?limit=1000", "").status, 401) << "authentication comes first";
}

TEST_P(ServerListingLimitTest, DebugStateLimitKeepsTheNewestRowsOfEachListAndTotalsCountThemAll)
{
    auto server = startServer();
    auto http = server->client();
    for (int i = 0; i < 5; ++i) {
        ASSERT_EQ(postOrder(*http, kA, "k" + std::to_string(i), kOne).status, 201);
        ASSERT_EQ(postCheckout(*http, "c" + std::to_string(i)).status, 201);
    }
    // The gateway delivers its webhooks on a thread of its own, after the checkouts answered.
    ASSERT_TRUE(waitUntil([&] { return count("webhook_events") == 5; }));

    const std::map<std::string, std::string> lists {{"keys", "idem_key"},           {"orders", "order_id"},
                                                    {"checkout_keys", "id"},        {"payments", "charge_id"},
                                                    {"webhook_events", "event_id"}, {"gateway_charges", "charge_id"}};
    const JsonValue full = parsed(get(*http, "/_debug/state").body);
    EXPECT_EQ(total(full, "keys"), count("idempotency_keys"));
    EXPECT_EQ(total(full, "orders"), count("orders"));
    EXPECT_EQ(total(full, "checkout_keys"), count("checkout_keys"));
    EXPECT_EQ(total(full, "payments"), count("payments"));
    EXPECT_EQ(total(full, "webhook_events"), count("webhook_events"));
    EXPECT_EQ(total(full, "gateway_charges"), gatewayScalar("SELECT count(*) FROM gateway_charges"));
    EXPECT_EQ(total(full, "orders"), 10);
    EXPECT_EQ(total(full, "gateway_charges"), 5);
    for (const auto& [list, id] : lists) {
        EXPECT_EQ(static_cast<long long>(idsOf(full, list, id).size()), total(full, list))
            << list << ": without a limit every row is listed";
    }

    for (int limit : {1, 3, 1000}) {
        SCOPED_TRACE(limit);
        const Reply reply = get(*http, "/_debug/state?limit=" + std::to_string(limit));
        ASSERT_EQ(reply.status, 200);
        const JsonValue page = parsed(reply.body);
        for (const auto& [list, id] : lists) {
            const auto all = idsOf(full, list, id);
            const std::size_t kept = std::min(all.size(), static_cast<std::size_t>(limit));
            EXPECT_EQ(idsOf(page, list, id),
                      std::vector<std::string>(all.end() - static_cast<std::ptrdiff_t>(kept), all.end()))
                << list << ": the newest rows, oldest first as in the full list";
            EXPECT_EQ(total(page, list), total(full, list)) << list;
        }
        EXPECT_TRUE(page.member("products") && std::get<JsonValue::Array>(page.member("products")->value).size() == 3)
            << "products are never capped";
    }

    // The state the other debug routes answer: capped the same way when asked, complete otherwise.
    const JsonValue armed = parsed(postJson(*http, "/_debug/faults?limit=2", R"({"fault":"none"})").body);
    EXPECT_EQ(idsOf(armed, "orders", "order_id").size(), 2u);
    EXPECT_EQ(total(armed, "orders"), 10);
    EXPECT_EQ(idsOf(parsed(postJson(*http, "/_debug/mode", "{}").body), "orders", "order_id").size(), 10u);
    const JsonValue reset = parsed(postJson(*http, "/_debug/reset?limit=2", "{}").body);
    EXPECT_EQ(total(reset, "orders"), 0);
    EXPECT_EQ(total(reset, "gateway_charges"), 0);
}

INSTANTIATE_TEST_SUITE_P(Databases, ServerListingLimitTest, kEveryDatabase, backendName);
