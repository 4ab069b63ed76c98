// Finding 2 of issue 14, end to end over raw sockets: header values are taken byte for byte. Distinct keys on the
// wire never collapse into one stored key (no percent-decoding, no cut at a NUL, the length counted on what was
// sent); two Idempotency-Key or Authorization headers are refused, not silently resolved to the first.
#include "support/RawHttp.h"
#include "support/ServerProcess.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <regex>

using namespace onceorder::test;

namespace {

class ServerHeaderBytesTest : public ::testing::Test
{
protected:
    // One request on a fresh connection: the raw response.
    std::string send(const std::string& request)
    {
        RawConnection connection(server.port());
        EXPECT_TRUE(connection.valid());
        EXPECT_TRUE(connection.send(request));
        return connection.readResponse();
    }
    std::string order(const std::vector<std::string>& headerLines) { return send(rawOrder(headerLines)); }
    std::string orderWithKey(const std::string& keyValue)
    {
        return order(
            {"Authorization: Bearer demo-key-A", "Idempotency-Key: " + keyValue, "Content-Type: application/json"});
    }
    static std::string typeOf(const std::string& response)
    {
        std::smatch match;
        const std::string body = bodyOf(response);
        return std::regex_search(body, match, std::regex("\"type\":\"([^\"]*)\"")) ? match[1].str() : std::string();
    }
    static std::string orderIdOf(const std::string& response)
    {
        std::smatch match;
        const std::string body = bodyOf(response);
        return std::regex_search(body, match, std::regex("\"order_id\":([0-9]+)")) ? match[1].str() : std::string();
    }
    static bool replayed(const std::string& response)
    {
        return response.find("Idempotent-Replayed: true") != std::string::npos;
    }
    std::vector<std::string> storedKeys()
    {
        SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        SQLite::Statement query(db, "SELECT idem_key FROM idempotency_keys ORDER BY idem_key");
        std::vector<std::string> keys;
        while (query.executeStep()) {
            keys.push_back(query.getColumn(0).getString());
        }
        return keys;
    }
    int orders()
    {
        SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        return db.execAndGet("SELECT count(*) FROM orders").getInt();
    }

    TempDir dir;
    std::string dbPath = dir.file("server.db");
    ServerProcess server {{"--db", dbPath}};
};

} // namespace

TEST_F(ServerHeaderBytesTest, APercentEscapeIsNotDecoded)
{
    const std::string first = orderWithKey("k1");
    const std::string second = orderWithKey("k%31");
    EXPECT_EQ(statusOf(first), 201);
    EXPECT_EQ(statusOf(second), 201);
    EXPECT_FALSE(replayed(second)) << "k%31 is not k1";
    EXPECT_NE(orderIdOf(first), orderIdOf(second));
    EXPECT_EQ(storedKeys(), (std::vector<std::string> {"k%31", "k1"}));
}

TEST_F(ServerHeaderBytesTest, AnEscapedNulNeitherCutsNorMergesKeys)
{
    const std::string first = orderWithKey("x%00a");
    const std::string second = orderWithKey("x%00b");
    EXPECT_EQ(statusOf(first), 201);
    EXPECT_EQ(statusOf(second), 201);
    EXPECT_FALSE(replayed(second));
    EXPECT_EQ(orders(), 2) << "x%00b places its own order";
    EXPECT_EQ(storedKeys(), (std::vector<std::string> {"x%00a", "x%00b"}));
}

TEST_F(ServerHeaderBytesTest, ARawNulIsRefusedAndStoresNothing)
{
    const std::string response = orderWithKey(std::string("x\0a", 3));
    EXPECT_EQ(statusOf(response), 400);
    EXPECT_EQ(typeOf(response), "/problems/invalid-idempotency-key");
    EXPECT_EQ(orders(), 0);
}

TEST_F(ServerHeaderBytesTest, TheLengthLimitCountsTheBytesSent)
{
    const std::string response = orderWithKey(std::string(253, 'a') + "%41%41"); // 259 characters on the wire
    EXPECT_EQ(statusOf(response), 400);
    EXPECT_EQ(typeOf(response), "/problems/invalid-idempotency-key");
    EXPECT_NE(bodyOf(response).find("259 characters"), std::string::npos) << bodyOf(response);
    EXPECT_EQ(statusOf(orderWithKey(std::string(255, 'a'))), 201) << "255 is still fine";
}

TEST_F(ServerHeaderBytesTest, TwoIdempotencyKeyHeadersAreRefused)
{
    for (const auto& second : {"\"k-2\"", "\"k-1\""}) {
        const std::string response =
            order({"Authorization: Bearer demo-key-A", "Idempotency-Key: \"k-1\"",
                   std::string("Idempotency-Key: ") + second, "Content-Type: application/json"});
        EXPECT_EQ(statusOf(response), 400) << second;
        EXPECT_EQ(typeOf(response), "/problems/invalid-idempotency-key") << second;
        EXPECT_NE(bodyOf(response).find("2 Idempotency-Key headers"), std::string::npos) << bodyOf(response);
    }
    // Names compare case-insensitively, so a lower-case twin is the same header twice.
    const std::string response = order({"Authorization: Bearer demo-key-A", "Idempotency-Key: \"k-1\"",
                                        "idempotency-key: \"k-1\"", "Content-Type: application/json"});
    EXPECT_EQ(statusOf(response), 400);
    EXPECT_EQ(storedKeys(), std::vector<std::string> {}) << "nothing stored, the key stays unused";
    EXPECT_EQ(statusOf(orderWithKey("\"k-1\"")), 201);
}

TEST_F(ServerHeaderBytesTest, TheAuthorizationHeaderIsTakenByteForByteAndOnlyOnce)
{
    const std::vector<std::string> rest {"Idempotency-Key: \"auth\"", "Content-Type: application/json"};
    auto with = [&](std::vector<std::string> lines) {
        lines.insert(lines.end(), rest.begin(), rest.end());
        return order(lines);
    };
    EXPECT_EQ(typeOf(with({"Authorization: Bearer demo%2Dkey%2DA"})), "/problems/unknown-api-key")
        << "an escaped API key is not the key";
    const std::string twice = with({"Authorization: Bearer demo-key-A", "Authorization: Bearer demo-key-B"});
    EXPECT_EQ(statusOf(twice), 401);
    EXPECT_EQ(typeOf(twice), "/problems/unauthenticated");
    EXPECT_EQ(typeOf(with({"Authorization: Bearer demo-key-A", "Content-Type: text/plain"})),
              "/problems/unsupported-media-type")
        << "two Content-Types are not JSON";
    EXPECT_EQ(typeOf(order({"Authorization: Bearer demo-key-A", "Idempotency-Key: \"auth\"",
                            "Content-Type: application%2Fjson"})),
              "/problems/unsupported-media-type");
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(statusOf(with({"Authorization: Bearer demo-key-A"})), 201);
}
