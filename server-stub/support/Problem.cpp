#include "support/Problem.h"

#include "support/Json.h"

#include <cstdio>

namespace onceorder::server {

std::string Problem::body() const
{
    JsonObjectWriter writer;
    writer.str("type", "/problems/" + slug).str("title", title).num("status", status).str("detail", detail);
    if (orderId) {
        writer.num("order_id", *orderId);
    }
    return writer.finish();
}

std::string databaseFailure(const std::exception& error)
{
    std::fprintf(stderr, "database error: %s\n", error.what());
    return "the database could not complete the request";
}

} // namespace onceorder::server
