// RoutePatternTest: the router's segment matcher. It replaced std::regex, whose libstdc++ implementation recursed once
// per character: a path of about 26,000 characters overflowed the I/O thread's stack and killed the server. The
// matcher's work is bounded by the path's length, so it runs on a thread with a small stack whatever the path holds.
#include "routes/RoutePattern.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <string>
#include <vector>

using onceorder::server::RoutePattern;

namespace {

using Captured = std::optional<std::vector<std::string>>;

Captured match(const char* pattern, const std::string& path)
{
    return RoutePattern(pattern).match(path);
}

} // namespace

TEST(RoutePatternTest, LiteralSegmentsMatchExactly)
{
    EXPECT_EQ(match("/orders", "/orders"), Captured(std::vector<std::string> {"/orders"}));
    for (const char* other : {"/orders/", "/order", "/ordersx", "orders", "", "/", "//orders", "/Orders"}) {
        EXPECT_FALSE(match("/orders", other)) << other;
    }
    EXPECT_TRUE(match("/_debug/state", "/_debug/state"));
    EXPECT_FALSE(match("/_debug/state", "/_debug/state/x"));
}

TEST(RoutePatternTest, ACaptureTakesOneNonEmptySegment)
{
    EXPECT_EQ(match("/orders/{id}", "/orders/42"), Captured(std::vector<std::string> {"/orders/42", "42"}));
    EXPECT_FALSE(match("/orders/{id}", "/orders/"));
    EXPECT_FALSE(match("/orders/{id}", "/orders"));
    EXPECT_FALSE(match("/orders/{id}", "/orders/4/2"));
    EXPECT_EQ(match("/products/{id}/stock", "/products/kniha/stock"),
              Captured(std::vector<std::string> {"/products/kniha/stock", "kniha"}));
    EXPECT_FALSE(match("/products/{id}/stock", "/products//stock"));
    EXPECT_FALSE(match("/products/{id}/stock", "/products/kniha/stock/"));
    EXPECT_FALSE(match("/products/{id}/stock", "/products/a/b/stock"));
    // Bytes are bytes: a decoded NUL or a non-ASCII byte is part of the segment, never an end.
    const std::string odd = std::string("/orders/a\0b\xff", 12);
    EXPECT_EQ(match("/orders/{id}", odd), Captured(std::vector<std::string> {odd, std::string("a\0b\xff", 4)}));
}

TEST(RoutePatternTest, AMegabytePathIsMatchedOnA128KiBStack)
{
    // std::regex_match on "/orders/([^/]+)" needed far more than this for a path of 26,000 characters.
    struct Job
    {
        std::string path;
        bool matched = false;
        std::size_t captured = 0;
    } job {"/orders/" + std::string(1 << 20, '7')};
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    ASSERT_EQ(pthread_attr_setstacksize(&attributes, 128 * 1024), 0);
    pthread_t thread;
    ASSERT_EQ(pthread_create(
                  &thread, &attributes,
                  [](void* argument) -> void* {
                      auto* work = static_cast<Job*>(argument);
                      const auto captured = RoutePattern("/orders/{id}").match(work->path);
                      work->matched = captured.has_value();
                      work->captured = captured ? (*captured)[1].size() : 0;
                      return nullptr;
                  },
                  &job),
              0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attributes);
    EXPECT_TRUE(job.matched);
    EXPECT_EQ(job.captured, std::size_t {1} << 20);
}
