#!/usr/bin/env bash
# Private Postfix and Dovecot on loopback for the real-mail tests (see
# ../shared/spec/mail-stack.md): SMTP on 127.0.0.1:2525, IMAP on 127.0.0.1:1143,
# mailboxes bot, white, black, arbiter and secretary @test.local, password "secret"
# (white+anything@test.local reaches white, and so on).
# Nothing leaves the machine: every other destination is an error transport.
#
#   tests/mailstack.sh start   install what is missing, (re)start both servers
#   tests/mailstack.sh stop    stop them
#   tests/mailstack.sh status  exit 0 when both ports answer
set -euo pipefail

ROOT=${MAILSTACK_ROOT:-/tmp/shtempel-mailstack}
SMTP_PORT=${MAILSTACK_SMTP_PORT:-2525}
IMAP_PORT=${MAILSTACK_IMAP_PORT:-1143}
USERS="bot white black arbiter secretary"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

install() {
  if command -v postfix >/dev/null && command -v dovecot >/dev/null; then return; fi
  echo "mailstack: installing postfix and dovecot-imapd" >&2
  apt-get update -qq
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postfix dovecot-imapd >/dev/null
}

stop() {
  if [ -f "$ROOT/postfix/main.cf" ]; then postfix -c "$ROOT/postfix" stop >/dev/null 2>&1 || true; fi
  if [ -f "$ROOT/dovecot/run/master.pid" ]; then kill "$(cat "$ROOT/dovecot/run/master.pid")" 2>/dev/null || true; fi
  for _ in $(seq 50); do port_open "$SMTP_PORT" || port_open "$IMAP_PORT" || return 0; sleep 0.1; done
}

start() {
  install
  stop
  id vmail >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin vmail
  local uid gid
  uid=$(id -u vmail); gid=$(id -g vmail)
  rm -rf "$ROOT"
  mkdir -p "$ROOT/postfix/queue" "$ROOT/postfix/data" "$ROOT/dovecot/run" "$ROOT/dovecot/state" "$ROOT/mail"
  chmod 755 "$ROOT" "$ROOT/postfix" "$ROOT/dovecot"
  chown postfix "$ROOT/postfix/data"
  : > "$ROOT/postfix/vmailbox"
  : > "$ROOT/dovecot/users"
  for user in $USERS; do
    echo "$user@test.local $user/Maildir/" >> "$ROOT/postfix/vmailbox"
    echo "$user@test.local:{PLAIN}secret" >> "$ROOT/dovecot/users"
    mkdir -p "$ROOT/mail/$user/Maildir/new" "$ROOT/mail/$user/Maildir/cur" "$ROOT/mail/$user/Maildir/tmp"
  done
  chown -R vmail:vmail "$ROOT/mail"

  cat > "$ROOT/postfix/main.cf" <<CF
compatibility_level = 3.6
queue_directory = $ROOT/postfix/queue
data_directory = $ROOT/postfix/data
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.test.local
mydestination =
mynetworks = 127.0.0.0/8
recipient_delimiter = +
virtual_mailbox_domains = test.local
virtual_mailbox_base = $ROOT/mail
virtual_mailbox_maps = texthash:$ROOT/postfix/vmailbox
virtual_uid_maps = static:$uid
virtual_gid_maps = static:$gid
default_transport = error:no mail leaves the test machine
relay_transport = error:no mail leaves the test machine
alias_maps =
alias_database =
maillog_file = $ROOT/postfix.log
maillog_file_prefixes = $ROOT
message_size_limit = 20480000
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
CF
  sed -e "s/^smtp      inet  n       -       y/127.0.0.1:$SMTP_PORT inet  n       -       n/" \
      -e 's/^\([a-z0-9:.]* *[a-z-]* *[-ny] *[-ny] *\)y /\1n /' \
      /usr/share/postfix/master.cf.dist > "$ROOT/postfix/master.cf"
  # Postfix prints its configuration complaints only to its log; `check` also
  # creates the queue folders with their owners.
  postfix -c "$ROOT/postfix" check >/dev/null 2>&1 || true
  postfix -c "$ROOT/postfix" start </dev/null >/dev/null 2>&1 || { echo "mailstack: postfix did not start:" >&2; cat "$ROOT/postfix.log" >&2 || true; exit 1; }

  cat > "$ROOT/dovecot/dovecot.conf" <<CF
protocols = imap
listen = 127.0.0.1
base_dir = $ROOT/dovecot/run
state_dir = $ROOT/dovecot/state
log_path = $ROOT/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:$ROOT/mail/%n/Maildir
first_valid_uid = $uid
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $ROOT/dovecot/users
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$ROOT/mail/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
protocol imap {
  imap_idle_notify_interval = 1 secs
}
CF
  dovecot -c "$ROOT/dovecot/dovecot.conf" </dev/null >/dev/null 2>&1 || { echo "mailstack: dovecot did not start:" >&2; cat "$ROOT/dovecot.log" >&2 || true; exit 1; }

  for _ in $(seq 100); do
    if port_open "$SMTP_PORT" && port_open "$IMAP_PORT"; then echo "mailstack: up in $ROOT (smtp $SMTP_PORT, imap $IMAP_PORT)" >&2; return 0; fi
    sleep 0.1
  done
  echo "mailstack: the servers did not open their ports" >&2
  tail -n 20 "$ROOT/postfix.log" "$ROOT/dovecot.log" >&2 || true
  exit 1
}

# `start-for PID`: start, and stop again once process PID has ended (a test
# run that started the servers leaves none running behind it).
start_for() {
  start
  local pid=$1
  nohup bash -c "while kill -0 $pid 2>/dev/null; do sleep 1; done; MAILSTACK_ROOT='$ROOT' bash '$0' stop" \
    >/dev/null 2>&1 &
}

case "${1:-start}" in
  start) start ;;
  start-for) start_for "${2:?start-for needs a process id}" ;;
  stop) stop ;;
  status) port_open "$SMTP_PORT" && port_open "$IMAP_PORT" ;;
  *) echo "usage: $0 start|start-for PID|stop|status" >&2; exit 2 ;;
esac
