// Peer B of issue 16: express 4 + express-idempotency's middleware with its defaults (in-memory data adapter,
// responses kept for 2xx only, intent = url, method, query and body), on the shared better-sqlite3 shop (shop.js).
//
// usage: node express-idempotency.js [--listen 127.0.0.1:0] [--db PATH] [--synchronous full|normal|default]
'use strict';

const express = require('express');
const { idempotency, getSharedIdempotencyService } = require('express-idempotency');
const shopModule = require('./shop');

const options = shopModule.parseArgs(process.argv.slice(2));
const shop = shopModule.openShop(options);

const app = express();
app.use(express.json());
shopModule.addCommonRoutes(app, shop);

// Before the library, as ours: the API key, the key's presence and the body (a 4xx here does not consume the key).
function authenticateAndValidate(req, res, next) {
    const clientId = shopModule.clientOf(req);
    if (clientId === undefined) return shopModule.sendProblem(res, 401, 'unauthorized', 'Unknown API key');
    const key = req.get('Idempotency-Key');
    if (!key) return shopModule.sendProblem(res, 400, 'missing-idempotency-key', 'Idempotency-Key is missing');
    const command = shop.parse(req.body);
    if (command === null) return shopModule.sendProblem(res, 400, 'invalid-order', 'Invalid order');
    res.locals.order = { clientId, key: shopModule.bareKey(key), command };
    // The library's keys are global; prefixing the client id scopes them per client as ours.
    req.headers['idempotency-key'] = `${clientId}:${key}`;
    // The library answers a replay itself (stored status, content-type and body) after marking the request as a
    // hit; this adds ours's Idempotent-Replayed header to that answer, which wrk counts.
    const send = res.send;
    res.send = function (body) {
        if (getSharedIdempotencyService().isHit(req) && !res.headersSent) res.set('Idempotent-Replayed', 'true');
        return send.call(this, body);
    };
    next();
}

app.post('/orders', authenticateAndValidate, idempotency(), (req, res) => {
    if (getSharedIdempotencyService().isHit(req)) return; // the library has answered
    const { clientId, key, command } = res.locals.order;
    const [status, body] = shop.placeOrder(clientId, key, command);
    res.status(status).type(status < 300 ? 'application/json' : 'application/problem+json').send(JSON.stringify(body));
});

shopModule.listen(app, options, shop, 'express-idempotency');
