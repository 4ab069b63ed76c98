// CheckoutCompleter: finishes the checkouts nobody works on any more (the client never came back, the process that
// held the row died). It takes each such key row over, exactly as a retry would, and lets the CheckoutService resume
// it after its last committed phase. OrderServer runs a pass every completer interval; so does POST /debug/complete.
#pragma once

#include "checkout/CheckoutKey.h"

#include <optional>

namespace onceorder::server {

class CheckoutService;

class CheckoutCompleter
{
public:
    explicit CheckoutCompleter(CheckoutService& checkout);

    // What one pass did: how many requests reached their final answer, and how many rows it had to skip because of
    // an error (logged; each is tried again after the lock timeout).
    struct Pass
    {
        int completed = 0;
        int failed = 0;
    };
    // Finishes up to `limit` requests nobody works on (unlocked, or locked for longer than the lock timeout, or by a
    // run whose lease has expired), each on its own: an error on one row is counted and the pass goes on.
    Pass completeAbandoned(int limit = 100);

private:
    // Locks the row for this process if nobody holds it (in its own transaction); nothing if someone got there first.
    std::optional<CheckoutKey> takeOver(long long rowId);

    CheckoutService& m_checkout;
};

} // namespace onceorder::server
