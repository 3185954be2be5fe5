//! The passes the server runs: each move it takes is in the spool, and a
//! pass of the clerk (`shtempel poll`, a process of its own, under the run
//! lock as cron's) applies it, forwards it and answers it. It runs at once
//! when a move is taken; where another run held the lock (cron's poll
//! started first), the moves wait and the server tries again every
//! [`RETRY`], so that a move is forwarded within a minute. A pass that
//! fails is the clerk's to report (its stderr is the server's log); the
//! next run applies what it left.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::mail::source::spool;

/// How often the server looks again while moves wait in the spool.
pub const RETRY: Duration = Duration::from_secs(15);

/// How often it looks at the run lock while another run holds it.
const LOCK_LOOK: Duration = Duration::from_secs(1);

/// Who runs the passes: the command of one, the spool it empties, and the
/// database whose run lock it waits for.
pub struct Passes {
    /// The program and its arguments (`shtempel --config FILE poll`).
    pub command: Vec<OsString>,
    pub spool: PathBuf,
    pub database: PathBuf,
}

impl Passes {
    /// Runs a pass when woken, and while moves wait, until every sender
    /// of `wake` is gone (the server stopped). While another run holds the
    /// lock (cron's poll, `watch`) no pass is started, only looked for:
    /// that run may take the moves, and a pass started now would only say
    /// the lock is held, for the price of a process.
    pub fn run(self, wake: &Receiver<()>) {
        loop {
            match wake.recv_timeout(RETRY) {
                Ok(()) => {}
                Err(RecvTimeoutError::Timeout) if self.moves_wait() => {}
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return,
            }
            loop {
                if !self.moves_wait() {
                    break;
                }
                if !self.lock_held() {
                    // Moves taken while this pass starts go with it.
                    while wake.try_recv().is_ok() {}
                    self.pass();
                    break;
                }
                if let Err(RecvTimeoutError::Disconnected) = wake.recv_timeout(LOCK_LOOK) {
                    return;
                }
            }
        }
    }

    /// Whether another run holds the run lock now.
    fn lock_held(&self) -> bool {
        matches!(crate::run::lock(&self.database), Ok(None))
    }

    fn moves_wait(&self) -> bool {
        spool::waiting(&self.spool).is_ok_and(|names| !names.is_empty())
    }

    fn pass(&self) {
        let Some((program, arguments)) = self.command.split_first() else {
            return;
        };
        match std::process::Command::new(program).args(arguments).status() {
            Ok(status) if status.success() => {}
            Ok(status) => eprintln!("xfcc: the pass for the moves taken ended with {status}"),
            Err(error) => eprintln!(
                "xfcc: cannot run the pass for the moves taken ({}): {error}",
                program.to_string_lossy()
            ),
        }
    }
}
