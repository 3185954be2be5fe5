//! TLS for the IMAP source and the SMTP transport alike: rustls with ring,
//! the web PKI's roots (webpki-roots), the server's certificate checked
//! against the `host` the config names.

use std::sync::Arc;

use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// The client's TLS settings.
pub(super) fn client_config() -> Arc<ClientConfig> {
    let roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|builder| builder.with_root_certificates(roots).with_no_client_auth());
    Arc::new(config.unwrap_or_else(|_| {
        ClientConfig::builder_with_provider(Arc::new(
            tokio_rustls::rustls::crypto::ring::default_provider(),
        ))
        .with_protocol_versions(&[&tokio_rustls::rustls::version::TLS13])
        .expect("TLS 1.3 is supported by ring")
        .with_root_certificates(RootCertStore::empty())
        .with_no_client_auth()
    }))
}

/// `host` as TLS checks the server's certificate against it.
pub(super) fn server_name(host: &str) -> Result<ServerName<'static>, String> {
    ServerName::try_from(host.to_string()).map_err(|e| e.to_string())
}
