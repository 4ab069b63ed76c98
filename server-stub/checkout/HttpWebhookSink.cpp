#include "checkout/HttpWebhookSink.h"

// cpp-httplib's client, whichever library serves our HTTP: the tests depend on this client anyway (no new
// package), and the outbox needs nothing more than one blocking POST with timeouts on its own thread.
#include <httplib.h>

namespace onceorder::server {

WebhookOutbox::Sink httpWebhookSink(std::string host, int port)
{
    return [host = std::move(host), port](const std::string& body, const std::string& signature) {
        httplib::Client client(host, port);
        client.set_connection_timeout(2, 0);
        client.set_read_timeout(5, 0);
        auto result = client.Post("/webhooks/payments", {{"Gateway-Signature", signature}}, body, "application/json");
        return result && result->status >= 200 && result->status < 300;
    };
}

} // namespace onceorder::server
