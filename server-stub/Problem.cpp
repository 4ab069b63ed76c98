#include "Problem.h"

#include "Json.h"

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

} // namespace onceorder::server
