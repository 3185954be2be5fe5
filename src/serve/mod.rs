//! ADAPTER: the Xfcc server over HTTP (hyper), `shtempel serve`: chess
//! programs POST their SOAP calls, and `GET ?wsdl` gives the service's
//! description (answer). Each connection is bounded: its headers in
//! [`HEADER_TIME`], the whole of it in [`CONNECTION_TIME`], a body in
//! [`MAX_BODY`] bytes, and at most [`MAX_CONNECTIONS`] at once; failed
//! logins are held per user and per address (gate). It speaks TLS itself
//! where `[xfcc] tls_cert` and `tls_key` are given, plain HTTP behind a
//! reverse proxy otherwise. SIGTERM or SIGINT stops it: it takes no new
//! connection and gives those under way a few seconds to finish.

pub mod answer;
mod files;
mod games;
pub mod gate;
pub mod passes;
mod verified;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use self::answer::{Asked, Reply, Server, answer};
pub use self::passes::Passes;
use crate::config::XfccSettings;
use crate::error::Error;
use crate::xfcc::soap::fault;

/// The most bytes of a request's body: a call is a few hundred bytes, a
/// message to the partner a few thousand.
pub const MAX_BODY: usize = 64 * 1024;

/// The time a client has to send a request's headers.
pub const HEADER_TIME: Duration = Duration::from_secs(10);

/// The time a connection may last, however slowly its client writes.
pub const CONNECTION_TIME: Duration = Duration::from_secs(30);

/// Connections served at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 64;

/// The clock the server reads for each request (the binary's).
pub type Now = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// What the server needs: the clerk's file (read anew for each request),
/// where to listen, and the clock.
pub struct Serving {
    pub config_file: PathBuf,
    pub settings: XfccSettings,
    pub now: Now,
    /// Who runs the pass that applies the moves taken.
    pub passes: Passes,
}

struct Shared {
    config_file: PathBuf,
    now: Now,
    server: Server,
}

/// Serves until SIGTERM or SIGINT; `bound` is told the address listened on.
pub fn serve(serving: Serving, bound: impl FnOnce(SocketAddr)) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("the server's runtime: {e}")))?;
    let Serving {
        config_file,
        settings,
        now,
        passes,
    } = serving;
    let (wake, woken) = std::sync::mpsc::channel();
    let runner = std::thread::spawn(move || passes.run(&woken));
    let served = runtime.block_on(run(config_file, settings, now, wake, bound));
    // The server's sender is gone with it: the runner ends its pass at
    // hand (SIGTERM reached the pass too) and stops.
    let _ = runner.join();
    served
}

async fn run(
    config_file: PathBuf,
    settings: XfccSettings,
    now: Now,
    wake: std::sync::mpsc::Sender<()>,
    bound: impl FnOnce(SocketAddr),
) -> Result<(), Error> {
    let tls = match &settings.tls {
        Some((cert, key)) => Some(acceptor(cert, key)?),
        None => None,
    };
    let listener = TcpListener::bind(settings.listen).await.map_err(|e| {
        Error::config(format!(
            "[xfcc] listen = \"{}\": cannot listen there ({e}); give a free port, or run as a user who may bind it",
            settings.listen
        ))
    })?;
    bound(listener.local_addr().map_err(Error::internal)?);
    let shared = Arc::new(Shared {
        config_file,
        now,
        server: Server::waking(wake),
    });
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut connections = tokio::task::JoinSet::new();
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| Error::internal(format!("signals: {e}")))?;
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => permit.map_err(Error::internal)?,
            _ = terminate.recv() => break,
            _ = tokio::signal::ctrl_c() => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // A connection reset before it was taken, or no file
                // descriptor left for a moment: the next one is taken.
                Err(_) => continue,
            },
            _ = terminate.recv() => break,
            _ = tokio::signal::ctrl_c() => break,
        };
        let shared = Arc::clone(&shared);
        let tls = tls.clone();
        connections.spawn(async move {
            let _permit = permit;
            let _ = tokio::time::timeout(CONNECTION_TIME, async {
                match tls {
                    Some(tls) => {
                        if let Ok(stream) = tls.accept(stream).await {
                            connection(TokioIo::new(stream), shared, peer).await;
                        }
                    }
                    None => connection(TokioIo::new(stream), shared, peer).await,
                }
            })
            .await;
        });
        // The finished ones' places freed.
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}

/// Whether `[xfcc] tls_cert` and `tls_key` make a TLS server
/// (`shtempel doctor`), with the fix where they do not.
pub fn tls_loads(cert: &Path, key: &Path) -> Result<(), Error> {
    acceptor(cert, key).map(drop)
}

/// The TLS of `[xfcc] tls_cert` and `tls_key`.
fn acceptor(cert: &Path, key: &Path) -> Result<TlsAcceptor, Error> {
    let said = |key_name: &str, path: &Path, e: &dyn std::fmt::Display| {
        Error::config(format!(
            "[xfcc] {key_name} = \"{}\": {e}; give the server's certificate chain and its private key as PEM files",
            path.display()
        ))
    };
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<_, _>>())
        .map_err(|e| said("tls_cert", cert, &e))?;
    if chain.is_empty() {
        return Err(said("tls_cert", cert, &"no certificate in it"));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| said("tls_key", key, &e))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::internal(format!("TLS: {e}")))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| said("tls_key", key, &e))?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// One connection served, request by request.
async fn connection<IO>(io: TokioIo<IO>, shared: Arc<Shared>, peer: SocketAddr)
where
    IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = service_fn(move |request| {
        let shared = Arc::clone(&shared);
        async move { Ok::<_, Infallible>(reply_to(request, shared, peer).await) }
    });
    let _ = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIME)
        .max_buf_size(MAX_BODY)
        .serve_connection(io, service)
        .await;
}

async fn reply_to(
    request: Request<Incoming>,
    shared: Arc<Shared>,
    peer: SocketAddr,
) -> Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let body = match Limited::new(body, MAX_BODY).collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => {
            let words = format!("a request's body may have {MAX_BODY} bytes at most");
            return response(Reply {
                status: 413,
                content_type: "text/xml; charset=utf-8",
                body: fault(true, &words),
            });
        }
    };
    let get = parts.method == Method::GET;
    let query = parts.uri.query().map(str::to_string);
    // Argon2 and SQLite take milliseconds: off the thread that serves
    // the connections.
    let reply = tokio::task::spawn_blocking(move || {
        let asked = Asked {
            peer: peer.ip(),
            now: (shared.now)(),
            instant: Instant::now(),
            get,
            query: query.as_deref(),
            body: &body,
        };
        answer(&shared.config_file, &shared.server, &asked)
    })
    .await
    .unwrap_or_else(|_| Reply {
        status: 500,
        content_type: "text/xml; charset=utf-8",
        body: fault(false, "ServerError"),
    });
    response(reply)
}

fn response(reply: Reply) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(reply.body)));
    *response.status_mut() = hyper::StatusCode::from_u16(reply.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(value) = hyper::header::HeaderValue::from_str(reply.content_type) {
        response
            .headers_mut()
            .insert(hyper::header::CONTENT_TYPE, value);
    }
    response
}
