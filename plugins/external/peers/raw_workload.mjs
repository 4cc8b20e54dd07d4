// The raw-QUIC stream workload's options and the parts of its behaviour that
// do not depend on the QUIC library (docs/interop.md, "The raw-QUIC stream
// workload"): the Node peer (matrixai_quic_peer.mjs) and the Deno peer
// (deno_quinn_peer.ts) both import it, so both read the same command line.

const integerOptions = {
  "--max-streams-bidi": "maxStreamsBidi",
  "--max-streams-uni": "maxStreamsUni",
  "--max-data": "maxData",
  "--max-stream-data": "maxStreamData",
  "--open-uni": "openUni",
  "--open-bidi": "openBidi",
  "--bytes": "bytes",
  "--expect-uni": "expectUni",
  "--expect-bidi": "expectBidi",
  "--timeout-ms": "timeoutMs",
};
const stringOptions = { "--listen": "listen", "--connect": "connect", "--cert": "cert", "--key": "key", "--keylog": "keylog" };

export class UsageError extends Error {}

// The options of argv (without the program), with the workload's defaults;
// throws UsageError naming the bad argument.
export function parseOptions(argv) {
  const o = { openUni: 0, openBidi: 0, bytes: 100, expectUni: 0, expectBidi: 0, timeoutMs: 10000 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i], value = argv[i + 1];
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    if (name in stringOptions) {
      o[stringOptions[name]] = value;
    } else if (name in integerOptions) {
      if (!/^[0-9]+$/.test(value)) throw new UsageError(`${name} ${value}: not a non-negative integer`);
      o[integerOptions[name]] = Number(value);
    } else {
      throw new UsageError(`unknown option ${name}`);
    }
  }
  if (!o.listen === !o.connect) throw new UsageError("give exactly one of --listen HOST:PORT (server) or --connect HOST:PORT (client)");
  if (o.listen && (!o.cert || !o.key)) throw new UsageError("a server needs --cert FILE and --key FILE");
  o.role = o.listen ? "server" : "client";
  const [host, port] = splitAddress(o.listen ?? o.connect);
  o.host = host;
  o.port = port;
  return o;
}

function splitAddress(text) {
  const colon = text.lastIndexOf(":");
  const port = Number(text.slice(colon + 1));
  if (colon <= 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${text}: expected HOST:PORT`);
  return [text.slice(0, colon).replace(/^\[|\]$/g, ""), port];
}

// The payload of one opened stream: `bytes` bytes of a fixed pattern.
export function payload(bytes) {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; ++i) out[i] = 97 + (i % 26);
  return out;
}

// Reads a web ReadableStream to its end; the number of bytes read.
export async function drain(readable) {
  let total = 0;
  const reader = readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
  }
}

// Writes `data` then FIN on a web WritableStream.
export async function writeAll(writable, data) {
  const writer = writable.getWriter();
  if (data.byteLength > 0) await writer.write(data);
  await writer.close();
}

// Counts the peer-opened streams read to FIN and resolves `done` once the
// expected numbers are reached.
export class Expectation {
  constructor(uni, bidi) {
    this.left = { uni, bidi };
    this.done = new Promise((resolve) => (this.resolve = resolve));
    this.check();
  }
  finished(kind) {
    --this.left[kind];
    this.check();
  }
  check() {
    if (this.left.uni <= 0 && this.left.bidi <= 0) this.resolve();
  }
}

// Rejects after `ms` with a message saying what was not done.
export function deadline(ms, what) {
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within --timeout-ms ${ms}: ${what()}`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
