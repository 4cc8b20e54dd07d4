//! rustls 0.20 configurations: ALPN `quic`, TLS 1.3, secrets to the key log
//! SSLKEYLOGFILE names; the client accepts any server certificate (a test
//! certificate made per run).

use rustls::client::{ServerCertVerified, ServerCertVerifier};
use rustls::{Certificate, PrivateKey, ServerName};
use std::io::BufReader;
use std::sync::Arc;
use std::time::SystemTime;

const ALPN: &[u8] = b"quic";

struct AnyCertificate;

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &Certificate,
        _intermediates: &[Certificate],
        _server_name: &ServerName,
        _scts: &mut dyn Iterator<Item = &[u8]>,
        _ocsp_response: &[u8],
        _now: SystemTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }
}

pub fn client() -> rustls::ClientConfig {
    let mut c = rustls::ClientConfig::builder()
        .with_safe_defaults()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate))
        .with_no_client_auth();
    c.alpn_protocols = vec![ALPN.to_vec()];
    c.key_log = Arc::new(rustls::KeyLogFile::new());
    c
}

fn read_pem(path: &str) -> Result<Vec<rustls_pemfile::Item>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut items = Vec::new();
    let mut reader = BufReader::new(file);
    while let Some(item) = rustls_pemfile::read_one(&mut reader).map_err(|e| format!("{path}: {e}"))? {
        items.push(item);
    }
    Ok(items)
}

pub fn server(cert: &str, key: &str) -> Result<rustls::ServerConfig, String> {
    let chain: Vec<Certificate> = read_pem(cert)?
        .into_iter()
        .filter_map(|i| match i {
            rustls_pemfile::Item::X509Certificate(der) => Some(Certificate(der)),
            _ => None,
        })
        .collect();
    let private_key = read_pem(key)?
        .into_iter()
        .find_map(|i| match i {
            rustls_pemfile::Item::PKCS8Key(der) | rustls_pemfile::Item::ECKey(der) | rustls_pemfile::Item::RSAKey(der) => {
                Some(PrivateKey(der))
            }
            _ => None,
        })
        .ok_or_else(|| format!("{key}: no private key"))?;
    if chain.is_empty() {
        return Err(format!("{cert}: no certificate"));
    }
    let mut s = rustls::ServerConfig::builder()
        .with_safe_defaults()
        .with_no_client_auth()
        .with_single_cert(chain, private_key)
        .map_err(|e| format!("{cert}, {key}: {e}"))?;
    s.alpn_protocols = vec![ALPN.to_vec()];
    s.key_log = Arc::new(rustls::KeyLogFile::new());
    Ok(s)
}
