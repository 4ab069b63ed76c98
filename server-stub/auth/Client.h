// Client: who a request is from, as its API key says (never its body): a client that places orders, or the operator.
#pragma once

#include <string>

namespace onceorder::server {

struct Client
{
    std::string id;
    bool isOperator = false;
};

} // namespace onceorder::server
