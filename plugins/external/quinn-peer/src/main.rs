//! conform-quinn: quinn 0.9 as a raw-QUIC peer of conform's external plugin
//! (profile quinn-0.9). ALPN `quic`; the workload, its options and its exit
//! statuses are specified in docs/interop.md.

mod options;
mod tls;

use options::{Options, Role};
use quinn::{Connection, Endpoint, RecvStream, SendStream, TransportConfig, VarInt};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn transport(o: &Options) -> Result<Arc<TransportConfig>, Failure> {
    let mut t = TransportConfig::default();
    if let Some(n) = o.max_streams_bidi {
        t.max_concurrent_bidi_streams(VarInt::from_u64(n)?);
    }
    if let Some(n) = o.max_streams_uni {
        t.max_concurrent_uni_streams(VarInt::from_u64(n)?);
    }
    if let Some(n) = o.max_data {
        t.receive_window(VarInt::from_u64(n)?);
    }
    if let Some(n) = o.max_stream_data {
        t.stream_receive_window(VarInt::from_u64(n)?);
    }
    Ok(Arc::new(t))
}

/// Reads `recv` to FIN, discarding; the number of bytes read.
async fn drain(mut recv: RecvStream) -> Result<u64, Failure> {
    let mut buf = vec![0u8; 16384];
    let mut total = 0u64;
    while let Some(n) = recv.read(&mut buf).await? {
        total += n as u64;
    }
    Ok(total)
}

async fn send(send: &mut SendStream, bytes: u64) -> Result<(), Failure> {
    let chunk = vec![b'q'; 16384];
    let mut left = bytes;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        send.write_all(&chunk[..n]).await?;
        left -= n as u64;
    }
    send.finish().await?;
    Ok(())
}

/// Opens this endpoint's streams (at a stream limit `open_*` waits for
/// credit) and carries each to its end: a bidi stream ends when the peer's
/// answer has been read to FIN.
async fn own_work(conn: Connection, o: Arc<Options>) -> Result<(), Failure> {
    let mut tasks = Vec::new();
    for _ in 0..o.open_uni {
        let mut s = conn.open_uni().await?;
        let bytes = o.bytes;
        tasks.push(tokio::spawn(async move { send(&mut s, bytes).await }));
    }
    for _ in 0..o.open_bidi {
        let (mut s, r) = conn.open_bi().await?;
        let bytes = o.bytes;
        tasks.push(tokio::spawn(async move {
            send(&mut s, bytes).await?;
            drain(r).await.map(|_| ())
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(())
}

/// Which kind of peer-opened stream was read to FIN.
enum Done {
    Uni,
    Bidi,
}

/// Reads every stream the peer opens to FIN and answers each bidi one with
/// as many bytes as it carried; reports each finished stream on `done`.
fn serve_peer_streams(conn: &Connection, done: mpsc::UnboundedSender<Done>) {
    let (c, d) = (conn.clone(), done.clone());
    tokio::spawn(async move {
        while let Ok(r) = c.accept_uni().await {
            let d = d.clone();
            tokio::spawn(async move {
                if drain(r).await.is_ok() {
                    let _ = d.send(Done::Uni);
                }
            });
        }
    });
    let c = conn.clone();
    tokio::spawn(async move {
        while let Ok((mut s, r)) = c.accept_bi().await {
            let d = done.clone();
            tokio::spawn(async move {
                if let Ok(read) = drain(r).await {
                    if send(&mut s, read).await.is_ok() {
                        let _ = d.send(Done::Bidi);
                    }
                }
            });
        }
    });
}

async fn client(o: Arc<Options>, server: std::net::SocketAddr) -> Result<(), Failure> {
    let mut endpoint = Endpoint::client("127.0.0.1:0".parse()?)?;
    let mut config = quinn::ClientConfig::new(Arc::new(tls::client()));
    config.transport_config(transport(&o)?);
    endpoint.set_default_client_config(config);
    let result = client_work(&endpoint, o, server).await;
    // A connection that failed (a peer's violation, say) still has its
    // CONNECTION_CLOSE to send: the endpoint's driver sends it while it waits.
    endpoint.wait_idle().await;
    result
}

async fn client_work(endpoint: &Endpoint, o: Arc<Options>, server: std::net::SocketAddr) -> Result<(), Failure> {
    let conn = endpoint.connect(server, "localhost")?.await?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    serve_peer_streams(&conn, tx);
    let mine = tokio::spawn(own_work(conn.clone(), o.clone()));
    let (mut uni, mut bidi) = (0u64, 0u64);
    while uni < o.expect_uni || bidi < o.expect_bidi {
        match rx.recv().await {
            Some(Done::Uni) => uni += 1,
            Some(Done::Bidi) => bidi += 1,
            None => return Err(format!("the connection ended after {uni} uni and {bidi} bidi peer streams").into()),
        }
    }
    mine.await??;
    conn.close(VarInt::from_u32(0), b"");
    Ok(())
}

async fn server(o: Arc<Options>, listen: std::net::SocketAddr, cert: &str, key: &str) -> Result<(), Failure> {
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(tls::server(cert, key)?));
    config.transport_config(transport(&o)?);
    let endpoint = Endpoint::server(config, listen)?;
    println!("ready {}", endpoint.local_addr()?);
    let result = serve(&endpoint, o).await;
    endpoint.wait_idle().await;  // as the client: a failed connection's close goes out
    result
}

async fn serve(endpoint: &Endpoint, o: Arc<Options>) -> Result<(), Failure> {
    let connecting = endpoint.accept().await.ok_or("the endpoint closed before a connection arrived")?;
    let conn = connecting.await?;
    let (tx, _rx) = mpsc::unbounded_channel();
    serve_peer_streams(&conn, tx);
    let mine = tokio::spawn(own_work(conn.clone(), o.clone()));
    let reason = conn.closed().await;
    if !mine.is_finished() {
        eprintln!("conform-quinn: the connection closed ({reason}) before this server's own streams were done");
    }
    Ok(())
}

async fn run(o: Arc<Options>) -> Result<(), Failure> {
    match &o.role {
        Role::Client { connect } => client(o.clone(), *connect).await,
        Role::Server { listen, cert, key } => server(o.clone(), *listen, cert, key).await,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = match options::parse(&args) {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("conform-quinn: {e}");
            std::process::exit(2);
        }
    };
    // rustls's KeyLogFile writes to the file SSLKEYLOGFILE names.
    if let Some(path) = &o.keylog {
        std::env::set_var("SSLKEYLOGFILE", path);
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let limit = Duration::from_millis(o.timeout_ms);
    let status = match runtime.block_on(async { tokio::time::timeout(limit, run(o.clone())).await }) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            eprintln!("conform-quinn: {e}");
            1
        }
        Err(_) => {
            eprintln!("conform-quinn: the work was not done within --timeout-ms {}", o.timeout_ms);
            1
        }
    };
    std::process::exit(status);
}
