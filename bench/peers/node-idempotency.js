// Peer A of issue 16: express 4 + @node-idempotency/core with its memory storage adapter (the library's own flow:
// onRequest before the business logic, onResponse after it), on the shared better-sqlite3 shop (shop.js).
//
// usage: node node-idempotency.js [--listen 127.0.0.1:0] [--db PATH] [--synchronous full|normal|default]
'use strict';

const express = require('express');
const { Idempotency, IdempotencyError, IdempotencyErrorCodes } = require('@node-idempotency/core');
const { MemoryStorageAdapter } = require('@node-idempotency/storage-adapter-memory');
const shopModule = require('./shop');

const options = shopModule.parseArgs(process.argv.slice(2));
const shop = shopModule.openShop(options);
const idempotency = new Idempotency(new MemoryStorageAdapter(), {}); // defaults: 24 h TTL, no waiting on in-progress

// The library's problems, in ours's status codes (docs/api.md).
const errorStatus = {
    [IdempotencyErrorCodes.IDEMPOTENCY_FINGERPRINT_MISSMATCH]: [422, 'idempotency-key-reused'],
    [IdempotencyErrorCodes.REQUEST_IN_PROGRESS]: [409, 'request-in-progress'],
    [IdempotencyErrorCodes.IDEMPOTENCY_KEY_LEN_EXEEDED]: [400, 'invalid-idempotency-key'],
    [IdempotencyErrorCodes.IDEMPOTENCY_KEY_MISSING]: [400, 'missing-idempotency-key'],
};

const app = express();
app.use(express.json());
shopModule.addCommonRoutes(app, shop);

app.post('/orders', async (req, res) => {
    const clientId = shopModule.clientOf(req);
    if (clientId === undefined) return shopModule.sendProblem(res, 401, 'unauthorized', 'Unknown API key');
    const key = req.get('Idempotency-Key');
    if (!key) return shopModule.sendProblem(res, 400, 'missing-idempotency-key', 'Idempotency-Key is missing');
    const command = shop.parse(req.body);
    if (command === null) return shopModule.sendProblem(res, 400, 'invalid-order', 'Invalid order');

    // The library's cache key is prefix:method:path:key; the client id in the prefix scopes keys per client as ours.
    const request = {
        method: 'POST',
        path: '/orders',
        headers: req.headers,
        body: req.body,
        options: { cacheKeyPrefix: `node-idempotency:${clientId}` },
    };
    let stored;
    try {
        stored = await idempotency.onRequest(request);
    } catch (error) {
        if (!(error instanceof IdempotencyError)) throw error;
        const [status, type] = errorStatus[error.code] ?? [400, 'idempotency-error'];
        if (status === 409) res.set('Retry-After', '1');
        return shopModule.sendProblem(res, status, type, error.message);
    }
    if (stored) {
        return res.status(stored.additional.status).set('Idempotent-Replayed', 'true')
            .type(stored.additional.status < 300 ? 'application/json' : 'application/problem+json').send(stored.body);
    }
    const [status, body] = shop.placeOrder(clientId, shopModule.bareKey(key), command);
    const text = JSON.stringify(body);
    await idempotency.onResponse(request, { body: text, additional: { status } });
    res.status(status).type(status < 300 ? 'application/json' : 'application/problem+json').send(text);
});

shopModule.listen(app, options, shop, 'node-idempotency');
