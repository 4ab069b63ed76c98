// The contract test: docs/openapi.yaml and the real onceorder-server must agree in both directions.
//
//   node tests/contract/contract-test.mjs SERVER_BINARY
//
// 1. The server's side, read from its source: every route registered in server-stub/ and every problem type it
//    constructs must be in the document, and every documented route and type must be in the source.
// 2. Real traffic through @stoplight/prism-cli's validating proxy (`--errors`: a violation becomes an error answer)
//    to real servers: the article's table, every problem type, the debug routes. Well-formed requests go through
//    a proxy that validates requests and answers; the deliberately malformed ones (no key, a bad body, a bad limit)
//    through one that validates the answers only, since the point is what the server answers them.
// 3. Every status the document gives a route was produced by that traffic at least once, and every problem type
//    was seen, except the few that loopback traffic cannot reach (listed below, with why).
//
// Prints one line per check and ends with "N passed, N failed"; exits 1 if any failed.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const documentPath = path.join(root, 'docs/openapi.yaml');
const serverBinary = path.resolve(process.argv[2] ?? path.join(root, 'build/bin/onceorder-server'));
const prismBinary = path.join(here, 'node_modules/.bin/prism');
const webhookSecret = 'whsec_onceorder_demo';

// Documented answers that loopback traffic cannot produce, and why; they are reported, not counted.
const unreachable = {
    '/problems/debug-loopback-only': 'needs a peer address outside 127.0.0.0/8 and ::1',
    '/problems/metrics-operator-only': 'needs a peer address outside 127.0.0.0/8 and ::1: tests/ServerCredentialsTest.cpp',
    '/problems/internal-error': 'an unexpected exception in a handler: a bug, never produced on purpose',
    '/problems/too-many-connections': 'needs more connections than the cap: tests/ServerAttackTest.cpp',
    '/problems/too-many-uploads': 'needs 32 MiB of bodies in flight: tests/ServerAttackTest.cpp',
    '/problems/memory-budget-full': 'needs the memory budget full: tests/ServerAttackTest.cpp',
    '/problems/not-ready': 'needs a database that went away: tests/ServerOutageTest.cpp',
};

const document = yaml.load(readFileSync(documentPath, 'utf8'));
let passed = 0;
let failed = 0;
function check(ok, name, detail = '') {
    if (ok) {
        passed += 1;
        console.log(`ok - ${name}`);
    } else {
        failed += 1;
        console.log(`not ok - ${name}${detail ? `\n    ${detail}` : ''}`);
    }
    return ok;
}

// ---- 1. The server's source against the document -------------------------------------------------------------

function sourceFiles(dir) {
    return readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? sourceFiles(full) : /\.(cpp|h)$/.test(name) ? [full] : [];
    });
}
const sources = sourceFiles(path.join(root, 'server-stub')).map((file) => readFileSync(file, 'utf8'));

