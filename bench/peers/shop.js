// The shop both Node peers share (issue 16): command-line flags, the better-sqlite3 database, the API keys, the
// validation of a POST /orders body and the order transaction. Only the idempotency library differs between
// node-idempotency.js and express-idempotency.js, so a difference in their numbers is the library's.
//
// Kept close to onceorder-server's POST /orders (docs/api.md) where wrk can see it: Bearer API key -> client id,
// body {"product","quantity"} or {"cart_id"?,"items":[{"product","quantity"}]}, one orders row per order with the
// client id and the key (so bench/peers/run checks counts and duplicates with the same SQL as for ours), a
// conditional stock decrement in the same transaction, 201 with a JSON body, 422 out of stock / cart already
// ordered. Unlike ours, the keys live in the library's memory: they are not in the order's transaction and are
// gone after a restart or a crash.
'use strict';

const Database = require('better-sqlite3');

const API_KEYS = { 'demo-key-A': 'A', 'demo-key-B': 'B' };
const OPERATOR_KEY = 'demo-key-admin';

// --listen HOST:PORT (port 0 = any free port), --db PATH, --synchronous full|normal|default
// ("default" sets no pragma: better-sqlite3 is compiled with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so WAL runs at NORMAL).
function parseArgs(argv) {
    const options = { host: '127.0.0.1', port: 8080, db: 'peer.db', synchronous: 'full' };
    for (let i = 0; i < argv.length; i += 2) {
        const [flag, value] = [argv[i], argv[i + 1]];
        if (value === undefined) throw new Error(`${flag} needs a value`);
        if (flag === '--listen') {
            const colon = value.lastIndexOf(':');
            options.host = value.slice(0, colon);
            options.port = Number(value.slice(colon + 1));
        } else if (flag === '--db') {
            options.db = value;
        } else if (flag === '--synchronous') {
            if (!['full', 'normal', 'default'].includes(value)) throw new Error(`--synchronous ${value}`);
            options.synchronous = value;
        } else {
            throw new Error(`unknown flag ${flag}`);
        }
    }
    return options;
}

function openShop(options) {
    const db = new Database(options.db);
    db.pragma('journal_mode = WAL');
    if (options.synchronous !== 'default') db.pragma(`synchronous = ${options.synchronous.toUpperCase()}`);
    db.exec(`
        CREATE TABLE IF NOT EXISTS products (id TEXT PRIMARY KEY, name TEXT NOT NULL, stock INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS orders (
            order_id INTEGER PRIMARY KEY, client_id TEXT NOT NULL, idem_key TEXT NOT NULL, cart_id TEXT,
            body TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE UNIQUE INDEX IF NOT EXISTS orders_cart ON orders (client_id, cart_id) WHERE cart_id IS NOT NULL;
        CREATE TABLE IF NOT EXISTS order_lines (
            order_id INTEGER NOT NULL, product TEXT NOT NULL, quantity INTEGER NOT NULL);
        INSERT OR IGNORE INTO products VALUES ('kniha', 'Kniha', 100), ('hrnek', 'Hrnek', 50), ('propiska', 'Propiska', 200);
    `);
    const effective = db.pragma('synchronous', { simple: true }); // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
    const decrement = db.prepare('UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?');
    const productExists = db.prepare('SELECT 1 FROM products WHERE id = ?').pluck();
    const cartOrder = db.prepare('SELECT order_id FROM orders WHERE client_id = ? AND cart_id = ?').pluck();
    const insertOrder = db.prepare(
        'INSERT INTO orders (client_id, idem_key, cart_id, body, created_at) VALUES (?, ?, ?, ?, ?)');
    const setBody = db.prepare('UPDATE orders SET body = ? WHERE order_id = ?');
    const insertLine = db.prepare('INSERT INTO order_lines VALUES (?, ?, ?)');
    const setStock = db.prepare('UPDATE products SET stock = ? WHERE id = ?');

    // One transaction per order (one commit, one WAL fsync at FULL): the cart check, the stock decrements, the
    // order and its lines. Returns [status, body].
    const place = db.transaction((clientId, key, command) => {
        if (command.cart_id !== undefined) {
            const existing = cartOrder.get(clientId, command.cart_id);
            if (existing !== undefined) {
                return [422, problem('cart-already-ordered', 'This cart has already been ordered', 422, { order_id: existing })];
            }
        }
        for (const item of command.items) {
            if (decrement.run(item.quantity, item.product, item.quantity).changes === 0) {
                throw new OutOfStock(item.product);
            }
        }
        const createdAt = new Date().toISOString();
        const orderId = Number(insertOrder.run(clientId, key, command.cart_id ?? null, '', createdAt).lastInsertRowid);
        for (const item of command.items) insertLine.run(orderId, item.product, item.quantity);
        const body = { order_id: orderId, status: 'placed' };
        if (command.cart_id !== undefined) body.cart_id = command.cart_id;
        body.items = command.items;
        body.created_at = createdAt;
        setBody.run(JSON.stringify(body), orderId);
        return [201, body];
    });

    return {
        synchronous: ['off', 'normal', 'full', 'extra'][effective],
        // Validates the body as ours does (a 4xx that does not consume the key) or returns the command.
        parse(body) {
            if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
            const items = body.items !== undefined ? body.items : [{ product: body.product, quantity: body.quantity }];
            if (!Array.isArray(items) || items.length === 0 || items.length > 50) return null;
            for (const item of items) {
                if (item === null || typeof item !== 'object' || typeof item.product !== 'string') return null;
                if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > 1000) return null;
                if (productExists.get(item.product) === undefined) return null;
            }
            if (body.cart_id !== undefined && (typeof body.cart_id !== 'string' || body.cart_id.length === 0)) return null;
            const command = { items: items.map((i) => ({ product: i.product, quantity: i.quantity })) };
            if (body.cart_id !== undefined) command.cart_id = body.cart_id;
            return command;
        },
        placeOrder(clientId, key, command) {
            try {
                return place(clientId, key, command);
            } catch (error) {
                if (!(error instanceof OutOfStock)) throw error;
                return [422, problem('out-of-stock', 'Not enough stock', 422, { product: error.product })];
            }
        },
        setStock(product, stock) {
            return setStock.run(stock, product).changes === 1;
        },
        close() {
            db.close();
        },
    };
}

