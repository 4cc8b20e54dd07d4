// Cloudflare quiche 0.18 through @matrixai/quic 2.0.9 (Node.js) as a client
// or server of the raw-QUIC stream workload (docs/interop.md). Both roles
// write an NSS key log (quiche's logKeys). The server always answers the
// first Initial with a Retry (the library does): the client's key log then
// names the random of its second ClientHello.
//
//   node matrixai_quic_peer.mjs --listen 127.0.0.1:4433 --cert C --key K [options]
//   node matrixai_quic_peer.mjs --connect 127.0.0.1:4433 [options]
//
// Exit status: 0 the work done, 1 not done (timeout, connection error), 2 bad arguments.
import { QUICClient, QUICServer, events } from "@matrixai/quic";
import Logger, { LogLevel } from "@matrixai/logger";
import { webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { Expectation, UsageError, deadline, drain, parseOptions, payload, writeAll } from "./raw_workload.mjs";

const kPollCreditMs = 2;
// The library logs every stream at INFO on stderr; errors are what a case log needs.
const logger = new Logger("matrixai_quic_peer", LogLevel.WARN);

function transportConfig(o) {
  const c = { verifyPeer: false, applicationProtos: ["quic"] };
  if (o.keylog) c.logKeys = o.keylog;
  if (o.maxStreamsBidi !== undefined) c.initialMaxStreamsBidi = o.maxStreamsBidi;
  if (o.maxStreamsUni !== undefined) c.initialMaxStreamsUni = o.maxStreamsUni;
  if (o.maxData !== undefined) c.initialMaxData = o.maxData;
  if (o.maxStreamData !== undefined) {
    c.initialMaxStreamDataBidiLocal = o.maxStreamData;
    c.initialMaxStreamDataBidiRemote = o.maxStreamData;
    c.initialMaxStreamDataUni = o.maxStreamData;
  }
  return c;
}

// quiche refuses a stream beyond the peer's limit (the library throws
// ErrorQUICStreamLimit, and burns the stream ID) instead of queueing it:
// wait for MAX_STREAMS by polling the credit left, so the stream waits
// rather than fails.
async function openStream(connection, type) {
  const left = () => (type === "bidi" ? connection.conn.peerStreamsLeftBidi() : connection.conn.peerStreamsLeftUni());
  while (left() === 0) await new Promise((r) => setTimeout(r, kPollCreditMs));
  return connection.newStream(type);
}

// This endpoint's own streams: each carries `bytes` then FIN; a bidi stream's
// answer is read to FIN.
async function openStreams(connection, o) {
  const data = payload(o.bytes);
  const work = [];
  for (const [type, count] of [["uni", o.openUni], ["bidi", o.openBidi]])
    for (let i = 0; i < count; ++i) {
      const stream = await openStream(connection, type);
      work.push(writeAll(stream.writable, data));
      if (type === "bidi") work.push(drain(stream.readable));
    }
  await Promise.all(work);
}

// Peer-opened streams: read to FIN; a bidi one is answered with as many bytes.
// A client gets its connection only once the handshake is over, when the
// server's first streams may have arrived already: those are in the
// connection's stream map (unread streams stay there).
function serveStreams(connection, expectation) {
  const serve = (stream) =>
    (async () => {
      const read = await drain(stream.readable);
      if (stream.type === "bidi") await writeAll(stream.writable, payload(read));
      expectation.finished(stream.type);
    })().catch((e) => console.error(`stream ${stream.streamId}: ${e.message}`));
  for (const stream of connection.streamMap.values()) if (stream.initiated === "peer") serve(stream);
  connection.addEventListener(events.EventQUICConnectionStream.name, (evt) => serve(evt.detail));
}

async function server(o) {
  const key = webcrypto.getRandomValues(new Uint8Array(32));
  const hmac = await webcrypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const srv = new QUICServer({
    crypto: {
      key: key.buffer,
      ops: {
        sign: async (_k, data) => webcrypto.subtle.sign("HMAC", hmac, data),
        verify: async (_k, data, sig) => webcrypto.subtle.verify("HMAC", hmac, sig, data),
      },
    },
    config: { ...transportConfig(o), key: readFileSync(o.key, "utf8"), cert: readFileSync(o.cert, "utf8") },
    logger,
  });
  const served = new Promise((resolve, reject) => {
    srv.addEventListener(events.EventQUICServerConnection.name, (evt) => {
      const connection = evt.detail;
      serveStreams(connection, new Expectation(0, 0));
      openStreams(connection, o).catch(reject);
      connection.addEventListener(events.EventQUICConnectionStopped.name, resolve, { once: true });
    }, { once: true });
  });
  await srv.start({ host: o.host, port: o.port });
  console.log(`ready ${o.host}:${srv.port}`);
  const limit = deadline(o.timeoutMs, () => "the connection did not close");
  try {
    await Promise.race([served, limit.promise]);
  } finally {
    limit.cancel();
    await srv.stop({ force: true });
  }
}

async function client(o) {
  const expectation = new Expectation(o.expectUni, o.expectBidi);
  const limit = deadline(o.timeoutMs, () => `peer streams still expected: ${JSON.stringify(expectation.left)}`);
  let quic;
  try {
    quic = await Promise.race([
      QUICClient.createQUICClient({
        host: o.host,
        port: o.port,
        serverName: "localhost",
        crypto: { ops: { randomBytes: async (data) => webcrypto.getRandomValues(new Uint8Array(data)) } },
        config: transportConfig(o),
        logger,
      }),
      limit.promise,
    ]);
    serveStreams(quic.connection, expectation);
    await Promise.race([Promise.all([openStreams(quic.connection, o), expectation.done]), limit.promise]);
  } finally {
    limit.cancel();
  }
  await quic.destroy({ isApp: true, errorCode: 0, force: true });
}

// How long a failed endpoint lives on so that its close leaves (loopback).
const kCloseGraceMs = 300;

const o = (() => {
  try {
    return parseOptions(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`matrixai_quic_peer: ${e.message}`);
    process.exit(2);
  }
})();
(o.role === "server" ? server(o) : client(o)).then(
  () => process.exit(0),
  (e) => {
    console.error(`matrixai_quic_peer (${o.role}): ${e.message}`);
    // A connection that failed (a peer's violation, say) still has its
    // CONNECTION_CLOSE to send: exiting at once dropped it from the wire.
    setTimeout(() => process.exit(1), kCloseGraceMs);
  },
);
