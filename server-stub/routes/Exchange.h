// Exchange: what a handler tells the request log besides the status (who asked, with which key, what came of it),
// and the two ways every handler answers: JSON, or problem+json with the problem's cause as the outcome.
#pragma once

#include "support/Problem.h"
#include "transport/HttpRequest.h"
#include "transport/HttpResponse.h"

#include <functional>
#include <string>

namespace onceorder::server {

struct Exchange
{
    std::string client = "-";
    std::string key = "-";
    std::string outcome;
    // The answer is a 503 for a failure the same work gets past at once (Problem::rerunnable): HttpApi runs this
    // request once more, with a fresh answer and exchange, before it is answered.
    bool rerunnable = false;
};

// A route's handler: answers into the response and tells the exchange what came of it. It may block (SQLite): HttpApi
// runs it on a request worker, never on an I/O thread.
using Handler = std::function<void(const HttpRequest&, HttpResponse&, Exchange&)>;

void answer(HttpResponse& res, int status, const std::string& json);
void answer(HttpResponse& res, const Problem& problem, Exchange& exchange);

} // namespace onceorder::server
