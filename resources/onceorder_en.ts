<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CliRunner</name>
    <message>
        <source>%1 (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 wants a whole number from %2 to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Places orders exactly once, from a terminal.

Commands:
  submit   order --quantity of --product (one cart) and wait for the outcome
  resume   finish the pending submissions a crashed run left behind
  status   list every submission in the state folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows this help.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows the version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Product to order (submit).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantity (submit); default 1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pay now with this method, e.g. card (submit): the order goes through POST /checkout, with the payment gateway in the middle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give up retrying after this many seconds (default 900).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backoff base (default 500).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backoff cap (default 30000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-attempt transfer timeout (default 10000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>submit, resume or status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected one command: submit, resume or status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>submit needs --product P and a positive --quantity N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--pay needs a payment method, e.g. --pay card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing pending to resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cart id (submit); default a new one. A cart id names one order: submitting one that is still pending retries it with its key; one already placed answers with its order and sends nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order the lines as a new cart with a new cart id (submit), even when --cart-id names a cart already placed: on purpose, one more order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart %1 is already placed (order %2); nothing was sent. To order the same lines once more, submit them with --new-cart-id</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>asking the server whether it holds an order for %n cart(s) whose outcome is not confirmed</source>
        <translation>
            <numerusform>asking the server whether it holds an order for %n cart whose outcome is not confirmed</numerusform>
            <numerusform>asking the server whether it holds an order for %n carts whose outcome is not confirmed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ClientOptions</name>
    <message>
        <source>Use the server at URL instead of starting the bundled one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key (client identity); default demo-key-A.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder of the client&apos;s state database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language: en or cs (default: the system&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--server wants an http:// or https:// URL, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--api-key must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--lang wants en or cs, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play teaching scenarios headless, without a window: a scenario id, all, or list (prints the ids).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --scenario: also write each scenario&apos;s table (.md, .csv) and chart (.png, .svg) into DIR.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--export-dir applies only with --scenario</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HttpReplyText</name>
    <message>
        <source>The body is not valid JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The body must be JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The body is too large</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Internal server error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The operator places no orders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the operator may set stock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debug endpoints answer only loopback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debug endpoints refuse other origins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debug endpoints answer only a loopback Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One Host header required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The body&apos;s framing cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request target is too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request&apos;s header fields are too large</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transfer coding not implemented</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many connections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many bodies in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debug POSTs take a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency-Key required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid Idempotency-Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency-Key reused with another payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A request with this key is still in progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The order is not valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown product</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid payment method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid stock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cart has already been ordered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not enough stock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The payment was declined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The service is unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporary failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The payment gateway did not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The payment gateway is unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid webhook event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid webhook signature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown payment reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid replication setting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the stock on hand can be ordered; &quot;%1&quot; has fewer than %2 pieces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart &quot;%1&quot; was ordered as order %2 under another Idempotency-Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no product &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the payment gateway declined the payment; the order was cancelled and nothing was charged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this key was first used for a different request; a retry must send exactly the same command, a new order needs a new key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first request with this Idempotency-Key has not finished; retry later with the same key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server is refusing work for a moment (injected fault); retry later with the same key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the database cannot be reached or is busy for a moment; nothing was changed, retry later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server is as busy as it can be; try again in a moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a temporary failure; what was done so far is kept, retry with the same key to continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a temporary failure; the whole transaction was rolled back, retry with the same key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the payment gateway failed; what was done so far is kept, retry with the same key to continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the request needs an Idempotency-Key header (one per cart, reused on every retry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>equal jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decorrelated jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer came.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server refused the connection: nothing listens at its address (is it running?). Nothing was sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s name could not be found. Nothing was sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No connection within the time allowed. Nothing was sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer within the time allowed: the server may have received the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server closed the connection without an answer: it may have received the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection broke before the answer arrived: the server may have received the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client stopped before the answer arrived: the server may have received the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The attempt was cancelled before its answer arrived: the server may have received the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secure connection failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No final answer came, only an interim one: the server may have received the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer could not be read: the server may have placed the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished">HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation type="unfinished">HTTP %1: %2</translation>
    </message>
    <message>
        <source>HTTP %1 %2: %3</source>
        <translation type="unfinished">HTTP %1 %2: %3</translation>
    </message>
    <message>
        <source>backoff after attempt %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server said Retry-After %1 s, capped at %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server said Retry-After %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the retry window of %1 s is over; the key must not outlive the server&apos;s memory of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the retry window is over (it ended %1); the key must not outlive the server&apos;s memory of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a definitive failure: retrying cannot succeed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed</source>
        <translation type="unfinished">placed</translation>
    </message>
    <message>
        <source>rejected: a definitive answer is never retried</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>still in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already placed under another key</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplyInterpreter</name>
    <message>
        <source>HTTP %1 without an order of this cart in its body: what the server did is unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1 that is not the server&apos;s problem answer (a proxy&apos;s page?): what the server did is unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StateFolderLock</name>
    <message>
        <source>Cannot create the state folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write a lock file in the state folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another OnceOrder window (process %1) is already using the state folder %2: two windows on one folder would share one outbox and one server database. Switch to that window, or start this one with a folder of its own, e.g. --state %2-B --api-key demo-key-B for client B.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::BundledServer</name>
    <message>
        <source>cannot start %1: %2</source>
        <translation>cannot start %1: %2</translation>
    </message>
    <message>
        <source>the server exited before it was ready:
%1</source>
        <translation>the server exited before it was ready:
%1</translation>
    </message>
    <message>
        <source>unexpected first line from the server: %1</source>
        <translation>unexpected first line from the server: %1</translation>
    </message>
    <message>
        <source>the server died 10 times within a minute; it is not restarted again</source>
        <translation>the server died 10 times within a minute; it is not restarted again</translation>
    </message>
</context>
<context>
    <name>onceorder::core::CartReadBack</name>
    <message>
        <source>reconciled: the server has order %1, its payment not finished yet; the server completes it, reconcile again in a few seconds</source>
        <translation>reconciled: the server has order %1, its payment not finished yet; the server completes it, reconcile again in a few seconds</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1, cancelled because the payment failed</source>
        <translation>reconciled: the server has order %1, cancelled because the payment failed</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1 for this cart</source>
        <translation>reconciled: the server has order %1 for this cart</translation>
    </message>
    <message>
        <source>reconciled, placed after all: the server has order %1 for this cart</source>
        <translation>reconciled, placed after all: the server has order %1 for this cart</translation>
    </message>
    <message>
        <source>reconciled: the server has no order for this cart; nothing was placed</source>
        <translation>reconciled: the server has no order for this cart; nothing was placed</translation>
    </message>
    <message>
        <source>the server duplicated this cart: it holds orders %1 and %2 for cart %3, which this client submitted as one order; cancel one of them with the shop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already placed: the server holds order %1 for this cart from an earlier submission whose answer never came; its payment is not finished yet, the server completes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already placed: the server holds order %1 for this cart from an earlier submission whose answer never came; not sent again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart %1 was already ordered as order %2 with other lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already placed: the server holds order %1 for this cart, placed under an earlier key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the order the server named (%1) is not an order of this cart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the order the server named (%1) could not be read back: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::CliProgress</name>
    <message>
        <source>no order (%1) after %2 s; attempts made: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped because: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished">HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation type="unfinished">HTTP %1: %2</translation>
    </message>
    <message>
        <source>no connection to %1 within the time allowed (nothing was sent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer from %1 within the time allowed; the server may have received the order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection refused: nothing accepts connections at %1 (is the server running?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host not found: %1 does not resolve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection to %1 closed without an answer; the server may have received the order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the secure connection to %1 failed (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (cart %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting to send the order%1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for an order%1 from %2: attempt %3 is on its way; the attempt before it failed: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for an order%1 from %2: attempt %3 failed: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1 in %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gives up at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for the bundled onceorder-server to start (%1 s so far)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server duplicated cart %1: it holds two orders for it, %2 and %3, although this client sent it as one order with one key; cancel one of them with the shop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for %1 to answer attempt %2%3 (sent %4 s ago; %5 s without a byte, or %6 s in all, ends the attempt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1%2 was answered &quot;cart already ordered&quot;: asking %3 for the order it named (bounded by the attempt and the retry window)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::ClientSession</name>
    <message>
        <source>the network conditioner cannot listen on loopback</source>
        <translation>the network conditioner cannot listen on loopback</translation>
    </message>
</context>
<context>
    <name>onceorder::core::DebugControls</name>
    <message>
        <source>Disarm the server&apos;s fault</source>
        <translation>Disarm the server&apos;s fault</translation>
    </message>
    <message>
        <source>Reset the server</source>
        <translation>Reset the server</translation>
    </message>
    <message>
        <source>Kill the server</source>
        <translation>Kill the server</translation>
    </message>
    <message>
        <source>the server is external; only the bundled one can be killed</source>
        <translation>the server is external; only the bundled one can be killed</translation>
    </message>
    <message>
        <source>Run the completer</source>
        <translation>Run the completer</translation>
    </message>
    <message numerus="yes">
        <source>the completer finished %n abandoned checkout(s)</source>
        <translation>
            <numerusform>the completer finished %n abandoned checkout</numerusform>
            <numerusform>the completer finished %n abandoned checkouts</numerusform>
        </translation>
    </message>
    <message>
        <source>Arm “%1” × %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” off</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::HttpExchange</name>
    <message>
        <source>no data for %1 ms (transfer timeout)</source>
        <translation>no data for %1 ms (transfer timeout)</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>aborted</translation>
    </message>
    <message>
        <source>libcurl could not be initialised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answer is larger than %1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answer&apos;s Content-Length cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no final answer: the exchange ended after an interim HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::NetworkConditioner</name>
    <message>
        <source>refused %1: offline</source>
        <translation>refused %1: offline</translation>
    </message>
    <message>
        <source>dropped the request %1 before it reached the server</source>
        <translation>dropped the request %1 before it reached the server</translation>
    </message>
    <message>
        <source>blackholed %1: no answer will come</source>
        <translation>blackholed %1: no answer will come</translation>
    </message>
    <message>
        <source>delayed %1 by %2 ms each way</source>
        <translation>delayed %1 by %2 ms each way</translation>
    </message>
    <message>
        <source>forwarded %1</source>
        <translation>forwarded %1</translation>
    </message>
    <message>
        <source>flaky: dropped the response to %1</source>
        <translation>flaky: dropped the response to %1</translation>
    </message>
    <message>
        <source>dropped the response to %1 (the server has processed it)</source>
        <translation>dropped the response to %1 (the server has processed it)</translation>
    </message>
    <message>
        <source>the server closed the connection without answering %1</source>
        <translation>the server closed the connection without answering %1</translation>
    </message>
    <message>
        <source>could not reach the server at %1 for %2: %3</source>
        <translation>could not reach the server at %1 for %2: %3</translation>
    </message>
    <message numerus="yes">
        <source>offline: cut %n open connection(s)</source>
        <translation>
            <numerusform>offline: cut %n open connection</numerusform>
            <numerusform>offline: cut %n open connections</numerusform>
        </translation>
    </message>
    <message>
        <source>cut the response to %1: it is larger than the client accepts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioContext</name>
    <message>
        <source>cannot create a temporary folder: %1</source>
        <translation>cannot create a temporary folder: %1</translation>
    </message>
    <message>
        <source>the network conditioner cannot listen on loopback</source>
        <translation>the network conditioner cannot listen on loopback</translation>
    </message>
    <message>
        <source>GET /_debug/state answered %1</source>
        <translation>GET /_debug/state answered %1</translation>
    </message>
    <message>
        <source>POST /_debug/%1 answered %2</source>
        <translation>POST /_debug/%1 answered %2</translation>
    </message>
    <message>
        <source>unexpected first line from the extra server: %1</source>
        <translation>unexpected first line from the extra server: %1</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>cannot start %1: %2</translation>
    </message>
    <message>
        <source>no response: %1</source>
        <translation>no response: %1</translation>
    </message>
    <message>
        <source>connection closed</source>
        <translation>connection closed</translation>
    </message>
    <message>
        <source> order %1</source>
        <translation> order %1</translation>
    </message>
    <message>
        <source> (replayed)</source>
        <translation> (replayed)</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioResult</name>
    <message>
        <source>PASS</source>
        <translation type="unfinished">PASS</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation type="unfinished">FAIL</translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>orders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not finish:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**%1** in %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OnceOrder teaching scenarios</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary: %1/%2 scenarios passed in %3 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder: --%1 does not apply to --scenario: every scenario runs on a fresh temporary state with its own bundled server and demo clients.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder: unknown scenario &quot;%1&quot;; known: all, list, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder: --scenario needs a name; known: all, list, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder: cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder: %1 table(s) could not be written to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder: no PostgreSQL here (ONCEORDER_POSTGRES_URI or PGHOST): the PostgreSQL scenarios are left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioRunner</name>
    <message>
        <source>timed out after %1 ms in step %2 of %3</source>
        <translation>timed out after %1 ms in step %2 of %3</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioText</name>
    <message>
        <source>The article&apos;s table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s rules in six requests. The first request with a key places an order and stores the answer; the same key with the same data (even with the fields in another order) gets the stored answer back, marked Idempotent-Replayed; the same key with other data is refused with 422 and nothing changes; another client&apos;s K1 is its own key (keys are scoped per client); a POST without a key is refused before anything is stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /orders, K1, kniha × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201, a new order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: the same again, K1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 order 1 replayed, no new order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: K1, same data, fields in another order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 order 1 replayed (same fingerprint)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: K1, kniha × 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>422 idempotency-key-reused, nothing changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: POST /orders, K1, kniha × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201, B&apos;s own order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /orders without Idempotency-Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>400 missing-idempotency-key, nothing stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double click</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An impatient user clicks twice: two requests with one key reach the server at the same moment. The key row is the transaction&apos;s first write and duplicates queue behind the writer lock, so the second request waits, then finds the stored answer: one order, and both clicks see the same order id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: 2 × POST /orders, one key, at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 and 201 replayed, one order id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server commits the order but its answer is lost on the way back (the conditioner drops it). The client cannot tell this from a request that never arrived, so it retries with the same key: the server recognises the key and replays the stored answer. One order, and the client learns its id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next answer is dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client&apos;s submission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed by a replayed retry, one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client crash after sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder-cli stores the key and the exact request bytes before sending, then is killed (SIGKILL) right after the request went out. Whether the order exists is unknown to it. On restart, `onceorder-cli resume` sends the stored request again with the stored key: if the server had placed it, the answer is a replay; either way there is exactly one order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder-cli submit, killed after send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed, no answer read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exited normally</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed; 0 or 1 orders: the client cannot know</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>onceorder-cli resume, the stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed (replayed if the first one got through), one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server crash before and after commit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server process dies in the middle of a request. Before the commit, SQLite rolls the whole transaction back: no order, no key; the client&apos;s retry (after the server has restarted) places it as new. After the commit, the order and its stored answer survive: the retry is a replay. Either way the cart becomes exactly one order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server will die before its next commit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart 1 submitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed as new (not replayed), one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server will die after its next commit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart 2 submitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed by a replay, two orders in all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 paid of %2 orders, gateway charges %3, payments %4, webhook events [%5]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A payment gateway in the middle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One transaction cannot span a call to a payment gateway, so POST /checkout runs as atomic phases, each committing a recovery point. While the first request waits for a slow gateway, a retry with the same key is told 409 request-in-progress instead of paying twice. When the server dies after the gateway charged but before our phase committed, the retry resumes from the recovery point and the gateway, asked again under the same key, returns the charge it already made: one order, one charge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the gateway answers after 1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: the same checkout again, 0.3 s later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>409 request-in-progress with Retry-After</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-1, kniha × 1 (slow gateway)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 paid; one order, one charge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server dies after the next charge, before phase 2 commits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-2, hrnek × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer: the server died between the phases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: retry pay-2 after the restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 paid, resumed at the recovery point; 2 orders, 2 charges in all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A webhook delivered twice; two events for one change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gateways deliver webhooks at least once: the same event may come twice, and one change may be reported by two events with different ids. The server records each event id first (a repeated id is a duplicate and does nothing) and makes the effect idempotent on the data (one payment per charge, pending → paid only once), so the order is paid once either way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the gateway will deliver the next event twice, same id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-w1 (event delivered twice)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 paid; one event row, one payment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the gateway will send two events with different ids for the next charge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-w2 (twin events)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 paid; the twin changes nothing: 2 orders, 2 payments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms after the cut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what a recovering server can take (assumed: %1 per 100 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: retries per 100 ms after the cut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 requests cut at once, %3 s outage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 placed, %2 retries, at most %3 within %4 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new key for every retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no UNIQUE(client_id, cart_id)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first answer is dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mistake: cart submitted, new key per attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed twice: two orders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with the business key: cart submitted, new key per attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>503 with Retry-After; offline, then back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An overloaded server answers 503 with Retry-After: 1; the client waits at least that long instead of its own short backoff, then places the order. When the network is gone (the conditioner stops listening, connections are refused), the client keeps its key and backs off; once the network is back the same submission completes. One order each.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next request gets 503 with Retry-After: 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed; the retry came ≥ 1 s after the 503</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connections are refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart 2 submitted while offline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed once the network is back, two orders in all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>network: back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after %1 refused attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thundering herd: retries with and without jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After an outage every pending cart retries. Without jitter all clients compute the same backoff (800 ms, then 1.6 s, …) and hit the recovering server in lockstep: every retry of every cart in the same moment. With full jitter each waits a random time up to the backoff, so the same retries are spread out and the peak is a fraction. Either way each cart becomes one order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lockstep: at least %1 of the %2 first retries within %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (attempts: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed: order %1, a replay of the first send (attempts: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed: order %1 (attempts: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spread out: a lower peak than without jitter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in flight</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished">placed</translation>
    </message>
    <message>
        <source>rejected</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished">rejected</translation>
    </message>
    <message>
        <source>retry later</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished">retry later</translation>
    </message>
    <message>
        <source>not sent</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished">not sent</translation>
    </message>
    <message>
        <source>maybe sent</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished">maybe sent</translation>
    </message>
    <message>
        <source>pending</source>
        <comment>submission state</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed</source>
        <comment>submission state</comment>
        <translation type="unfinished">placed</translation>
    </message>
    <message>
        <source>rejected</source>
        <comment>submission state</comment>
        <translation type="unfinished">rejected</translation>
    </message>
    <message>
        <source>gave up</source>
        <comment>submission state</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>abandoned</source>
        <comment>submission state</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (replayed)</source>
        <translation type="unfinished"> (replayed)</translation>
    </message>
    <message>
        <source>; next in %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 after %2 attempt(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, order %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1, key …%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempts %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same, %1 more time(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fresh server: no orders, no keys, modes off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>network: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>network: pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the conditioner relays again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transient error: stored versus rolled back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A database hiccup answers 503. The mistake (store_transient mode) stores that 503 as the key&apos;s answer: every retry with the key gets the same 503 replayed, the client stays stuck until its window ends (or the key expires) and the order is never placed. The fix rolls the whole transaction back and stores nothing, so the retry with the same key succeeds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mistake on: a 503 is stored as the key&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next transaction fails before commit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mistake: cart 1 submitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gave up on replayed 503s, no order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fix: cart 1 submitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed by the retry, one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: K1, kniha × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201, A&apos;s order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys not scoped per client</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two clients happen to use the same key. The mistake (unscoped_keys mode) keeps one namespace of keys for everybody: B&apos;s request is taken for a retry of A&apos;s and B receives A&apos;s order, a data leak and a lost order. The fix makes the key&apos;s primary key (client_id, idem_key): B gets its own order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mistake on: one key space for all clients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mistake: B: K1, kniha × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&apos;s order replayed to B, no order for B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fix: B: K1, kniha × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look-then-insert versus key first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mistake (check_then_insert mode) first looks whether the key exists and inserts it in a second step. Copies of one request arriving together all look before any has inserted, all see nothing, and all place an order (a delay fault widens the gap, as a slow disk would). The fix makes the key row the transaction&apos;s first write under the writer lock: one order, the others are replays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mistake on: look for the key, then insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>300 ms between the look and the insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mistake: 4 × A, one key, at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more than one order for one key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>300 ms inside the transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fix: 4 × A, one key, at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exactly one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key TTL shorter than the retry window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server forgets a key after its TTL; an expired key is as good as new. If a client may still retry after that (its retry window is longer than the TTL), a late retry places a second order. Here a second server runs with --key-ttl 1 and the retry comes 1.5 s later; the bundled server (TTL 24 h, far beyond any client window) replays the same late retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>second server, --key-ttl 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL 1 s: A: K-ttl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL 24 h: A: K-ttl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wait 1.5 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client is still inside its retry window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mistake: TTL 1 s: the late retry, K-ttl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 not replayed: a second order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fix: TTL 24 h: the late retry, K-ttl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 replayed, one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retries within 100 ms, after %1 carts were cut at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A client that makes a fresh Idempotency-Key for each attempt defeats the server: after a lost response the retry looks like a new order. Without a business key (business_key_off mode) the cart is ordered twice. With UNIQUE(client_id, cart_id) the second order is refused as cart-already-ordered, naming the first one, which the client reads back and takes as its own: placed, one order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>422 cart-already-ordered names the first order: placed, one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already placed</source>
        <comment>attempt outcome</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <comment>attempt outcome</comment>
        <translation></translation>
    </message>
    <message>
        <source>A lost acknowledgement: the gateway delivers the webhook again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A gateway knows a webhook arrived only from the 200 it gets back. When that answer is lost, it delivers the same event again later, with backoff, for days if need be, and keeps its schedule on disk so a restart does not forget it. Each delivery is signed afresh with a timestamp, so an old body replayed by someone else is refused. The server remembers the event by its sender and id: the redelivery is answered 200 duplicate and changes nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the 200 for the next webhook will be lost on its way back to the gateway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-r1 (the webhook&apos;s 200 is lost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; gateway: %1 delivery attempts, %2 acknowledged; </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 paid; the event delivered twice, acknowledged the second time; applied once: 1 event row, 1 payment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paying a declined cart again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A declined card is a definitive answer for its key: the order is cancelled (payment_failed), the stock goes back, and the 402 is stored and replayed. But the cart is not used up: the failed order lets go of it in the same transaction, so the customer pays for the same cart again under a new key, and the business key (one order per cart) still holds for orders that stand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the gateway declines the next card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-d1, cart-d (declined)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>402 payment-declined, stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-d2, the same cart-d, another card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 paid; the cart has one paid order, the declined one is payment_failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-d3, the same cart-d once more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>422 cart-already-ordered: the paid order holds the cart; still 2 orders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this scenario needs PostgreSQL: set ONCEORDER_POSTGRES_URI to a connection URI, or start the window with scripts/demo --postgres</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>two instances on one PostgreSQL database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>two instances on one SQLite file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>did not see %1 within %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first copy&apos;s open transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1: A: %1, kniha × 1, held open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>transaction open (%1), its last statement: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the second copy waiting on a lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 2: the same request (%1), while the first is open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waits on a lock (%1), blocked by backend %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waits for the first transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL: the second INSERT waits, then replays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two server instances share one PostgreSQL database; nothing in either process serialises them. The first copy of a request holds its transaction open for 2 s (a delay fault) after its writes, its key row among them. The second copy, on the other instance, runs INSERT … ON CONFLICT DO NOTHING on the same key: PostgreSQL makes it wait on the unique index (pg_stat_activity shows it waiting on the first backend). When the first commits, the second inserts nothing, reads the stored answer and replays it. One order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next transaction stays open for 2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1: the first copy&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 2: the second copy&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same 201 replayed, one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL: the first rolls back, the waiting second places the order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As before, a second copy waits on the unique index for the first one&apos;s transaction. This time the first fails after 2 s (fail-before-commit) and rolls back: its key row was never committed. The waiting INSERT then succeeds, and the second copy processes the order itself: 201, not a replay. The first client&apos;s retry with the same key is then answered from the second&apos;s stored response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next transaction stays open for 2 s, then fails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>503, rolled back, nothing stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 placed by the second itself, not a replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1: the first client retries R1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the second&apos;s 201 replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL: catching the unique violation versus ON CONFLICT DO NOTHING</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mistake (catch_unique_violation mode): a plain INSERT of the key row, its unique violation caught, then the stored answer read, as one might on SQLite, where an error ends only its statement. On PostgreSQL a failed statement aborts the whole transaction: the read fails (&quot;current transaction is aborted&quot;) and the copy that should have been replayed gets an error. The fix, INSERT … ON CONFLICT DO NOTHING, never raises the violation: the second copy waits and replays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mistake on: plain INSERT, the violation caught</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mistake: instance 2: the second copy&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an error instead of the replay: the transaction was aborted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fix: INSERT … ON CONFLICT DO NOTHING</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fix: instance 2: the second copy&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first&apos;s 201 replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL: a conditional UPDATE waits and is checked again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stock is taken with UPDATE products SET stock = stock − n WHERE id = … AND stock &gt;= n, never read first and written later. A buys all 50 mugs on instance 1, whose transaction stays open for 2 s; B asks for one mug on instance 2 at the same time. B&apos;s UPDATE waits for A&apos;s row; when A commits, PostgreSQL checks B&apos;s condition again against the new row (stock 0) and updates nothing: B is told out of stock. Never a negative stock, never an order without its goods.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&apos;s open transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1: A: U1, hrnek × 50, held open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the stock row is A&apos;s until it commits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B&apos;s UPDATE waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 2: B: U2, hrnek × 1, at the same time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>UPDATE waits on a lock (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waits for A&apos;s row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201, all 50 mugs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B&apos;s answer, after waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>422 out of stock: the condition checked again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mugs&apos; stock afterwards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0, not −1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQLite: two instances on one file wait for each other, whatever the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The article&apos;s warning: SQLite locks the whole database for writing, so infer nothing about concurrency from it. Two instances share one SQLite file. Client A&apos;s order holds instance 1&apos;s write transaction open for %1 s; client B places an unrelated order (another client, another key) on instance 2. On PostgreSQL it would go in at once; here it waits for the file&apos;s write lock until the 10 s busy timeout and fails with &quot;database is locked&quot; (503, nothing stored, a retry succeeds).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the next transaction stays open for %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1 holding the file&apos;s write lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&apos;s request taking the fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1: A: S1, kniha × 1, held open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the whole file is locked for writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 2: B: S2, kniha × 1 (another client and key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 after %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>503 &quot;database is locked&quot; after the busy timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 1: A&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>instance 2: B retries S2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201, B&apos;s order (the 503 was not stored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected first line from the server: %1</source>
        <translation type="unfinished">unexpected first line from the server: %1</translation>
    </message>
    <message>
        <source>the server on %1 ended before it listened (its log: %1.log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation type="unfinished">cannot start %1: %2</translation>
    </message>
    <message>
        <source>no server named %1 to kill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the standby holds %2 of %3 commits, %4 behind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>POST /_debug/replication answered %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>primary: A: %1, kniha × 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201, a new order: the client stops retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the standby, once the 201 was sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failover: the primary is killed (SIGKILL), the standby promoted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a new server on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>promoted: A: GET /orders/%1, the acknowledged order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>promoted: A retries %1, the same request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failover: asynchronous replication loses an acknowledged order, synchronous does not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key lives in the database, so it is exactly as durable as the database. A production database is a primary and a standby; when the primary dies, the standby is promoted. With asynchronous replication the primary answers 201 before the standby has the commit: if it dies then, the promoted standby has neither the order nor its key. The customer was told the order was placed; the client stopped retrying; and a retry with the same key would not be recognised, it places a new order (here even under the same order number). With synchronous replication the 201 waits until the standby has the commit, and nothing acknowledged is lost. Here the standby is a second SQLite file the server copies each commit into (the online backup API); the asynchronous copy is held back so that the loss is certain, not luck. PostgreSQL does the same with WAL streaming.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>asynchronous: a primary, its standby&apos;s copy held back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>behind: the 201 went out first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>404: the acknowledged order is gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 not replayed: the key was lost too, a new order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>synchronous: a primary, each commit copied before it answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing behind: the standby had it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>200: the order survived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>201 replayed: the key survived with the order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, the server says: “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retries in 100 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every request and answer gets through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>down, nothing gets through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>requests are lost on the way to the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answers are lost on the way back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slow in both directions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>requests vanish and are never answered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>some answers are lost on the way back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>duplicated by the server</source>
        <comment>submission state</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::ServerMonitor</name>
    <message>
        <source>the server&apos;s answer is not a debug state</source>
        <translation>the server&apos;s answer is not a debug state</translation>
    </message>
    <message>
        <source>GET /products answered 200 without a product list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GET /products answered %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::StorageGuard</name>
    <message>
        <source>the client&apos;s state database failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::core::SubmissionEngine</name>
    <message>
        <source>interrupted: the client stopped before the answer arrived</source>
        <translation>interrupted: the client stopped before the answer arrived</translation>
    </message>
    <message>
        <source>abandoned by the user; the order may exist on the server (reconcile to know)</source>
        <translation>abandoned by the user; the order may exist on the server (reconcile to know)</translation>
    </message>
    <message>
        <source>cart %1 is still pending for %2 with the key that server knows; finish it there (resume with that server) before ordering it here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart %1 is still pending with other lines; its key stands for those, so it is not changed: wait for it to settle, or order the new lines as a new cart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the retry window ended before the next attempt (deadline %1): the server may have forgotten the key, so it is not sent again; asking the server for the cart instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the client&apos;s state database failed earlier; nothing is sent until it works again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placed after all: the server&apos;s answer (order %1) came after the cart was given up</source>
        <translation>placed after all: the server&apos;s answer (order %1) came after the cart was given up</translation>
    </message>
    <message>
        <source>placed after all: the server&apos;s answer (order %1) came after the cart was abandoned</source>
        <translation>placed after all: the server&apos;s answer (order %1) came after the cart was abandoned</translation>
    </message>
    <message>
        <source>placed after all: the server placed order %1 for this cart with this key after all</source>
        <translation>placed after all: the server placed order %1 for this cart with this key after all</translation>
    </message>
    <message>
        <source>cart %1 already has order %2 with other lines; a cart id names one order, so nothing is sent: order the new lines as a new cart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cart %1 is already placed as order %2; nothing was sent</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::CartPanel</name>
    <message>
        <source>Cart</source>
        <translation type="unfinished">Cart</translation>
    </message>
    <message>
        <source>Product</source>
        <translation type="unfinished">Product</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation type="unfinished">Quantity</translation>
    </message>
    <message>
        <source>Pay now by card</source>
        <translation type="unfinished">Pay now by card</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished">Remove</translation>
    </message>
    <message>
        <source>Order</source>
        <translation type="unfinished">Order</translation>
    </message>
    <message>
        <source>Send the cart with its Idempotency-Key; clicking again re-sends the same key</source>
        <translation type="unfinished">Send the cart with its Idempotency-Key; clicking again re-sends the same key</translation>
    </message>
    <message>
        <source>Order and pay in one request (POST /checkout): the server calls a payment gateway in the middle, in phases it can resume, so a retry never charges twice</source>
        <translation type="unfinished">Order and pay in one request (POST /checkout): the server calls a payment gateway in the middle, in phases it can resume, so a retry never charges twice</translation>
    </message>
    <message>
        <source>Order and pay</source>
        <translation type="unfinished">Order and pay</translation>
    </message>
    <message>
        <source>Quantity of %1 in the cart</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::CataloguePanel</name>
    <message>
        <source>Catalogue</source>
        <translation type="unfinished">Catalogue</translation>
    </message>
    <message>
        <source>Add to cart</source>
        <translation type="unfinished">Add to cart</translation>
    </message>
    <message>
        <source>Product</source>
        <translation type="unfinished">Product</translation>
    </message>
    <message>
        <source>In stock</source>
        <translation type="unfinished">In stock</translation>
    </message>
    <message>
        <source>sold out</source>
        <translation type="unfinished">sold out</translation>
    </message>
    <message>
        <source>Double-click a product, or press Enter on it, to add it to the cart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Product to add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantity to add</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::CentralArea</name>
    <message>
        <source>Current submission and my orders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current submission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>My orders</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::DebugPanel</name>
    <message>
        <source>Debug panel: break it on purpose</source>
        <translation>Debug panel: break it on purpose</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>Done: %1</translation>
    </message>
    <message>
        <source> — the server needs --debug-endpoints</source>
        <translation> — the server needs --debug-endpoints</translation>
    </message>
    <message>
        <source>%1 failed: %2%3</source>
        <translation>%1 failed: %2%3</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>This client uses an external server: these controls work only if it was started with --debug-endpoints.</source>
        <translation>This client uses an external server: these controls work only if it was started with --debug-endpoints.</translation>
    </message>
    <message>
        <source>How many of the next order requests the fault hits</source>
        <translation>How many of the next order requests the fault hits</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Requests:</source>
        <translation>Requests:</translation>
    </message>
    <message>
        <source>Delay:</source>
        <translation>Delay:</translation>
    </message>
    <message>
        <source>Retry-After:</source>
        <translation>Retry-After:</translation>
    </message>
    <message>
        <source>Fail before commit</source>
        <translation>Fail before commit</translation>
    </message>
    <message>
        <source>The transaction rolls back and the server answers 503: nothing is stored, the retry places it.</source>
        <translation>The transaction rolls back and the server answers 503: nothing is stored, the retry places it.</translation>
    </message>
    <message>
        <source>Crash before commit</source>
        <translation>Crash before commit</translation>
    </message>
    <message>
        <source>The server dies mid-transaction: no order exists; it restarts and the retry places it.</source>
        <translation>The server dies mid-transaction: no order exists; it restarts and the retry places it.</translation>
    </message>
    <message>
        <source>Crash after commit</source>
        <translation>Crash after commit</translation>
    </message>
    <message>
        <source>The order is committed, the answer never sent: the retry gets the stored answer, replayed.</source>
        <translation>The order is committed, the answer never sent: the retry gets the stored answer, replayed.</translation>
    </message>
    <message>
        <source>Slow transaction</source>
        <translation>Slow transaction</translation>
    </message>
    <message>
        <source>The transaction holds the writer lock for the delay: a retry meanwhile waits for it, then gets the replay.</source>
        <translation>The transaction holds the writer lock for the delay: a retry meanwhile waits for it, then gets the replay.</translation>
    </message>
    <message>
        <source>Unavailable (503)</source>
        <translation>Unavailable (503)</translation>
    </message>
    <message>
        <source>503 with Retry-After: the client waits as long as the server asks, then retries.</source>
        <translation>503 with Retry-After: the client waits as long as the server asks, then retries.</translation>
    </message>
    <message>
        <source>Disarm</source>
        <translation>Disarm</translation>
    </message>
    <message>
        <source>Armed: nothing</source>
        <translation>Armed: nothing</translation>
    </message>
    <message>
        <source>&lt;b&gt;Teaching modes&lt;/b&gt; — the article&apos;s mistakes, made on purpose:</source>
        <translation>&lt;b&gt;Teaching modes&lt;/b&gt; — the article&apos;s mistakes, made on purpose:</translation>
    </message>
    <message>
        <source>Check, then insert</source>
        <translation>Check, then insert</translation>
    </message>
    <message>
        <source>Looks the key up, then inserts it: two simultaneous retries both pass and order twice.</source>
        <translation>Looks the key up, then inserts it: two simultaneous retries both pass and order twice.</translation>
    </message>
    <message>
        <source>Keys shared by all clients</source>
        <translation>Keys shared by all clients</translation>
    </message>
    <message>
        <source>Client B sending A&apos;s key gets A&apos;s stored answer: another client&apos;s data leaks.</source>
        <translation>Client B sending A&apos;s key gets A&apos;s stored answer: another client&apos;s data leaks.</translation>
    </message>
    <message>
        <source>Store transient errors</source>
        <translation>Store transient errors</translation>
    </message>
    <message>
        <source>A temporary failure is stored under the key: every retry replays the failure forever.</source>
        <translation>A temporary failure is stored under the key: every retry replays the failure forever.</translation>
    </message>
    <message>
        <source>Business key off</source>
        <translation>Business key off</translation>
    </message>
    <message>
        <source>No one-order-per-cart rule: with a new key per click, duplicates appear in Orders.</source>
        <translation>No one-order-per-cart rule: with a new key per click, duplicates appear in Orders.</translation>
    </message>
    <message>
        <source>Reset the server</source>
        <translation>Reset the server</translation>
    </message>
    <message>
        <source>Deletes orders and keys, restores stock, clears faults: a clean slate.</source>
        <translation>Deletes orders and keys, restores stock, clears faults: a clean slate.</translation>
    </message>
    <message>
        <source>Kill the server</source>
        <translation>Kill the server</translation>
    </message>
    <message>
        <source>kill -9 the bundled server: requests fail until it restarts by itself.</source>
        <translation>kill -9 the bundled server: requests fail until it restarts by itself.</translation>
    </message>
    <message>
        <source>Only the bundled server can be killed from here.</source>
        <translation>Only the bundled server can be killed from here.</translation>
    </message>
    <message>
        <source>Network (between this client and the server)</source>
        <translation>Network (between this client and the server)</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>Everything goes through untouched.</source>
        <translation>Everything goes through untouched.</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Connections are refused: the request is surely not sent, so retrying is safe.</source>
        <translation>Connections are refused: the request is surely not sent, so retrying is safe.</translation>
    </message>
    <message>
        <source>Drop the request</source>
        <translation>Drop the request</translation>
    </message>
    <message>
        <source>The request is lost on the way: the server never sees it; the retry places the order.</source>
        <translation>The request is lost on the way: the server never sees it; the retry places the order.</translation>
    </message>
    <message>
        <source>Drop the response</source>
        <translation>Drop the response</translation>
    </message>
    <message>
        <source>The order is placed but the answer is lost: the retry with the same key is replayed, not doubled.</source>
        <translation>The order is placed but the answer is lost: the retry with the same key is replayed, not doubled.</translation>
    </message>
    <message>
        <source>Delay</source>
        <translation>Delay</translation>
    </message>
    <message>
        <source>Every exchange waits for the delay: slow networks make timeouts and overlapping retries.</source>
        <translation>Every exchange waits for the delay: slow networks make timeouts and overlapping retries.</translation>
    </message>
    <message>
        <source>Black hole</source>
        <translation>Black hole</translation>
    </message>
    <message>
        <source>Nothing comes back and nothing closes: only the client&apos;s timeout ends the attempt.</source>
        <translation>Nothing comes back and nothing closes: only the client&apos;s timeout ends the attempt.</translation>
    </message>
    <message>
        <source>Flaky</source>
        <translation>Flaky</translation>
    </message>
    <message>
        <source>Each exchange fails with the probability below: retries with backoff get through.</source>
        <translation>Each exchange fails with the probability below: retries with backoff get through.</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Mode:</translation>
    </message>
    <message>
        <source>Failure probability:</source>
        <translation>Failure probability:</translation>
    </message>
    <message>
        <source>Client (this window)</source>
        <translation>Client (this window)</translation>
    </message>
    <message>
        <source>Crash the app now</source>
        <translation>Crash the app now</translation>
    </message>
    <message>
        <source>The client dies at once, like a power cut: start it again and a pending order resumes with its key.</source>
        <translation>The client dies at once, like a power cut: start it again and a pending order resumes with its key.</translation>
    </message>
    <message>
        <source>Crash after the next send</source>
        <translation>Crash after the next send</translation>
    </message>
    <message>
        <source>The request reaches the server, the client dies before the answer: the next start resumes and is replayed.</source>
        <translation>The request reaches the server, the client dies before the answer: the next start resumes and is replayed.</translation>
    </message>
    <message>
        <source>One key per cart (correct)</source>
        <translation>One key per cart (correct)</translation>
    </message>
    <message>
        <source>A new key per click</source>
        <translation>A new key per click</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>No key</translation>
    </message>
    <message>
        <source>Key strategy:</source>
        <translation>Key strategy:</translation>
    </message>
    <message>
        <source>Every retry and every click re-sends the cart&apos;s one key: the server places it once.</source>
        <translation>Every retry and every click re-sends the cart&apos;s one key: the server places it once.</translation>
    </message>
    <message>
        <source>Each click is a new request to the server: a second click after a lost answer orders twice.</source>
        <translation>Each click is a new request to the server: a second click after a lost answer orders twice.</translation>
    </message>
    <message>
        <source>Without a key the server cannot tell a retry from a new order.</source>
        <translation>Without a key the server cannot tell a retry from a new order.</translation>
    </message>
    <message>
        <source>The network conditioner is not part of this build yet: these controls do not change anything.</source>
        <translation>The network conditioner is not part of this build yet: these controls do not change anything.</translation>
    </message>
    <message>
        <source>Clears every armed fault, the gateway&apos;s too.</source>
        <translation>Clears every armed fault, the gateway&apos;s too.</translation>
    </message>
    <message>
        <source>Payment gateway (orders paid now by card)</source>
        <translation>Payment gateway (orders paid now by card)</translation>
    </message>
    <message>
        <source>POST /checkout runs in phases around the gateway call. These act on the next charges (Requests and Delay above).</source>
        <translation>POST /checkout runs in phases around the gateway call. These act on the next charges (Requests and Delay above).</translation>
    </message>
    <message>
        <source>Decline the card</source>
        <translation>Decline the card</translation>
    </message>
    <message>
        <source>A definitive answer: the order is cancelled, 402 is stored, and every retry gets it replayed.</source>
        <translation>A definitive answer: the order is cancelled, 402 is stored, and every retry gets it replayed.</translation>
    </message>
    <message>
        <source>Lose the gateway&apos;s answer</source>
        <translation>Lose the gateway&apos;s answer</translation>
    </message>
    <message>
        <source>The card is charged, the answer lost: the retry sends the gateway the same key and is not charged again.</source>
        <translation>The card is charged, the answer lost: the retry sends the gateway the same key and is not charged again.</translation>
    </message>
    <message>
        <source>Gateway down</source>
        <translation>Gateway down</translation>
    </message>
    <message>
        <source>Fails before charging: 503, the recovery point stays, and the retry goes on from it.</source>
        <translation>Fails before charging: 503, the recovery point stays, and the retry goes on from it.</translation>
    </message>
    <message>
        <source>Slow gateway</source>
        <translation>Slow gateway</translation>
    </message>
    <message>
        <source>The charge takes the delay: a second click meanwhile finds the row locked and gets 409.</source>
        <translation>The charge takes the delay: a second click meanwhile finds the row locked and gets 409.</translation>
    </message>
    <message>
        <source>Webhook sent twice</source>
        <translation>Webhook sent twice</translation>
    </message>
    <message>
        <source>The same event id arrives twice: it is stored once, and the repeat changes nothing.</source>
        <translation>The same event id arrives twice: it is stored once, and the repeat changes nothing.</translation>
    </message>
    <message>
        <source>Twin webhooks</source>
        <translation>Twin webhooks</translation>
    </message>
    <message>
        <source>Two event ids for one charge: the conditional status change lets only one of them act.</source>
        <translation>Two event ids for one charge: the conditional status change lets only one of them act.</translation>
    </message>
    <message>
        <source>after the key row (started)</source>
        <translation>after the key row (started)</translation>
    </message>
    <message>
        <source>after the order (order_created)</source>
        <translation>after the order (order_created)</translation>
    </message>
    <message>
        <source>after the gateway charged</source>
        <translation>after the gateway charged</translation>
    </message>
    <message>
        <source>after the payment (payment_charged)</source>
        <translation>after the payment (payment_charged)</translation>
    </message>
    <message>
        <source>after the stored answer (finished)</source>
        <translation>after the stored answer (finished)</translation>
    </message>
    <message>
        <source>Arm</source>
        <translation>Arm</translation>
    </message>
    <message>
        <source>Crash the server</source>
        <translation>Crash the server</translation>
    </message>
    <message>
        <source>It restarts; the retry or the completer resumes from the recovery point: one order, one charge.</source>
        <translation>It restarts; the retry or the completer resumes from the recovery point: one order, one charge.</translation>
    </message>
    <message>
        <source>Run the completer</source>
        <translation>Run the completer</translation>
    </message>
    <message>
        <source>Finishes checkouts nobody works on any more, as the server does by itself every 5 s.</source>
        <translation>Finishes checkouts nobody works on any more, as the server does by itself every 5 s.</translation>
    </message>
    <message>
        <source>Armed: %1</source>
        <translation>Armed: %1</translation>
    </message>
    <message>
        <source>Lose the webhook&apos;s 200</source>
        <translation>Lose the webhook&apos;s 200</translation>
    </message>
    <message>
        <source>The webhook is applied but the gateway never hears so: it delivers it again a few seconds later, and the repeat changes nothing.</source>
        <translation>The webhook is applied but the gateway never hears so: it delivers it again a few seconds later, and the repeat changes nothing.</translation>
    </message>
    <message>
        <source>Fault: number of requests hit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fault: delay in milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fault: Retry-After in seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkout crash point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network delay in milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network fault probability in percent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key strategy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>crash %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Armed: “%1” for the next %n request(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>“%1” for the next %n checkout(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>“%1” for the next %n charge(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The order is placed but the answer is lost: without the cart&apos;s one key the retry is a new order, so the cart is ordered twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every exchange waits for the delay: an attempt that timed out may still be placed, and without the cart&apos;s one key its retry orders again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing comes back and nothing closes: the client&apos;s timeout ends the attempt, and without the cart&apos;s one key a retry of an order that was placed orders again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each exchange fails with the probability below: without the cart&apos;s one key a retry after a lost answer orders twice.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The &amp;lesson plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About OnceOrder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>teaching.md</source>
        <comment>the lesson plan&apos;s file name in this language</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on a catalogue row: add the product to the cart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tab, Shift+Tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>move between the controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About OnceOrder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;OnceOrder %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Places every order exactly once over an unreliable network: one Idempotency-Key per cart, retried with capped exponential backoff and full jitter. The debug panel breaks the network and the server on purpose, so a class can watch the order still be placed once.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter or double-click</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::LessonViewer</name>
    <message>
        <source>The lesson plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lesson plan could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in another program</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::MainWindow</name>
    <message>
        <source>Starting the server…</source>
        <translation>Starting the server…</translation>
    </message>
    <message>
        <source>OnceOrder — client %1</source>
        <translation>OnceOrder — client %1</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>● Server failed: %1</source>
        <translation>● Server failed: %1</translation>
    </message>
    <message>
        <source>Client %1</source>
        <translation>Client %1</translation>
    </message>
    <message>
        <source>The server takes the client from the API key (%1), never from the order.</source>
        <translation>The server takes the client from the API key (%1), never from the order.</translation>
    </message>
    <message>
        <source>Places every order exactly once, whatever the network does.</source>
        <translation>Places every order exactly once, whatever the network does.</translation>
    </message>
    <message>
        <source>● Bundled server up</source>
        <translation>● Bundled server up</translation>
    </message>
    <message>
        <source>● Server: external</source>
        <translation>● Server: external</translation>
    </message>
    <message>
        <source>● Bundled server down — restarting…</source>
        <translation>● Bundled server down — restarting…</translation>
    </message>
    <message>
        <source>Pending submissions: %1</source>
        <translation>Pending submissions: %1</translation>
    </message>
    <message>
        <source>Network: %1</source>
        <translation>Network: %1</translation>
    </message>
    <message>
        <source>&amp;Scenarios</source>
        <translation>&amp;Scenarios</translation>
    </message>
    <message>
        <source>Pending submissions: %1 (and %2 for another server, not sent from here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · database: PostgreSQL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · database: SQLite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The outbox cannot be written, so nothing is sent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server tables and debug panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>● Not a OnceOrder server: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not answer as onceorder-server does: check --server.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::MyOrdersPanel</name>
    <message>
        <source>My orders (on the server)</source>
        <translation type="unfinished">My orders (on the server)</translation>
    </message>
    <message>
        <source>Order</source>
        <comment>column: the order number</comment>
        <translation type="unfinished">Order</translation>
    </message>
    <message>
        <source>Items</source>
        <translation type="unfinished">Items</translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished">Status</translation>
    </message>
    <message>
        <source>Placed at</source>
        <translation type="unfinished">Placed at</translation>
    </message>
    <message>
        <source>My orders on the server</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::PresentationZoom</name>
    <message>
        <source>Zoom &amp;in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ResultLine</name>
    <message>
        <source>Order %1 placed after all (it had been given up).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order %1 placed after all (it had been abandoned).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order %1 placed after all (it had been rejected).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order %1 placed.</source>
        <translation type="unfinished">Order %1 placed.</translation>
    </message>
    <message>
        <source>Order %1 placed and paid (replayed by the server).</source>
        <translation type="unfinished">Order %1 placed and paid (replayed by the server).</translation>
    </message>
    <message>
        <source>Order %1 placed and paid.</source>
        <translation type="unfinished">Order %1 placed and paid.</translation>
    </message>
    <message>
        <source>Order %1 placed (replayed by the server).</source>
        <translation type="unfinished">Order %1 placed (replayed by the server).</translation>
    </message>
    <message>
        <source>Rejected (HTTP %1): %2</source>
        <translation type="unfinished">Rejected (HTTP %1): %2</translation>
    </message>
    <message>
        <source>Failed (HTTP %1): %2</source>
        <translation type="unfinished">Failed (HTTP %1): %2</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished">Failed: %1</translation>
    </message>
    <message>
        <source>Abandoned: the order may still exist on the server.</source>
        <translation type="unfinished">Abandoned: the order may still exist on the server.</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server duplicated this order: it holds orders %1 and %2 for one cart. Cancel one of them with the shop.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous cart: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ScenarioDialog</name>
    <message>
        <source>Play again</source>
        <translation>Play again</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Response</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Orders</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>Expected</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>Playing on a fresh server: step %1 of %2…</source>
        <translation>Playing on a fresh server: step %1 of %2…</translation>
    </message>
    <message>
        <source>Starting a fresh server…</source>
        <translation>Starting a fresh server…</translation>
    </message>
    <message>
        <source>PASS</source>
        <translation>PASS</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>FAIL</translation>
    </message>
    <message>
        <source>PASS in %1 s</source>
        <translation>PASS in %1 s</translation>
    </message>
    <message>
        <source>FAIL in %1 s</source>
        <translation>FAIL in %1 s</translation>
    </message>
    <message>
        <source>Could not finish: %1</source>
        <translation>Could not finish: %1</translation>
    </message>
    <message>
        <source>Export the verdict table to</source>
        <translation>Export the verdict table to</translation>
    </message>
    <message>
        <source>The table could not be written to %1.</source>
        <translation>The table could not be written to %1.</translation>
    </message>
    <message>
        <source>Saved %1 in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict table</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerTableModel</name>
    <message>
        <source>(none)</source>
        <translation>(none)</translation>
    </message>
    <message numerus="yes">
        <source>Duplicate: this cart was ordered %n times</source>
        <translation>
            <numerusform>Duplicate: this cart was ordered %n times</numerusform>
            <numerusform>Duplicate: this cart was ordered %n times</numerusform>
        </translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerprint</translation>
    </message>
    <message>
        <source>Stored code</source>
        <translation>Stored code</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Order</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Expires</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Items</translation>
    </message>
    <message>
        <source>Cart</source>
        <translation>Cart</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Created</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Product</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>Stock</translation>
    </message>
    <message>
        <source>locked</source>
        <translation>locked</translation>
    </message>
    <message>
        <source>The gateway&apos;s key is derived from this row id</source>
        <translation>The gateway&apos;s key is derived from this row id</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Row</translation>
    </message>
    <message>
        <source>Recovery point</source>
        <translation>Recovery point</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Charge</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>Lock</translation>
    </message>
    <message>
        <source>Our key at the gateway</source>
        <translation>Our key at the gateway</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Amount</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Method</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Outcome</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>Recorded by</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Event</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>Effect</translation>
    </message>
    <message>
        <source>The last finished phase (%1): a retry or the completer resumes after it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order</source>
        <comment>a column of order ids</comment>
        <translation type="unfinished">Order</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerTablesDock</name>
    <message>
        <source>Server database (live)</source>
        <translation>Server database (live)</translation>
    </message>
    <message>
        <source>Waiting for the server…</source>
        <translation>Waiting for the server…</translation>
    </message>
    <message>
        <source>Idempotency keys</source>
        <translation>Idempotency keys</translation>
    </message>
    <message>
        <source>One row per (client, key): taken first, completed with the stored answer.</source>
        <translation>One row per (client, key): taken first, completed with the stored answer.</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Orders</translation>
    </message>
    <message>
        <source>What was really ordered. Red rows: one cart ordered twice.</source>
        <translation>What was really ordered. Red rows: one cart ordered twice.</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>Stock</translation>
    </message>
    <message>
        <source>Decremented in the order&apos;s transaction.</source>
        <translation>Decremented in the order&apos;s transaction.</translation>
    </message>
    <message numerus="yes">
        <source>Live: %n order(s), %1 key(s); updated %2</source>
        <translation>
            <numerusform>Live: %n order, %1 key(s); last change %2</numerusform>
            <numerusform>Live: %n orders, %1 key(s); last change %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The server does not show its tables (start it with --debug-endpoints): %1</source>
        <translation>The server does not show its tables (start it with --debug-endpoints): %1</translation>
    </message>
    <message>
        <source>Cannot read the server&apos;s tables: %1</source>
        <translation>Cannot read the server&apos;s tables: %1</translation>
    </message>
    <message>
        <source>Checkout keys</source>
        <translation>Checkout keys</translation>
    </message>
    <message>
        <source>POST /checkout in phases: each row remembers how far it got (the recovery point).</source>
        <translation>POST /checkout in phases: each row remembers how far it got (the recovery point).</translation>
    </message>
    <message>
        <source>Payment gateway</source>
        <translation>Payment gateway</translation>
    </message>
    <message>
        <source>Its own books: one charge per key we send it. Amber: charged, not yet recorded by us.</source>
        <translation>Its own books: one charge per key we send it. Amber: charged, not yet recorded by us.</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Every event id once; a repeat or a twin changes nothing.</source>
        <translation>Every event id once; a repeat or a twin changes nothing.</translation>
    </message>
    <message>
        <source>Keys: /orders (%1)</source>
        <translation>Keys: /orders (%1)</translation>
    </message>
    <message>
        <source>Keys: /checkout (%1)</source>
        <translation>Keys: /checkout (%1)</translation>
    </message>
    <message>
        <source>Charges (%1)</source>
        <translation>Charges (%1)</translation>
    </message>
    <message>
        <source>Webhooks (%1)</source>
        <translation>Webhooks (%1)</translation>
    </message>
    <message>
        <source>PostgreSQL backend %1 has waited %2 ms on a lock (%3) held by %4: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server table: idempotency keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server table: checkout keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stock, payment and webhook tables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server table: stock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server table: payment gateway charges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server table: webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server table: orders</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerWords</name>
    <message>
        <source>placed</source>
        <comment>order status</comment>
        <translation type="unfinished">placed</translation>
    </message>
    <message>
        <source>awaiting payment</source>
        <comment>order status</comment>
        <translation type="unfinished">awaiting payment</translation>
    </message>
    <message>
        <source>paid</source>
        <comment>order status</comment>
        <translation type="unfinished">paid</translation>
    </message>
    <message>
        <source>payment failed</source>
        <comment>order status</comment>
        <translation type="unfinished">payment failed</translation>
    </message>
    <message>
        <source>completed</source>
        <comment>idempotency key status</comment>
        <translation type="unfinished">completed</translation>
    </message>
    <message>
        <source>in progress</source>
        <comment>idempotency key status</comment>
        <translation type="unfinished">in progress</translation>
    </message>
    <message>
        <source>started</source>
        <comment>recovery point</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>order created</source>
        <comment>recovery point</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>payment charged</source>
        <comment>recovery point</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finished</source>
        <comment>recovery point</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>card</source>
        <comment>payment method</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>charged</source>
        <comment>gateway charge outcome</comment>
        <translation type="unfinished">charged</translation>
    </message>
    <message>
        <source>declined</source>
        <comment>gateway charge outcome</comment>
        <translation type="unfinished">declined</translation>
    </message>
    <message>
        <source>checkout</source>
        <comment>who recorded the payment</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>webhook</source>
        <comment>who recorded the payment</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>applied: order paid</source>
        <comment>webhook effect</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no change</source>
        <comment>webhook effect</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repeat, ignored</source>
        <comment>webhook effect</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ignored</source>
        <comment>webhook effect</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>onceorder::ui::SubmissionTimelineWidget</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copy</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Retry now</translation>
    </message>
    <message>
        <source>Abandon…</source>
        <translation>Abandon…</translation>
    </message>
    <message>
        <source>no submission yet</source>
        <translation>no submission yet</translation>
    </message>
    <message>
        <source>The Idempotency-Key: the same on every attempt of this cart</source>
        <translation>The Idempotency-Key: the same on every attempt of this cart</translation>
    </message>
    <message>
        <source>Copy the key, e.g. to find it in the server&apos;s tables or log</source>
        <translation>Copy the key, e.g. to find it in the server&apos;s tables or log</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Time</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>Took</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Outcome</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation>Replayed</translation>
    </message>
    <message>
        <source>Then waited</source>
        <translation>Then waited</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Why</translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same key, same bytes)</source>
        <translation>Send the next attempt now instead of waiting (same key, same bytes)</translation>
    </message>
    <message>
        <source>Stop retrying; the order may already exist on the server</source>
        <translation>Stop retrying; the order may already exist on the server</translation>
    </message>
    <message>
        <source>Idempotency-Key:</source>
        <translation>Idempotency-Key:</translation>
    </message>
    <message>
        <source>Place an order to see each attempt here.</source>
        <translation>Place an order to see each attempt here.</translation>
    </message>
    <message>
        <source>in flight…</source>
        <translation>in flight…</translation>
    </message>
    <message>
        <source>placed</source>
        <translation>placed</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejected</translation>
    </message>
    <message>
        <source>retry later</source>
        <translation>retry later</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>not sent</translation>
    </message>
    <message>
        <source>maybe sent</source>
        <translation>maybe sent</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Pending</translation>
    </message>
    <message>
        <source>Order %1 (replayed)</source>
        <translation>Order %1 (replayed)</translation>
    </message>
    <message>
        <source>Order %1 placed</source>
        <translation>Order %1 placed</translation>
    </message>
    <message>
        <source>Rejected (HTTP %1)</source>
        <translation>Rejected (HTTP %1)</translation>
    </message>
    <message>
        <source>Gave up: outcome unknown</source>
        <translation>Gave up: outcome unknown</translation>
    </message>
    <message>
        <source>Abandoned</source>
        <translation>Abandoned</translation>
    </message>
    <message>
        <source>%1 (+%2)</source>
        <translation>%1 (+%2)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>yes</translation>
    </message>
    <message>
        <source>Idempotent-Replayed: true — the server answered from the stored response</source>
        <translation>Idempotent-Replayed: true — the server answered from the stored response</translation>
    </message>
    <message>
        <source>Attempt %1 is on its way…</source>
        <translation>Attempt %1 is on its way…</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Sending…</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), one key.</source>
        <translation>
            <numerusform>%n attempt, one key.</numerusform>
            <numerusform>%n attempts, one key.</numerusform>
        </translation>
    </message>
    <message>
        <source>Next attempt in %1</source>
        <translation>Next attempt in %1</translation>
    </message>
    <message>
        <source>Next attempt due now</source>
        <translation>Next attempt due now</translation>
    </message>
    <message>
        <source>Abandon this order?</source>
        <translation>Abandon this order?</translation>
    </message>
    <message>
        <source>The server may already have placed this order: an attempt may have arrived even though its answer did not.</source>
        <translation>The server may already have placed this order: an attempt may have arrived even though its answer did not.</translation>
    </message>
    <message>
        <source>Check the server first: it looks for an order from this cart. Abandoning only stops this client from retrying.</source>
        <translation>Check the server first: it looks for an order from this cart. Abandoning only stops this client from retrying.</translation>
    </message>
    <message>
        <source>Check the server first</source>
        <translation>Check the server first</translation>
    </message>
    <message>
        <source>Abandon anyway</source>
        <translation>Abandon anyway</translation>
    </message>
    <message>
        <source>Keep retrying</source>
        <translation>Keep retrying</translation>
    </message>
    <message>
        <source>already placed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency key of the last submission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts of the last submission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished">Key</translation>
    </message>
    <message>
        <source>Current submission: every attempt, one key</source>
        <translation type="unfinished">Current submission: every attempt, one key</translation>
    </message>
    <message>
        <source>Current submission: a new key for every attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current submission: no key on any attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Idempotency-Key of cart %1, the same on every attempt, sent to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key of attempt %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key of the latest attempt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mistake &quot;a new key per click&quot;: every attempt, automatic retries included, carries a new Idempotency-Key, so the server cannot tell a retry from a new order. The Key column shows each attempt&apos;s key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mistake &quot;no key&quot;: no attempt carries an Idempotency-Key, so the server cannot recognise a retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: no Idempotency-Key is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same bytes, a new key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same bytes, no key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending the order… (attempt %1)</source>
        <translation type="unfinished">Sending the order… (attempt %1)</translation>
    </message>
    <message>
        <source>Attempt %1 did not reach the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 was sent, but no answer came: the server may have placed the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 was answered with HTTP %2: the server asks to try again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1: this cart was already ordered; reading the order back…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 ended without an order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying with the same key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying with a new key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying without a key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planned wait: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (planned %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planned %1, but attempt %2 started %3 after this one ended (Retry now, a click on Order, a timer that fired late or a restart).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 started %2 after this one ended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Technical detail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not known: this attempt was sent before the window saw it; the client keeps only the latest key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency-Key of attempt %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), a new key for each.</source>
        <translation>
            <numerusform>%n attempt, a new key for each.</numerusform>
            <numerusform>%n attempts, a new key for each.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), no key.</source>
        <translation>
            <numerusform>%n attempt, no key.</numerusform>
            <numerusform>%n attempts, no key.</numerusform>
        </translation>
    </message>
    <message>
        <source>Attempt %1: nothing went wrong, no wait.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why, attempt %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicated by the server: orders %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
