//! The command line of the raw-QUIC stream workload (docs/interop.md):
//! the same options for both roles, every one optional but the address.

use std::net::SocketAddr;

pub enum Role {
    Server { listen: SocketAddr, cert: String, key: String },
    Client { connect: SocketAddr },
}

pub struct Options {
    pub role: Role,
    pub keylog: Option<String>,
    /// Limits this endpoint advertises; None keeps quinn's default.
    pub max_streams_bidi: Option<u64>,
    pub max_streams_uni: Option<u64>,
    pub max_data: Option<u64>,
    pub max_stream_data: Option<u64>,
    /// Work once the handshake completes: streams this endpoint opens, each
    /// carrying `bytes` then FIN.
    pub open_uni: u64,
    pub open_bidi: u64,
    pub bytes: u64,
    /// Peer-opened streams the client reads to FIN before it closes.
    pub expect_uni: u64,
    pub expect_bidi: u64,
    pub timeout_ms: u64,
}

const USAGE: &str = "usage: conform-quinn (--listen HOST:PORT --cert FILE --key FILE | --connect HOST:PORT) \
[--keylog FILE] [--max-streams-bidi N] [--max-streams-uni N] [--max-data BYTES] [--max-stream-data BYTES] \
[--open-uni N] [--open-bidi N] [--bytes B] [--expect-uni N] [--expect-bidi N] [--timeout-ms T]";

fn number(name: &str, value: &str) -> Result<u64, String> {
    value.parse::<u64>().map_err(|_| format!("{name}: '{value}' is not a non-negative integer"))
}

fn address(name: &str, value: &str) -> Result<SocketAddr, String> {
    value.parse::<SocketAddr>().map_err(|_| format!("{name}: '{value}' is not HOST:PORT with a numeric host"))
}

/// The options of `args` (without the program name), or what is wrong.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let (mut listen, mut connect, mut cert, mut key) = (None, None, None, None);
    let mut o = Options {
        role: Role::Client { connect: "127.0.0.1:0".parse().unwrap() },
        keylog: None,
        max_streams_bidi: None,
        max_streams_uni: None,
        max_data: None,
        max_stream_data: None,
        open_uni: 0,
        open_bidi: 0,
        bytes: 100,
        expect_uni: 0,
        expect_bidi: 0,
        timeout_ms: 10000,
    };
    let mut i = 0;
    while i < args.len() {
        let name = args[i].as_str();
        let value = args.get(i + 1).ok_or_else(|| format!("{name} needs a value\n{USAGE}"))?;
        match name {
            "--listen" => listen = Some(address(name, value)?),
            "--connect" => connect = Some(address(name, value)?),
            "--cert" => cert = Some(value.clone()),
            "--key" => key = Some(value.clone()),
            "--keylog" => o.keylog = Some(value.clone()),
            "--max-streams-bidi" => o.max_streams_bidi = Some(number(name, value)?),
            "--max-streams-uni" => o.max_streams_uni = Some(number(name, value)?),
            "--max-data" => o.max_data = Some(number(name, value)?),
            "--max-stream-data" => o.max_stream_data = Some(number(name, value)?),
            "--open-uni" => o.open_uni = number(name, value)?,
            "--open-bidi" => o.open_bidi = number(name, value)?,
            "--bytes" => o.bytes = number(name, value)?,
            "--expect-uni" => o.expect_uni = number(name, value)?,
            "--expect-bidi" => o.expect_bidi = number(name, value)?,
            "--timeout-ms" => o.timeout_ms = number(name, value)?,
            _ => return Err(format!("unknown option '{name}'\n{USAGE}")),
        }
        i += 2;
    }
    o.role = match (listen, connect) {
        (Some(listen), None) => Role::Server {
            listen,
            cert: cert.ok_or("--listen needs --cert")?,
            key: key.ok_or("--listen needs --key")?,
        },
        (None, Some(connect)) => Role::Client { connect },
        _ => return Err(format!("give exactly one of --listen and --connect\n{USAGE}")),
    };
    Ok(o)
}
