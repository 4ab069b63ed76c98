#include "checkout/HttpWebhookSink.h"

// cpp-httplib's client, not the server's HTTP library: the tests already depend on this client, and the outbox
// needs nothing more than one blocking POST with timeouts.
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