class OutOfStock extends Error {
    constructor(product) {
        super(`out of stock: ${product}`);
        this.product = product;
    }
}

function problem(type, title, status, extra = {}) {
    return { type: `/problems/${type}`, title, status, ...extra };
}

function sendProblem(res, status, type, title) {
    res.status(status).type('application/problem+json').send(JSON.stringify(problem(type, title, status)));
}

// Bearer API key -> client id, never from the body.
function clientOf(req) {
    const match = /^Bearer (.+)$/.exec(req.get('Authorization') || '');
    return match ? API_KEYS[match[1]] : undefined;
}

// The key as ours stores it: an RFC 8941 sf-string "abc" or a bare token abc.
function bareKey(header) {
    return header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
}

// The routes both peers share besides POST /orders; `listen` prints ours's ready line once listening.
function addCommonRoutes(app, shop) {
    app.get('/healthz', (req, res) => res.json({ status: 'ok' }));
    app.put('/products/:id/stock', (req, res) => {
        if (req.get('Authorization') !== `Bearer ${OPERATOR_KEY}`) return sendProblem(res, 403, 'forbidden', 'Operator key only');
        if (!Number.isInteger(req.body?.stock) || req.body.stock < 0) return sendProblem(res, 400, 'invalid-stock', 'Invalid stock');
        if (!shop.setStock(req.params.id, req.body.stock)) return sendProblem(res, 404, 'unknown-product', 'Unknown product');
        res.json({ id: req.params.id, stock: req.body.stock });
    });
}

function listen(app, options, shop, name) {
    const server = app.listen(options.port, options.host, () => {
        const { address, port } = server.address();
        process.stderr.write(`${name}: synchronous ${shop.synchronous}, db ${options.db}\n`);
        process.stdout.write(`listening on http://${address}:${port}\n`);
    });
    server.keepAliveTimeout = 65000; // wrk keeps its connections; Node's 5 s default would close idle ones
    const stop = () => {
        server.close(() => {
            shop.close();
            process.exit(0);
        });
        server.closeIdleConnections();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return server;
}

module.exports = { parseArgs, openShop, clientOf, bareKey, sendProblem, addCommonRoutes, listen };
