//! TLS for the IMAP source and the SMTP transport alike: rustls with ring,
//! the web PKI's roots (webpki-roots) and, where `ca_file` names one, a
//! private certificate authority's; the server's certificate checked
//! against the `host` the config names.

use std::path::Path;
use std::sync::Arc;

use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

use super::MailError;

/// A TLS setting that no later run can mend by itself.
fn setting(message: String) -> MailError {
    MailError {
        message,
        transient: false,
    }
}

/// The client's TLS settings: the web's roots, and those of `ca_file`.
pub(super) fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, MailError> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(file) = ca_file {
        for certificate in certificates_in(file)? {
            roots
                .add(certificate)
                .map_err(|e| setting(format!("ca_file {}: {e}", file.display())))?;
        }
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| setting(format!("TLS: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The certificates of a PEM file; an error where it has none.
fn certificates_in(file: &Path) -> Result<Vec<CertificateDer<'static>>, MailError> {
    let certificates: Vec<_> = CertificateDer::pem_file_iter(file)
        .and_then(|certificates| certificates.collect::<Result<_, _>>())
        .map_err(|e| setting(format!("ca_file {}: {e}", file.display())))?;
    match certificates.is_empty() {
        true => Err(setting(format!(
            "ca_file {}: no certificate in it",
            file.display()
        ))),
        false => Ok(certificates),
    }
}

/// Why TLS with a server failed, in words a director acts on: what is wrong
/// with the server's certificate and what to do, or (for anything else, as
/// TLS spoken to a port that does not) which `tls` mode the port wants.
/// `section` is `source` or `transport`.
pub(super) fn failure(error: &std::io::Error, section: &str) -> String {
    use tokio_rustls::rustls::{CertificateError, Error};
    let rustls = error.get_ref().and_then(|e| e.downcast_ref::<Error>());
    let day = |time: &tokio_rustls::rustls::pki_types::UnixTime| {
        let seconds = i64::try_from(time.as_secs()).unwrap_or(i64::MAX);
        chrono::DateTime::from_timestamp(seconds, 0).map_or_else(
            || "an unknown day".to_string(),
            |t| t.format("%Y-%m-%d").to_string(),
        )
    };
    let Some(Error::InvalidCertificate(why)) = rustls else {
        let ports = match section {
            "source" => "\"tls\" for port 993, \"starttls\" for 143",
            _ => "\"tls\" for port 465, \"starttls\" for 587",
        };
        return format!(
            "TLS failed: {error}; check [{section}] tls ({ports}, \"none\" only for a local server)"
        );
    };
    let what = match why {
        CertificateError::UnknownIssuer => format!(
            "the server's certificate is signed by a certificate authority not known here; if the server has one of its own, give that authority's certificate (PEM) as [{section}] ca_file"
        ),
        CertificateError::NotValidForNameContext {
            expected,
            presented,
        } => format!(
            "the server's certificate is not for the host name {} but for {}; write the name it is for as [{section}] host",
            expected.to_str(),
            presented
                .iter()
                .map(|name| unwrapped(name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        CertificateError::NotValidForName => format!(
            "the server's certificate is not for this host name; write the name it is for as [{section}] host"
        ),
        CertificateError::ExpiredContext { not_after, .. } => format!(
            "the server's certificate expired on {}; its administrator must renew it",
            day(not_after)
        ),
        CertificateError::Expired => {
            "the server's certificate has expired; its administrator must renew it".to_string()
        }
        CertificateError::NotValidYetContext { not_before, .. } => format!(
            "the server's certificate is valid only from {}; check this machine's clock",
            day(not_before)
        ),
        other => format!("the server's certificate is refused: {other:?}"),
    };
    format!("TLS failed: {what}")
}

/// A name the certificate presents, as rustls writes it
/// (`DnsName("localhost")`), without the wrapping.
fn unwrapped(name: &str) -> &str {
    match (name.find('"'), name.rfind('"')) {
        (Some(open), Some(close)) if close > open => &name[open + 1..close],
        _ => name,
    }
}

/// `host` as TLS checks the server's certificate against it.
pub(super) fn server_name(host: &str) -> Result<ServerName<'static>, MailError> {
    ServerName::try_from(host.to_string()).map_err(|e| setting(e.to_string()))
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};

    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair, date_time_ymd};
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

    use super::*;

    /// A private certificate authority: its certificate's PEM, and what
    /// signs with it.
    struct Authority {
        pem: String,
        issuer: Issuer<'static, KeyPair>,
    }

    fn authority() -> Authority {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let pem = params.self_signed(&key).unwrap().pem();
        Authority {
            pem,
            issuer: Issuer::new(params, key),
        }
    }

    /// A server certificate for `host` signed by `ca`, expired if asked.
    fn server_certificate(
        ca: &Authority,
        host: &str,
        expired: bool,
    ) -> (CertificateDer<'static>, PrivateKeyDer<'static>) {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(vec![host.to_string()]).unwrap();
        if expired {
            params.not_before = date_time_ymd(2020, 1, 1);
            params.not_after = date_time_ymd(2021, 1, 1);
        }
        let certificate = params.signed_by(&key, &ca.issuer).unwrap();
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        (certificate.der().clone(), key)
    }

    /// One TLS handshake (and a line each way) between a server with
    /// `certificate` and our client asking for `host`, trusting `ca_file`.
    fn handshake(
        certificate: (CertificateDer<'static>, PrivateKeyDer<'static>),
        host: &str,
        ca_file: Option<&Path>,
    ) -> Result<(), MailError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let server = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![certificate.0], certificate.1)
            .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let serving = std::thread::spawn(move || {
            let (tcp, _) = listener.accept().unwrap();
            let session = rustls::ServerConnection::new(Arc::new(server)).unwrap();
            let mut tls = rustls::StreamOwned::new(session, tcp);
            let mut line = [0; 5];
            if tls.read_exact(&mut line).is_ok() {
                let _ = tls.write_all(b"pong\n");
            }
        });
        let config = client_config(ca_file)?;
        let name = server_name(host)?;
        let session =
            rustls::ClientConnection::new(config, name).map_err(|e| setting(e.to_string()))?;
        let tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut tls = rustls::StreamOwned::new(session, tcp);
        let outcome = tls
            .write_all(b"ping\n")
            .and_then(|()| {
                let mut line = [0; 5];
                tls.read_exact(&mut line)
            })
            .map_err(|e| setting(e.to_string()));
        drop(tls);
        let _ = serving.join();
        outcome
    }

    #[test]
    fn a_private_authoritys_certificate_is_trusted_through_ca_file_and_only_so() {
        let ca = authority();
        let folder = tempfile::tempdir().unwrap();
        let ca_file = folder.path().join("ca.pem");
        std::fs::write(&ca_file, &ca.pem).unwrap();
        let good = || server_certificate(&ca, "mail.chess.test", false);

        assert!(handshake(good(), "mail.chess.test", Some(&ca_file)).is_ok());
        let unknown = handshake(good(), "mail.chess.test", None)
            .unwrap_err()
            .message;
        assert!(unknown.contains("UnknownIssuer"), "{unknown}");
        let wrong_host = handshake(good(), "imap.other.test", Some(&ca_file))
            .unwrap_err()
            .message;
        assert!(
            wrong_host.contains("certificate not valid for name \"imap.other.test\""),
            "{wrong_host}"
        );
        let expired = server_certificate(&ca, "mail.chess.test", true);
        let expired = handshake(expired, "mail.chess.test", Some(&ca_file))
            .unwrap_err()
            .message;
        assert!(expired.contains("expired"), "{expired}");
    }

    #[test]
    fn a_ca_file_without_a_certificate_is_refused_naming_it() {
        let folder = tempfile::tempdir().unwrap();
        let empty = folder.path().join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").unwrap();
        let error = client_config(Some(&empty)).unwrap_err().message;
        assert!(error.contains("empty.pem: no certificate in it"), "{error}");
        let missing = folder.path().join("missing.pem");
        let error = client_config(Some(&missing)).unwrap_err().message;
        assert!(error.contains("missing.pem"), "{error}");
    }
}
