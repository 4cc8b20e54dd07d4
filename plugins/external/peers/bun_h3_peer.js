// LiteSpeed lsquic through Bun 1.4 as an HTTP/3 client or server of the
// request-response workload the external plugin's HTTP/3 profiles share: the
// server serves the files of a folder, the client fetches one URL N times
// over one connection. Bun writes no key log on either side, and sets no
// transport parameters: its cases are decrypted with the peer's key log and
// run at lsquic's own limits.
//
//   bun bun_h3_peer.js server --listen 127.0.0.1:4433 --cert C --key K --htdocs DIR
//   bun --experimental-http3-fetch bun_h3_peer.js client -n N [--timeout-ms T] https://127.0.0.1:4433/path
//
// Exit status: 0 every response arrived, 1 a request failed or timed out, 2 bad arguments.

// Bun opens further connections from the same UDP port beyond about 30
// concurrent fetches; the workload wants one connection, so at most this many
// requests are in flight.
const kInFlight = 30;

function usage(message) {
  console.error(`bun_h3_peer: ${message}`);
  process.exit(2);
}

function parse(argv) {
  const o = { role: argv[0], requests: 1, timeoutMs: 10000, rest: [] };
  if (o.role !== "server" && o.role !== "client") usage("the first argument is server or client");
  const take = { "--listen": "listen", "--cert": "cert", "--key": "key", "--htdocs": "htdocs", "-n": "requests", "--timeout-ms": "timeoutMs" };
  for (let i = 1; i < argv.length; ++i) {
    const name = take[argv[i]];
    if (!name) {
      o.rest.push(argv[i]);
      continue;
    }
    if (argv[i + 1] === undefined) usage(`${argv[i]} needs a value`);
    o[name] = argv[++i];
  }
  for (const n of ["requests", "timeoutMs"]) {
    if (!/^[0-9]+$/.test(String(o[n]))) usage(`${n}: ${o[n]} is not a non-negative integer`);
    o[n] = Number(o[n]);
  }
  return o;
}

function server(o) {
  if (!o.listen || !o.cert || !o.key || !o.htdocs) usage("server needs --listen HOST:PORT --cert FILE --key FILE --htdocs DIR");
  const colon = o.listen.lastIndexOf(":");
  const served = Bun.serve({
    hostname: o.listen.slice(0, colon),
    port: Number(o.listen.slice(colon + 1)),
    http3: true,
    tls: { cert: Bun.file(o.cert), key: Bun.file(o.key) },
    async fetch(request) {
      const file = Bun.file(o.htdocs + new URL(request.url).pathname);
      return (await file.exists()) ? new Response(file) : new Response("not found\n", { status: 404 });
    },
  });
  console.log(`ready ${served.hostname}:${served.port}`);
}

async function client(o) {
  if (o.rest.length !== 1) usage("client needs one URL");
  const url = o.rest[0];
  const timer = setTimeout(() => {
    console.error(`bun_h3_peer: not done within --timeout-ms ${o.timeoutMs}`);
    process.exit(1);
  }, o.timeoutMs);
  let next = 0;
  const failures = [];
  async function worker() {
    while (next < o.requests) {
      ++next;
      try {
        const response = await fetch(url, { protocol: "http3", tls: { rejectUnauthorized: false } });
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`status ${response.status}`);
      } catch (e) {
        failures.push(e.message);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(kInFlight, o.requests) }, worker));
  clearTimeout(timer);
  if (failures.length > 0) {
    console.error(`bun_h3_peer: ${failures.length} of ${o.requests} requests failed: ${failures[0]}`);
    // A connection that failed still has its CONNECTION_CLOSE to send: give
    // it time to leave before the process ends (loopback).
    setTimeout(() => process.exit(1), 300);
    return;
  }
  process.exit(0);
}

const o = parse(process.argv.slice(2));
if (o.role === "server") server(o);
else await client(o);
