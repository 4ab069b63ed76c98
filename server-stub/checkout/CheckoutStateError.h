// CheckoutStateError: a checkout_keys row is not as the phases left it (it vanished between two statements of one
// transaction, or a charged checkout's order is missing). Nothing was committed from the failed phase; the request is
// answered 503 like a transient database failure, its lock let go, and a retry (or the completer) looks again.
#pragma once

#include <stdexcept>

namespace onceorder::server {

class CheckoutStateError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace onceorder::server
