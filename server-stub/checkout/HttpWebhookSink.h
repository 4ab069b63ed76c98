// HttpWebhookSink: how the stub gateway's outbox reaches POST /webhooks/payments: over HTTP, to this very server,
// as an outside gateway would. A blocking client is fine here: it runs on the outbox's own thread only.
#pragma once

#include "checkout/WebhookOutbox.h"

#include <string>

namespace onceorder::server {

// Posts each webhook to http://host:port/webhooks/payments; acknowledged means a 2xx within the timeouts.
WebhookOutbox::Sink httpWebhookSink(std::string host, int port);

} // namespace onceorder::server
