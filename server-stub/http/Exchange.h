// Exchange: what a handler tells the request log besides the status (who asked, with which key, what came of it),
// and the two ways every handler answers: JSON, or problem+json with the problem's cause as the outcome.
#pragma once

#include "support/Problem.h"

#include <functional>
#include <string>

namespace httplib {
struct Request;
struct Response;
} // namespace httplib

namespace onceorder::server {

struct Exchange
{
    std::string client = "-";
    std::string key = "-";
    std::string outcome;
};

// A route's handler: answers into the response and tells the exchange what came of it.
using Handler = std::function<void(const httplib::Request&, httplib::Response&, Exchange&)>;

void answer(httplib::Response& res, int status, const std::string& json);
void answer(httplib::Response& res, const Problem& problem, Exchange& exchange);

} // namespace onceorder::server