// Route registrations: HttpApi's add("POST", "/orders", …) or add("GET", "/orders/{id}", …) (and httplib's
// server.Post("/orders", …) style, should a route be registered so); a capture is a parameter.
const serverRoutes = new Set();
for (const text of sources) {
    for (const m of text.matchAll(/\.(Get|Post|Put|Delete|Patch)\(\s*(?:R"\()?"?(\/[^"\s,]*?)(?:\)")?"?\s*,/g)) {
        serverRoutes.add(`${m[1].toUpperCase()} ${m[2].replace(/\(\[\^\/\]\+\)|\{[^}]+\}/g, '{}')}`);
    }
    for (const m of text.matchAll(/\badd\(\s*"(GET|POST|PUT|DELETE|PATCH)"\s*,\s*"(\/[^"\s]*)"/g)) {
        serverRoutes.add(`${m[1]} ${m[2].replace(/\(\[\^\/\]\+\)|\{[^}]+\}/g, '{}')}`);
    }
}
const documentedRoutes = new Set();
const documentedStatuses = new Map(); // "POST /orders" -> ["201", "400", …]
for (const [route, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
        if (item[method]) {
            const key = `${method.toUpperCase()} ${route}`;
            documentedRoutes.add(`${method.toUpperCase()} ${route.replace(/\{[^}]+\}/g, '{}')}`);
            documentedStatuses.set(key, Object.keys(item[method].responses));
        }
    }
}
const missingRoutes = [...serverRoutes].filter((r) => !documentedRoutes.has(r));
const extraRoutes = [...documentedRoutes].filter((r) => !serverRoutes.has(r));
check(serverRoutes.size > 0 && missingRoutes.length === 0, 'every route the server registers is documented',
    `not in docs/openapi.yaml: ${missingRoutes.join(', ')}`);
check(extraRoutes.length === 0, 'every documented route is registered by the server',
    `not in server-stub/: ${extraRoutes.join(', ')}`);

// Every problem is made in support/Problems.cpp as make(status, "slug", …) or checkoutTransient("slug", …); a
// Problem {status, "slug", …} literal anywhere else counts too.
const serverTypes = new Set();
for (const text of sources) {
    const patterns = [/Problem\s*\{\s*[\w.]+\s*,\s*"([a-z][a-z-]*)"/g, /\bmake\(\s*[\w.]+\s*,\s*"([a-z][a-z-]*)"/g,
        /\b(?:checkoutT|t)ransient\(\s*"([a-z][a-z-]*)"/g];
    for (const pattern of patterns) {
        for (const m of text.matchAll(pattern)) {
            serverTypes.add(`/problems/${m[1]}`);
        }
    }
}
const documentedTypes = new Set(document.components.schemas.ProblemType.enum);
const missingTypes = [...serverTypes].filter((t) => !documentedTypes.has(t));
const extraTypes = [...documentedTypes].filter((t) => !serverTypes.has(t));
check(serverTypes.size > 0 && missingTypes.length === 0, 'every problem type in server-stub/ is documented',
    `not in ProblemType: ${missingTypes.join(', ')}`);
check(extraTypes.length === 0, 'every documented problem type is produced somewhere in server-stub/',
    `not in server-stub/: ${extraTypes.join(', ')}`);

// ---- 2. Real traffic through the validating proxy -------------------------------------------------------------

const children = [];
const workDir = mkdtempSync(path.join(tmpdir(), 'onceorder-contract-'));
function stopAll() {
    for (const child of children) {
        child.kill('SIGTERM');
    }
    rmSync(workDir, { recursive: true, force: true });
}
process.on('exit', stopAll);

function freePort() {
    return new Promise((resolve, reject) => {
        const probe = net.createServer();
        probe.once('error', reject);
        probe.listen(0, '127.0.0.1', () => {
            const { port } = probe.address();
            probe.close(() => resolve(port));
        });
    });
}

function startServer(args) {
    return new Promise((resolve, reject) => {
        const child = spawn(serverBinary, ['--listen', '127.0.0.1:0', '--threads', '4', ...args], {
            stdio: ['ignore', 'pipe', 'ignore'],
            env: { ...process.env, ONCEORDER_WEBHOOK_SECRET: webhookSecret },
        });
        children.push(child);
        let out = '';
        child.stdout.on('data', (chunk) => {
            out += chunk;
            const m = out.match(/listening on (http:\/\/\S+)/);
            if (m) {
                resolve(m[1]);
            }
        });
        child.once('exit', (code) => reject(new Error(`onceorder-server exited with ${code} before listening`)));
    });
}

async function startProxy(upstream, validateRequests) {
    const port = await freePort();
    const args = ['proxy', documentPath, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port),
        '--verboseLevel', 'error'];
    if (!validateRequests) {
        args.push('--validate-request=false');
    }
    const child = spawn(prismBinary, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    for (let attempt = 0; attempt < 300; attempt += 1) {
        try {
            await fetch(`${url}/healthz`);
            return url;
        } catch {
            await new Promise((r) => setTimeout(r, 100)); // prism has no ready line to wait for
        }
    }
    throw new Error(`prism proxy on ${url} did not start`);
}

const produced = new Map(); // "POST /orders" -> Set of statuses
const seenTypes = new Set();
const titles = new Map(); // problem type -> Set of titles seen (the contract: one title per cause)

function operationOf(method, url) {
    const { pathname } = new URL(url);
    for (const route of Object.keys(document.paths)) {
        const pattern = new RegExp(`^${route.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        if (pattern.test(pathname) && document.paths[route][method.toLowerCase()]) {
            return `${method} ${route}`;
        }
    }
    return `${method} ${pathname}`;
}

// Sends one request through a proxy and checks the answer: the expected status (and problem type), no violation
// reported by the proxy, and what `expect.headers` asks for. Returns the answer for checks that depend on it.
// `direct` requests go straight to the server because prism will not forward them at all (no Authorization
// header: it answers 401 itself; a body that is not JSON: it answers 400 itself), and their answers are checked
// against the document here instead.
async function exchange(name, base, method, route, { headers = {}, body, expect, direct = false }) {
    const init = { method, headers: { ...headers } };
    if (body !== undefined) {
        init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
        if (!Object.keys(init.headers).some((h) => h.toLowerCase() === 'content-type')) {
            init.headers['Content-Type'] = 'application/json';
        }
    }
    let response;
    let text;
    try {
        response = await fetch(base + route, init);
        text = await response.text();
    } catch (error) {
        check(false, name, `no answer: ${error.message}`);
        return null;
    }
    let json = null;
    try {
        json = JSON.parse(text);
    } catch {
        // text/plain (metrics) or a proxy error page
    }
    const operation = operationOf(method, base + route);
    if (!produced.has(operation)) {
        produced.set(operation, new Set());
    }
    const violations = response.headers.get('sl-violations');
    const proxyError = json && typeof json.type === 'string' && json.type.includes('stoplight.io/prism');
    if (!proxyError) {
        produced.get(operation).add(String(response.status));
        if (json && typeof json.type === 'string') {
            seenTypes.add(json.type);
            titles.set(json.type, (titles.get(json.type) ?? new Set()).add(json.title));
        }
    }
    const problems = [];
    if (direct) {
        const wrong = documentedAnswer(operation, response.status, response.headers.get('content-type'), json);
        if (wrong) {
            problems.push(`docs/openapi.yaml does not describe this answer: ${wrong}`);
        }
    }
    if (proxyError || violations) {
        problems.push(`the proxy reports a violation of docs/openapi.yaml: ${violations ?? ''} ${text.slice(0, 600)}`);
    }
    if (response.status !== expect.status) {
        problems.push(`status ${response.status}, expected ${expect.status}: ${text.slice(0, 300)}`);
    }
    if (expect.type && (!json || json.type !== `/problems/${expect.type}`)) {
        problems.push(`type ${json?.type}, expected /problems/${expect.type}`);
    }
    for (const [header, value] of Object.entries(expect.headers ?? {})) {
        const actual = response.headers.get(header);
        if (value === null ? actual !== null : actual !== value) {
            problems.push(`header ${header}: ${actual}, expected ${value ?? 'none'}`);
        }
    }
    check(problems.length === 0, name, problems.join('\n    '));
    return { status: response.status, headers: response.headers, text, json };
}

function resolve(node) {
    let current = node;
    while (current && current.$ref) {
        current = current.$ref.replace(/^#\//, '').split('/').reduce((at, part) => at[part], document);
    }
    return current;
}

// What prism would have checked, for the answers it cannot carry: the status is documented for the operation, the
// content type is the documented one, and a problem's type is one its schema allows.
function documentedAnswer(operation, status, contentType, json) {
    const [method, route] = operation.split(' ');
    const response = resolve(document.paths[route]?.[method.toLowerCase()]?.responses?.[String(status)]);
    if (!response) {
        return `${status} is not documented for ${operation}`;
    }
    const mediaType = (contentType ?? '').split(';')[0].trim();
    const media = response.content?.[mediaType];
    if (!media) {
        return `${mediaType} is not documented for ${status} of ${operation}`;
    }
    const schema = resolve(media.schema);
    const typeSchema = schema?.allOf?.map(resolve).find((part) => part.properties?.type)?.properties?.type;
    const allowed = typeSchema?.enum ?? (typeSchema?.const ? [typeSchema.const] : null);
    if (allowed && !allowed.includes(json?.type)) {
        return `type ${json?.type} is not one of ${allowed.join(', ')} for ${status} of ${operation}`;
    }
    return null;
}

// Stripe's scheme: t=<unix seconds>,v1=<HMAC-SHA-256 of "<t>.<body>">, within 5 minutes of the server's clock.
function sign(body) {
    const t = Math.floor(Date.now() / 1000);
    return `t=${t},v1=${createHmac('sha256', webhookSecret).update(`${t}.${body}`).digest('hex')}`;
}

const A = { Authorization: 'Bearer demo-key-A' };
const B = { Authorization: 'Bearer demo-key-B' };
const ADMIN = { Authorization: 'Bearer demo-key-admin' };
const key = (k) => ({ 'Idempotency-Key': `"${k}"` });

async function traffic(strict, lenient, plain, direct) {
    const post = (name, base, route, options) => exchange(name, base, 'POST', route, options);
    const get = (name, base, route, options) => exchange(name, base, 'GET', route, options);
    const ok = (status, type, headers) => ({ expect: { status, type, headers } });
    const straight = (status, type) => ({ expect: { status, type }, direct: true });
    // Over 64 KiB, yet JSON: prism parses a body before forwarding it, so a body it cannot parse never arrives.
    const big = (fields) => JSON.stringify({ ...fields, padding: 'x'.repeat(70000) });

    await post('reset the debug server', strict, '/_debug/reset', { body: {}, ...ok(200) });

    // The article's table.
    const first = await post('first request: 201', strict, '/orders', {
        headers: { ...A, ...key('k-1') }, body: { product: 'kniha', quantity: 1 },
        ...ok(201, undefined, { 'idempotent-replayed': null }) });
    const replay = await post('same key, same payload respelled: the stored 201 replayed', strict, '/orders', {
        headers: { ...A, ...key('k-1') }, body: '{ "quantity": 1.0, "product": "kniha" }',
        ...ok(201, undefined, { 'idempotent-replayed': 'true' }) });
    check(first && replay && first.text === replay.text, 'the replay is the stored body byte for byte',
        `${first?.text} vs ${replay?.text}`);
    // prism forwards re-encoded JSON, so the respelling itself is sent straight to the server too.
    const respelled = await post('same key, other member order, spaces and 1e0: replayed', direct, '/orders', {
        headers: { ...A, ...key('k-1') }, body: ' {\n "quantity" : 1e0 ,\t"product":"kniha"} ',
        expect: { status: 201, headers: { 'idempotent-replayed': 'true' } }, direct: true });
    check(first && respelled && first.text === respelled.text, 'the respelled replay is the stored body byte for byte',
        `${first?.text} vs ${respelled?.text}`);
    await post('same key, other payload: 422', strict, '/orders', {
        headers: { ...A, ...key('k-1') }, body: { product: 'kniha', quantity: 2 }, ...ok(422, 'idempotency-key-reused') });
    const other = await post('other client, same key: its own order', strict, '/orders', {
        headers: { ...B, ...key('k-1') }, body: { product: 'kniha', quantity: 1 }, ...ok(201) });
    check(first?.json && other?.json && other.json.order_id !== first.json.order_id,
        'the other client got an order of its own', `${first?.text} / ${other?.text}`);
    await post('missing key: 400', lenient, '/orders', {
        headers: A, body: { product: 'kniha', quantity: 1 }, ...ok(400, 'missing-idempotency-key') });
    await post('empty key: 400 missing', lenient, '/orders', {
        headers: { ...A, 'Idempotency-Key': '' }, body: { product: 'kniha', quantity: 1 },
        ...ok(400, 'missing-idempotency-key') });
    await post('invalid key: 400', strict, '/orders', {
        headers: { ...A, 'Idempotency-Key': '"a b"' }, body: { product: 'kniha', quantity: 1 },
        ...ok(400, 'invalid-idempotency-key') });
    await post('unknown API key: 401', strict, '/orders', {
        headers: { Authorization: 'Bearer nope', ...key('k-2') }, body: { product: 'kniha', quantity: 1 },
        ...ok(401, 'unknown-api-key') });
    await post('no API key: 401', direct, '/orders', {
        headers: key('k-2'), body: { product: 'kniha', quantity: 1 }, ...straight(401, 'unauthenticated') });
    await post('the operator orders: 403', strict, '/orders', {
        headers: { ...ADMIN, ...key('k-2') }, body: { product: 'kniha', quantity: 1 }, ...ok(403, 'operator-cannot-order') });
    await post('body not JSON: 400', direct, '/orders', {
        headers: { ...A, ...key('k-2') }, body: '{"product":', ...straight(400, 'malformed-json') });
    // prism re-encodes the JSON it forwards (a duplicated member would arrive merged): bytes that matter go direct.
    await post('a duplicated member: 400', direct, '/orders', {
        headers: { ...A, ...key('k-2') }, body: '{"product":"kniha","quantity":1,"quantity":2}',
        ...straight(400, 'malformed-json') });
    await post('invalid fields: 400', lenient, '/orders', {
        headers: { ...A, ...key('k-2') }, body: { product: 'kniha', quantity: 0 }, ...ok(400, 'invalid-order') });
    await post('unknown product: 400', strict, '/orders', {
        headers: { ...A, ...key('k-2') }, body: { product: 'nic', quantity: 1 }, ...ok(400, 'unknown-product') });
    await post('wrong content type: 415', lenient, '/orders', {
        headers: { ...A, ...key('k-2'), 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('body over 64 KiB: 413', lenient, '/orders', {
        headers: { ...A, ...key('k-2') }, body: big({ product: 'kniha', quantity: 1 }), ...ok(413, 'payload-too-large') });
    await post('body over 1 MiB, refused before it is read: 413', direct, '/orders', {
        headers: { ...A, ...key('k-2') }, body: ' '.repeat(1100000), ...straight(413, 'payload-too-large') });
    await post('none of the refused requests used the key: it places an order now', strict, '/orders', {
        headers: { ...A, ...key('k-2') }, body: { product: 'kniha', quantity: 1 }, ...ok(201) });

    // Business outcomes are stored and replayed.
    await post('a cart: 201', strict, '/orders', {
        headers: { ...A, ...key('cart-7-k1') },
        body: { cart_id: 'cart-7', items: [{ product: 'hrnek', quantity: 2 }, { product: 'propiska', quantity: 3 }] },
        ...ok(201) });
    const cartAgain = await post('the cart under another key: 422', strict, '/orders', {
        headers: { ...A, ...key('cart-7-k2') },
        body: { cart_id: 'cart-7', items: [{ product: 'hrnek', quantity: 2 }, { product: 'propiska', quantity: 3 }] },
        ...ok(422, 'cart-already-ordered') });
    check(Number.isInteger(cartAgain?.json?.order_id), 'cart-already-ordered names the order', cartAgain?.text);
    await post('more than the stock: 422', strict, '/orders', {
        headers: { ...A, ...key('too-many') }, body: { product: 'hrnek', quantity: 1000 }, ...ok(422, 'out-of-stock') });
    await post('out-of-stock is stored and replayed', strict, '/orders', {
        headers: { ...A, ...key('too-many') }, body: { product: 'hrnek', quantity: 1000 },
        ...ok(422, 'out-of-stock', { 'idempotent-replayed': 'true' }) });

    // Read routes.
    await get('own orders', strict, '/orders', { headers: A, ...ok(200) });
    await get('own orders, newest one', strict, '/orders?limit=1', { headers: A, ...ok(200) });
    await get('own orders for a cart', strict, '/orders?cart_id=cart-7', { headers: A, ...ok(200) });
    await get('a bad limit: 400', lenient, '/orders?limit=0', { headers: A, ...ok(400, 'invalid-limit') });
    await get('orders without an API key: 401', direct, '/orders', { ...straight(401, 'unauthenticated') });
    await get('one order', strict, `/orders/${first?.json?.order_id ?? 1}`, { headers: A, ...ok(200) });
    await get("another client's order: 404", strict, `/orders/${other?.json?.order_id ?? 2}`, {
        headers: A, ...ok(404, 'not-found') });
    await get('an order id that is not a number: 404', strict, '/orders/abc', { headers: A, ...ok(404, 'not-found') });
    await get('one order without an API key: 401', direct, '/orders/1', { ...straight(401, 'unauthenticated') });
    await get('products', strict, '/products', { ...ok(200) });
    await get('health', strict, '/healthz', { ...ok(200) });
    await get('readiness', strict, '/readyz', { ...ok(200) });
    await get('metrics', strict, '/metrics', { ...ok(200) });

    // Stock: an absolute value.
    await exchange('set stock', strict, 'PUT', '/products/kniha/stock', {
        headers: ADMIN, body: { stock: 100 }, ...ok(200) });
    await exchange('set stock with a delta: 400', lenient, 'PUT', '/products/kniha/stock', {
        headers: ADMIN, body: { delta: -1 }, ...ok(400, 'invalid-stock') });
    await exchange('set stock, a duplicated member: 400', direct, 'PUT', '/products/kniha/stock', {
        headers: ADMIN, body: '{"stock":1,"stock":2}', ...straight(400, 'malformed-json') });
    await exchange('set stock as a client: 403', strict, 'PUT', '/products/kniha/stock', {
        headers: A, body: { stock: 1 }, ...ok(403, 'operator-only') });
    await exchange('set stock without an API key: 401', direct, 'PUT', '/products/kniha/stock', {
        body: { stock: 1 }, ...straight(401, 'unauthenticated') });
    await exchange('set the stock of no product: 404', strict, 'PUT', '/products/nic/stock', {
        headers: ADMIN, body: { stock: 1 }, ...ok(404, 'not-found') });
    await exchange('set stock, wrong content type: 415', lenient, 'PUT', '/products/kniha/stock', {
        headers: { ...ADMIN, 'Content-Type': 'text/plain' }, body: '{"stock":1}', ...ok(415, 'unsupported-media-type') });
    await exchange('set stock, body over 64 KiB: 413', lenient, 'PUT', '/products/kniha/stock', {
        headers: ADMIN, body: big({ stock: 1 }), ...ok(413, 'payload-too-large') });

    // Faults: transient failures are never stored, the retry places the order.
    await post('arm fail-before-commit', strict, '/_debug/faults', { body: { fault: 'fail-before-commit' }, ...ok(200) });
    await post('a transient failure: 503 with Retry-After', strict, '/orders', {
        headers: { ...A, ...key('k-fault') }, body: { product: 'kniha', quantity: 1 },
        ...ok(503, 'transient-failure', { 'retry-after': '1' }) });
    await post('arm unavailable', strict, '/_debug/faults?limit=1', {
        body: { fault: 'unavailable', count: 1, retry_after: 3 }, ...ok(200) });
    await post('unavailable: 503 with the armed Retry-After', strict, '/orders', {
        headers: { ...A, ...key('k-fault') }, body: { product: 'kniha', quantity: 1 },
        ...ok(503, 'unavailable', { 'retry-after': '3' }) });
    await post('after the faults the key is unused: 201', strict, '/orders', {
        headers: { ...A, ...key('k-fault') }, body: { product: 'kniha', quantity: 1 },
        ...ok(201, undefined, { 'idempotent-replayed': null }) });

    // Checkout.
    const paid = await post('checkout: 201', strict, '/checkout', {
        headers: { ...A, ...key('pay-1') },
        body: { cart_id: 'cart-9', items: [{ product: 'kniha', quantity: 2 }], payment_method: 'card' }, ...ok(201) });
    await post('checkout replayed', strict, '/checkout', {
        headers: { ...A, ...key('pay-1') },
        body: { payment_method: 'card', items: [{ quantity: 2, product: 'kniha' }], cart_id: 'cart-9' },
        ...ok(201, undefined, { 'idempotent-replayed': 'true' }) });
    await post('checkout, other payload: 422', strict, '/checkout', {
        headers: { ...A, ...key('pay-1') },
        body: { cart_id: 'cart-9', items: [{ product: 'kniha', quantity: 3 }], payment_method: 'card' },
        ...ok(422, 'idempotency-key-reused') });
    await post('checkout without a payment method: 400', lenient, '/checkout', {
        headers: { ...A, ...key('pay-x') }, body: { product: 'hrnek', quantity: 1 }, ...ok(400, 'invalid-payment-method') });
    await post('checkout without an API key: 401', direct, '/checkout', {
        headers: key('pay-x'), body: { product: 'hrnek', quantity: 1, payment_method: 'card' },
        ...straight(401, 'unauthenticated') });
    await post('checkout by the operator: 403', strict, '/checkout', {
        headers: { ...ADMIN, ...key('pay-x') }, body: { product: 'hrnek', quantity: 1, payment_method: 'card' },
        ...ok(403, 'operator-cannot-order') });
    await post('checkout, wrong content type: 415', lenient, '/checkout', {
        headers: { ...A, ...key('pay-x'), 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('checkout, body over 64 KiB: 413', lenient, '/checkout', {
        headers: { ...A, ...key('pay-x') }, body: big({ product: 'hrnek', quantity: 1, payment_method: 'card' }),
        ...ok(413, 'payload-too-large') });
    await post('arm gateway-decline', strict, '/_debug/faults', { body: { fault: 'gateway-decline' }, ...ok(200) });
    const declined = await post('a declined payment: 402, stored', strict, '/checkout', {
        headers: { ...A, ...key('pay-2') }, body: { product: 'hrnek', quantity: 1, payment_method: 'card' },
        ...ok(402, 'payment-declined') });
    check(Number.isInteger(declined?.json?.order_id), 'payment-declined names the order', declined?.text);
    await post('the decline replayed', strict, '/checkout', {
        headers: { ...A, ...key('pay-2') }, body: { product: 'hrnek', quantity: 1, payment_method: 'card' },
        ...ok(402, 'payment-declined', { 'idempotent-replayed': 'true' }) });
    await post('arm gateway-timeout', strict, '/_debug/faults', { body: { fault: 'gateway-timeout' }, ...ok(200) });
    await post('the gateway did not answer: 503', strict, '/checkout', {
        headers: { ...A, ...key('pay-3') }, body: { product: 'hrnek', quantity: 1, payment_method: 'card' },
        ...ok(503, 'gateway-timeout', { 'retry-after': '1' }) });
    await post('the retry resumes and finds the charge: 201', strict, '/checkout', {
        headers: { ...A, ...key('pay-3') }, body: { product: 'hrnek', quantity: 1, payment_method: 'card' },
        ...ok(201, undefined, { 'idempotent-replayed': null }) });
    await post('arm gateway-fail', strict, '/_debug/faults', { body: { fault: 'gateway-fail' }, ...ok(200) });
    await post('the gateway failed before charging: 503', strict, '/checkout', {
        headers: { ...A, ...key('pay-5') }, body: { product: 'propiska', quantity: 1, payment_method: 'card' },
        ...ok(503, 'gateway-unavailable', { 'retry-after': '1' }) });
    await post('arm gateway-slow', strict, '/_debug/faults', {
        body: { fault: 'gateway-slow', delay_ms: 1500 }, ...ok(200) });
    const slow = post('a slow checkout: 201 in the end', strict, '/checkout', {
        headers: { ...A, ...key('pay-4') }, body: { product: 'propiska', quantity: 1, payment_method: 'card' },
        ...ok(201) });
    await new Promise((r) => setTimeout(r, 500)); // the first request is at the gateway by now
    await post('the same key meanwhile: 409 with Retry-After', strict, '/checkout', {
        headers: { ...A, ...key('pay-4') }, body: { product: 'propiska', quantity: 1, payment_method: 'card' },
        ...ok(409, 'request-in-progress', { 'retry-after': '1' }) });
    await slow;

    // Webhooks: signed, idempotent by event id and by effect.
    const ignoredEvent = JSON.stringify({ id: 'evt_contract_1', type: 'charge.refunded' });
    await post('a webhook of another type: 200 ignored', strict, '/webhooks/payments', {
        headers: { 'Gateway-Signature': sign(ignoredEvent) }, body: ignoredEvent, ...ok(200) });
    const dup = await post('the same event again: 200 duplicate', strict, '/webhooks/payments', {
        headers: { 'Gateway-Signature': sign(ignoredEvent) }, body: ignoredEvent, ...ok(200) });
    check(dup?.json?.result === 'duplicate', 'a redelivered event is a duplicate', dup?.text);
    const charge = paid?.json?.payment;
    if (charge) {
        const twin = JSON.stringify({ id: 'evt_contract_twin', type: 'charge.succeeded', charge_id: charge.charge_id,
            reference: 'twin-of-a-paid-order', amount: charge.amount, created_at: '2026-12-03T00:00:00Z' });
        await post('a charge for no order: 422', strict, '/webhooks/payments', {
            headers: { 'Gateway-Signature': sign(twin) }, body: twin, ...ok(422, 'unknown-payment-reference') });
    }
    await post('a webhook with a wrong signature: 401', strict, '/webhooks/payments', {
        headers: { 'Gateway-Signature': 't=1,v1=0000' }, body: ignoredEvent, ...ok(401, 'invalid-webhook-signature') });
    const badEvent = JSON.stringify({ id: 7 });
    await post('a webhook without its members: 400', lenient, '/webhooks/payments', {
        headers: { 'Gateway-Signature': sign(badEvent) }, body: badEvent, ...ok(400, 'invalid-webhook') });
    await post('a webhook, wrong content type: 415', lenient, '/webhooks/payments', {
        headers: { 'Gateway-Signature': sign('{}'), 'Content-Type': 'text/plain' }, body: '{}',
        ...ok(415, 'unsupported-media-type') });
    await post('a webhook over 64 KiB: 413', lenient, '/webhooks/payments', {
        headers: { 'Gateway-Signature': 't=1,v1=00' }, body: big({ id: 'evt_big', type: 'charge.refunded' }),
        ...ok(413, 'payload-too-large') });

    // The rest of the debug routes.
    await get('debug state', strict, '/_debug/state?limit=2', { ...ok(200) });
    await get('debug state, bad limit: 400', lenient, '/_debug/state?limit=01', { ...ok(400, 'invalid-limit') });
    await post('an unknown fault: 400', lenient, '/_debug/faults', { body: { fault: 'explode' }, ...ok(400, 'invalid-fault') });
    await post('arm a fault, wrong content type: 415', lenient, '/_debug/faults', {
        headers: { 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('set a mode', strict, '/_debug/mode', { body: { store_transient: false }, ...ok(200) });
    await post('a mode that is not a boolean: 400', lenient, '/_debug/mode', {
        body: { check_then_insert: 'yes' }, ...ok(400, 'invalid-mode') });
    await post('set a mode, wrong content type: 415', lenient, '/_debug/mode', {
        headers: { 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('reset, bad limit: 400', lenient, '/_debug/reset?limit=1001', { body: {}, ...ok(400, 'invalid-limit') });
    await post('the completer, once', strict, '/_debug/complete', { body: {}, ...ok(200) });
    // A web page's cross-site form: a body that is not JSON, or a foreign Origin, changes nothing.
    await post('reset from a form, text/plain: 415', lenient, '/_debug/reset', {
        headers: { 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('the completer from a form, text/plain: 415', lenient, '/_debug/complete', {
        headers: { 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('the completer with JSON that is not an object: 400', lenient, '/_debug/complete', {
        body: [], ...ok(400, 'invalid-debug-body') });
    await post('reset from a foreign page: 403', lenient, '/_debug/reset', {
        headers: { Origin: 'https://evil.example' }, body: {}, ...ok(403, 'debug-foreign-origin') });

    // The failover lesson's standby: a folder where its file would go is a 503 (and changes nothing), then it works.
    const standby = path.join(workDir, 'server.db.standby');
    mkdirSync(standby);
    await post('a standby that cannot be written: 503', lenient, '/_debug/replication', {
        body: { mode: 'sync' }, ...ok(503, 'database-unavailable') });
    rmSync(standby, { recursive: true });
    await post('a synchronous standby', strict, '/_debug/replication', { body: { mode: 'sync' }, ...ok(200) });
    await post('an asynchronous standby, held back', strict, '/_debug/replication', {
        body: { mode: 'async', paused: true }, ...ok(200) });
    await get('debug state with a standby', strict, '/_debug/state?limit=1', { ...ok(200) });
    await post('paused without async: 400', lenient, '/_debug/replication', {
        body: { mode: 'sync', paused: true }, ...ok(400, 'invalid-replication') });
    await post('replication, wrong content type: 415', lenient, '/_debug/replication', {
        headers: { 'Content-Type': 'text/plain' }, body: '{}', ...ok(415, 'unsupported-media-type') });
    await post('replication off', strict, '/_debug/replication', { body: { mode: 'off' }, ...ok(200) });

    // The same routes on a server without --debug-endpoints.
    await get('debug state without --debug-endpoints: 404', plain, '/_debug/state', { ...ok(404, 'not-found') });
    for (const route of ['/_debug/faults', '/_debug/mode', '/_debug/reset', '/_debug/complete', '/_debug/replication']) {
        await post(`${route} without --debug-endpoints: 404`, plain, route, {
            body: route === '/_debug/faults' ? { fault: 'none' } : route === '/_debug/replication' ? { mode: 'off' } : {},
            ...ok(404, 'not-found') });
    }
}

// A request the HTTP layer cannot read never reaches a route (nor a proxy, which would not forward it): sent on a
// socket straight to the server. It must still be a problem+json of a documented type.
function rawRequest(serverUrl, bytes) {
    const { hostname, port } = new URL(serverUrl);
    return new Promise((resolve) => {
        // Not end(): the HTTP library drops its answer when it sees the client's FIN.
        const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
        let data = '';
        socket.setTimeout(5000, () => socket.destroy());
        socket.on('data', (chunk) => {
            data += chunk;
            const head = data.indexOf('\r\n\r\n');
            const length = Number(/content-length: *(\d+)/i.exec(data)?.[1] ?? 0);
            if (head >= 0 && data.length >= head + 4 + length) {
                socket.destroy();
            }
        });
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
    });
}

try {
    const debugServer = await startServer(['--db', path.join(workDir, 'server.db'), '--debug-endpoints']);
    const plainServer = await startServer(['--db', ':memory:']);
    const [strict, lenient, plain] = await Promise.all([
        startProxy(debugServer, true), startProxy(debugServer, false), startProxy(plainServer, false)]);
    await traffic(strict, lenient, plain, debugServer);

    const unreadable = await rawRequest(plainServer, 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n');
    const body = unreadable.slice(unreadable.indexOf('\r\n\r\n') + 4);
    let type;
    try {
        type = JSON.parse(body).type;
    } catch {
        type = undefined;
    }
    if (type) {
        seenTypes.add(type);
    }
    check(/^HTTP\/1\.1 4\d\d /.test(unreadable) && unreadable.includes('application/problem+json') &&
        type === '/problems/http-error', 'a request the HTTP layer cannot read: 4xx http-error', unreadable.slice(0, 300));
    // The transport's own refusals, on the wire as they come (no proxy would forward them as sent).
    const refusals = [
        [plainServer, 'GET /healthz HTTP/1.1\r\n\r\n', 400, '/problems/invalid-host'],
        [plainServer, 'POST /orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n', 400,
            '/problems/invalid-framing'],
        [plainServer, 'POST /orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n', 501,
            '/problems/transfer-coding-not-implemented'],
        [plainServer, `GET /orders/${'7'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, '/problems/uri-too-long'],
        [plainServer, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(70000)}\r\n\r\n`, 431,
            '/problems/header-too-large'],
        [debugServer, 'GET /_debug/state HTTP/1.1\r\nHost: evil.example\r\n\r\n', 403, '/problems/debug-foreign-host'],
        [plainServer, 'GET /heal\x80thz HTTP/1.1\r\nHost: x\r\n\r\n', 400, '/problems/invalid-target'],
        [plainServer, 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello', 400,
            '/problems/body-not-allowed'],
        [plainServer, `POST /orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-key-A\r\n` +
            `Transfer-Encoding: chunked\r\n\r\n1;a=${'x'.repeat(20000)}`, 413, '/problems/chunk-line-too-large'],
        [plainServer, `POST /orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-key-A\r\n` +
            `Transfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: ${'y'.repeat(20000)}`, 431, '/problems/trailer-too-large'],
    ];
    for (const [server, request, status, expected] of refusals) {
        const answer = await rawRequest(server, request);
        let refusal;
        try {
            refusal = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).type;
        } catch {
            refusal = undefined;
        }
        if (refusal) {
            seenTypes.add(refusal);
        }
        check(answer.startsWith(`HTTP/1.1 ${status} `) && answer.includes('application/problem+json') &&
            refusal === expected, `the transport refuses with ${status} ${expected}`, answer.slice(0, 300));
    }

    // A client over its --client-rate: 429 rate-limited with Retry-After on both idempotent POSTs, checked against
    // the document straight from the server. Ten requests at once first spend the one token a second this server
    // gives (the checked request would find one again only if the ten took more than ten seconds).
    const limitedServer = await startServer(['--db', ':memory:', '--client-rate', '1']);
    for (const [route, body] of [['/orders', { product: 'kniha', quantity: 1 }],
        ['/checkout', { cart_id: 'cart-rate', items: [{ product: 'kniha', quantity: 1 }], payment_method: 'card' }]]) {
        await Promise.all([...Array(10).keys()].map((i) => fetch(limitedServer + route, {
            method: 'POST', headers: { ...A, ...key(`spend-${route}-${i}`), 'Content-Type': 'application/json' },
            body: JSON.stringify(body) }).then((r) => r.text())));
        await exchange(`a client over its rate: POST ${route} 429`, limitedServer, 'POST', route, {
            headers: { ...A, ...key(`over-${route}`) }, body, expect: { status: 429, type: 'rate-limited',
                headers: { 'Retry-After': '1' } }, direct: true });
    }

    // A client at its key-row quota (--client-key-rows 1): its one new key is placed, the next is 429
    // key-quota-exceeded with Retry-After, on both idempotent POSTs (they share the quota).
    const quotaServer = await startServer(['--db', ':memory:', '--client-rate', '0', '--client-key-rows', '1']);
    await fetch(quotaServer + '/orders', { method: 'POST', headers: { ...A, ...key('quota-first'),
        'Content-Type': 'application/json' }, body: JSON.stringify({ product: 'kniha', quantity: 1 }) })
        .then((r) => r.text());
    for (const [route, body] of [['/orders', { product: 'kniha', quantity: 1 }],
        ['/checkout', { cart_id: 'cart-quota', items: [{ product: 'kniha', quantity: 1 }], payment_method: 'card' }]]) {
        await exchange(`a client at its key-row quota: POST ${route} 429`, quotaServer, 'POST', route, {
            headers: { ...A, ...key(`quota-${route}`) }, body, expect: { status: 429, type: 'key-quota-exceeded' },
            direct: true });
    }
} catch (error) {
    check(false, 'the servers and the proxies start', error.stack);
}

// ---- 3. Every documented answer was produced ------------------------------------------------------------------

for (const [operation, statuses] of documentedStatuses) {
    const seen = produced.get(operation) ?? new Set();
    // A debug 403, and /metrics' 401 and 403, need a foreign peer (tests/ServerCredentialsTest.cpp); /readyz's 503
    // a database that went away (tests/ServerOutageTest.cpp).
    const never = statuses.filter((s) => !seen.has(s) && !(s === '403' && operation.includes('/_debug/')) &&
        !((s === '401' || s === '403') && operation === 'GET /metrics') &&
        !(s === '503' && operation === 'GET /readyz'));
    check(never.length === 0, `every documented status of ${operation} was produced`,
        `never produced: ${never.join(', ')} (produced: ${[...seen].join(', ')})`);
}
const manyTitles = [...titles].filter(([, seen]) => seen.size > 1);
check(manyTitles.length === 0, 'every problem type has one title', manyTitles.map(([t, seen]) => `${t}: ${[...seen].join(' | ')}`).join('; '));
const neverSeen = [...documentedTypes].filter((t) => !seenTypes.has(t) && !unreachable[t]);
check(neverSeen.length === 0, 'every documented problem type was produced', `never produced: ${neverSeen.join(', ')}`);
for (const [type, why] of Object.entries(unreachable)) {
    console.log(`# not produced on purpose: ${type} (${why})`);
}
console.log('# not produced on purpose: 403 on the /_debug/* routes (debug-loopback-only, as above)');

stopAll();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
