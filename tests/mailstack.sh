#!/usr/bin/env bash
# Private Postfix and Dovecot on loopback for the real-mail tests: mailboxes
# bot, white, black, arbiter and secretary @test.local, password "secret"
# (white+anything@test.local reaches white, and so on). Nothing leaves the
# machine: every other destination is an error transport.
#
#   127.0.0.1:2525  SMTP, no TLS, no login (loopback is trusted)
#   127.0.0.1:1143  IMAP, no TLS needed
#   127.0.0.1:587   SMTP submission, STARTTLS, login required
#   127.0.0.1:465   SMTP submission, implicit TLS, login required
#   127.0.0.1:143   IMAP, STARTTLS
#   127.0.0.1:993   IMAP, implicit TLS
#   127.0.0.2:465, 127.0.0.2:993   the same with an expired certificate
#
# The verdict writers, each a Postfix listener whose milters write
# Authentication-Results under the authserv-id mail.test.local:
#   127.0.0.1:2526  OpenDKIM (AlwaysAddARHeader, RemoveARFrom) and OpenDMARC
#   127.0.0.1:2527  rspamd (milter_headers' authentication-results)
#   127.0.0.1:2528  OpenDKIM as Debian installs it (no AlwaysAddARHeader) and
#                   OpenDMARC
#   127.0.0.1:2600  a sender's server: OpenDKIM signs *@player.test (selector
#                   "sel"), and delivers to signed@test.local, whose letters
#                   the tests then relay to the listeners above
# bot+lmtp@test.local is delivered through Dovecot's LMTP, which writes its
# own Received: under the same host name. dnsmasq on 127.0.0.1:$DNS_PORT
# serves player.test's DKIM key, SPF and DMARC records (nothing else
# resolves there); the milters ask it, nothing asks the network.
#
# TLS: a private certificate authority made here, $ROOT/tls/ca.pem, signed the
# servers' certificate for the host name "localhost" (and not for 127.0.0.1);
# the one on 127.0.0.2 expired in 2020.
# Logins: the password "secret" (PLAIN, LOGIN) or an OAuth 2.0 access token
# (XOAUTH2, OAUTHBEARER), which Dovecot's oauth2 passdb asks a token-
# introspection endpoint (tests/oauth_endpoint.py on 127.0.0.1:1980) about;
# Postfix takes its logins from Dovecot. Tokens are the lines of
# $ROOT/oauth/tokens (`token user expires`): "good-USER" is USER@test.local's
# for a month, "expired-USER" expired in 1970.
#
#   tests/mailstack.sh start   install what is missing, (re)start both servers
#   tests/mailstack.sh stop    stop them
#   tests/mailstack.sh status  exit 0 when both ports answer
set -euo pipefail

ROOT=${MAILSTACK_ROOT:-/tmp/shtempel-mailstack}
SMTP_PORT=${MAILSTACK_SMTP_PORT:-2525}
IMAP_PORT=${MAILSTACK_IMAP_PORT:-1143}
OAUTH_PORT=${MAILSTACK_OAUTH_PORT:-1980}
TLS_PORTS="587 465 143 993"
MILTER_PORTS="2526 2527 2528 2600 8891 8892 8893 11432"
DNS_PORT=${MAILSTACK_DNS_PORT:-10053}
USERS="bot white black arbiter secretary signed"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
tls_ports_open() { for port in $TLS_PORTS; do port_open "$port" || return 1; done; }
milter_ports_open() { for port in $MILTER_PORTS; do port_open "$port" || return 1; done; }

install() {
  if command -v postfix >/dev/null && command -v dovecot >/dev/null &&
     command -v openssl >/dev/null && command -v python3 >/dev/null &&
     command -v opendkim >/dev/null && command -v opendkim-genkey >/dev/null &&
     command -v opendmarc >/dev/null && command -v rspamd >/dev/null &&
     command -v dnsmasq >/dev/null && [ -x /usr/lib/dovecot/lmtp ]; then return; fi
  echo "mailstack: installing postfix, dovecot (imapd, lmtpd), opendkim, opendmarc, rspamd, dnsmasq, openssl and python3" >&2
  apt-get update -qq
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  # The packages' own services are not started (policy-rc.d or no init):
  # the stack starts its own copies on loopback.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    postfix dovecot-imapd dovecot-lmtpd openssl python3-minimal \
    opendkim opendkim-tools opendmarc rspamd dnsmasq-base >/dev/null
}

# The private certificate authority and the servers' certificates.
certificates() {
  local dir=$ROOT/tls
  mkdir -p "$dir"
  openssl req -x509 -new -nodes -newkey rsa:2048 -days 3650 -subj "/CN=shtempel test CA" \
    -keyout "$dir/ca.key" -out "$dir/ca.pem" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  : > "$dir/index.txt"
  echo 01 > "$dir/serial"
  cat > "$dir/ca.cnf" <<CNF
[ca]
default_ca = test
[test]
database = $dir/index.txt
new_certs_dir = $dir
serial = $dir/serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
CNF
  # name, subjectAltName, valid from, valid until
  certificate() {
    openssl req -new -nodes -newkey rsa:2048 -subj "/CN=$1" -keyout "$dir/$1.key" -out "$dir/$1.csr" \
      -addext "subjectAltName=$2" -addext "extendedKeyUsage=serverAuth" -addext "basicConstraints=CA:FALSE" 2>/dev/null
    openssl ca -batch -notext -config "$dir/ca.cnf" -cert "$dir/ca.pem" -keyfile "$dir/ca.key" \
      -in "$dir/$1.csr" -out "$dir/$1.pem" -startdate "$3" -enddate "$4" 2>/dev/null
  }
  certificate server "DNS:localhost" "$(date -u -d '-1 day' +%Y%m%d%H%M%SZ)" "$(date -u -d '+3650 days' +%Y%m%d%H%M%SZ)"
  certificate expired "DNS:localhost,IP:127.0.0.2" 20200101000000Z 20200201000000Z
  chmod 755 "$dir"
  chmod 644 "$dir"/*
}

# The token-introspection endpoint Dovecot's oauth2 passdb asks.
oauth_endpoint() {
  mkdir -p "$ROOT/oauth"
  local month=$(( $(date +%s) + 30 * 86400 ))
  for user in $USERS; do
    echo "good-$user $user@test.local $month" >> "$ROOT/oauth/tokens"
    echo "expired-$user $user@test.local 1" >> "$ROOT/oauth/tokens"
  done
  nohup python3 "$(dirname "$0")/oauth_endpoint.py" "$OAUTH_PORT" "$ROOT/oauth/tokens" \
    >"$ROOT/oauth/endpoint.log" 2>&1 &
  echo $! > "$ROOT/oauth/pid"
}

# The verdict writers: a DKIM key of player.test, dnsmasq serving its
# records, OpenDKIM twice (as a careful director sets it up, and as Debian
# installs it), OpenDMARC and rspamd, each on its own loopback port.
milters() {
  local dir=$ROOT/milters
  mkdir -p "$dir/run" "$dir/keys" "$dir/rspamd/local.d" "$dir/rspamd/override.d" \
    "$dir/rspamd/db" "$dir/rspamd/run" "$dir/rspamd/log"
  opendkim-genkey -b 2048 -d player.test -s sel -D "$dir/keys"
  local key
  key=$(grep -o '"[^"]*"' "$dir/keys/sel.txt" | tr -d '"\n' | sed 's/.*p=//')
  # A TXT string holds 255 bytes: the 2048-bit key goes in two, as a DNS
  # host writes it. A TTL of 0 makes rspamd's resolver drop the answer.
  dnsmasq --port="$DNS_PORT" --listen-address=127.0.0.1 --bind-interfaces \
    --no-resolv --no-hosts --local=/#/ --local-ttl=300 \
    --pid-file="$dir/run/dnsmasq.pid" --log-facility="$dir/dns.log" \
    --txt-record=sel._domainkey.player.test,"v=DKIM1; k=rsa; p=${key:0:200}","${key:200}" \
    --txt-record=player.test,"v=spf1 ip4:127.0.0.0/8 -all" \
    --txt-record=_dmarc.player.test,"v=DMARC1; p=reject"
  cat > "$dir/unbound.conf" <<CF
server:
  do-not-query-localhost: no
  local-zone: "test." nodefault
forward-zone:
  name: "."
  forward-addr: 127.0.0.1@$DNS_PORT
CF
  echo "sel._domainkey.player.test player.test:sel:$dir/keys/sel.private" > "$dir/keytable"
  echo "*@player.test sel._domainkey.player.test" > "$dir/signingtable"
  # Mail from 127.0.0.1 is verified, not signed (InternalHosts names
  # another host); the signer's listener names itself ORIGINATING.
  echo 192.0.2.1 > "$dir/internal"
  cat > "$dir/opendkim.conf" <<CF
Syslog no
PidFile $dir/run/opendkim.pid
UserID opendkim
Socket inet:8891@127.0.0.1
Mode sv
AuthservID mail.test.local
AlwaysAddARHeader yes
RemoveARAll yes
RemoveARFrom mail.test.local
InternalHosts $dir/internal
MTA ORIGINATING
KeyTable $dir/keytable
SigningTable refile:$dir/signingtable
RequireSafeKeys no
ResolverConfiguration $dir/unbound.conf
CF
  cat > "$dir/opendkim-default.conf" <<CF
Syslog no
PidFile $dir/run/opendkim-default.pid
UserID opendkim
Socket inet:8892@127.0.0.1
Mode v
AuthservID mail.test.local
InternalHosts $dir/internal
ResolverConfiguration $dir/unbound.conf
CF
  cat > "$dir/opendmarc.conf" <<CF
Syslog false
PidFile $dir/run/opendmarc.pid
UserID opendmarc
Socket inet:8893@127.0.0.1
AuthservID mail.test.local
TrustedAuthservIDs mail.test.local
IgnoreHosts $dir/internal
SPFSelfValidate true
RejectFailures false
CF
  chown -R opendkim:opendkim "$dir/keys"
  chmod 700 "$dir/keys"
  chmod 777 "$dir/run"
  opendkim -x "$dir/opendkim.conf"
  opendkim -x "$dir/opendkim-default.conf"
  opendmarc -c "$dir/opendmarc.conf"

  # rspamd from Debian's configuration, with the stack's own folders and
  # these local.d files: loopback is checked like any sender (the tests
  # come from it), no action is taken, and milter_headers writes the
  # Authentication-Results field.
  cat > "$dir/rspamd/local.d/worker-proxy.inc" <<CF
bind_socket = "127.0.0.1:11432";
milter = yes;
timeout = 120s;
upstream "local" { default = yes; self_scan = yes; }
count = 1;
CF
  echo 'bind_socket = "127.0.0.1:11433"; count = 1;' > "$dir/rspamd/local.d/worker-normal.inc"
  echo 'bind_socket = "127.0.0.1:11434"; count = 1;' > "$dir/rspamd/local.d/worker-controller.inc"
  echo 'count = -1;' > "$dir/rspamd/local.d/worker-fuzzy.inc"
  cat > "$dir/rspamd/local.d/options.inc" <<CF
dns { nameserver = ["127.0.0.1:$DNS_PORT"]; timeout = 1s; retransmits = 3; }
CF
  echo 'local_addrs = [];' > "$dir/rspamd/override.d/options.inc"
  for module in dkim spf dmarc; do
    printf 'check_local = true;\ncheck_authed = true;\n' > "$dir/rspamd/local.d/$module.conf"
  done
  printf 'use = ["authentication-results"];\nskip_local = false;\nskip_authenticated = false;\n' \
    > "$dir/rspamd/local.d/milter_headers.conf"
  echo 'enabled = false;' > "$dir/rspamd/local.d/dkim_signing.conf"
  echo 'enabled = false;' > "$dir/rspamd/local.d/arc.conf"
  echo 'reject = null; greylist = null; "add header" = null; rewrite_subject = null;' \
    > "$dir/rspamd/local.d/actions.conf"
  printf 'type = "file";\nfilename = "%s";\nlevel = "warning";\n' "$dir/rspamd/log/rspamd.log" \
    > "$dir/rspamd/local.d/logging.inc"
  chown -R _rspamd:_rspamd "$dir/rspamd/db" "$dir/rspamd/run" "$dir/rspamd/log"
  rspamd -c /etc/rspamd/rspamd.conf -u _rspamd -g _rspamd \
    --var=LOCAL_CONFDIR="$dir/rspamd" --var=DBDIR="$dir/rspamd/db" \
    --var=RUNDIR="$dir/rspamd/run" --var=LOGDIR="$dir/rspamd/log" \
    -p "$dir/rspamd/run/rspamd.pid" </dev/null >"$dir/rspamd/log/start.log" 2>&1
}

stop_milters() {
  local dir=$ROOT/milters
  for pid in "$dir"/run/*.pid "$dir/rspamd/run/rspamd.pid"; do
    if [ -f "$pid" ]; then kill "$(cat "$pid")" 2>/dev/null || true; fi
  done
}

stop() {
  stop_milters
  if [ -f "$ROOT/postfix/main.cf" ]; then postfix -c "$ROOT/postfix" stop >/dev/null 2>&1 || true; fi
  if [ -f "$ROOT/dovecot/run/master.pid" ]; then kill "$(cat "$ROOT/dovecot/run/master.pid")" 2>/dev/null || true; fi
  if [ -f "$ROOT/oauth/pid" ]; then kill "$(cat "$ROOT/oauth/pid")" 2>/dev/null || true; fi
  # Every daemon's port closed before a new stack binds them (a milter
  # still dying holds its port, and its successor fails to start).
  # (rspamd takes seconds to let its workers go.)
  for _ in $(seq 300); do
    local open=
    for port in "$SMTP_PORT" "$IMAP_PORT" "$OAUTH_PORT" 8891 8892 8893 10053 11432 11433 11434; do
      if port_open "$port"; then open=$port; break; fi
    done
    [ -z "$open" ] && return 0
    sleep 0.1
  done
  echo "mailstack: port $open still open after stop" >&2
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
  # The chief arbiter of the verdict tests writes from player.test; what
  # the clerk sends him lands in the arbiter's mailbox.
  echo "arbiter@player.test arbiter/Maildir/" >> "$ROOT/postfix/vmailbox"
  chown -R vmail:vmail "$ROOT/mail"
  certificates
  oauth_endpoint
  milters

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
virtual_mailbox_domains = test.local, player.test
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
smtpd_tls_cert_file = $ROOT/tls/server.pem
smtpd_tls_key_file = $ROOT/tls/server.key
smtpd_sasl_type = dovecot
smtpd_sasl_path = $ROOT/dovecot/run/auth-postfix
milter_protocol = 6
transport_maps = texthash:$ROOT/postfix/transport
CF
  echo "bot+lmtp@test.local lmtp:unix:$ROOT/dovecot/run/lmtp" > "$ROOT/postfix/transport"
  sed -e "s/^smtp      inet  n       -       y/127.0.0.1:$SMTP_PORT inet  n       -       n/" \
      -e 's/^\([a-z0-9:.]* *[a-z-]* *[-ny] *[-ny] *\)y /\1n /' \
      /usr/share/postfix/master.cf.dist > "$ROOT/postfix/master.cf"
  # Submission: a login is required (loopback is not trusted here), over
  # STARTTLS on 587 and implicit TLS on 465; 127.0.0.2 shows the expired
  # certificate.
  local login="-o smtpd_sasl_auth_enable=yes -o smtpd_client_restrictions=permit_sasl_authenticated,reject -o smtpd_relay_restrictions=permit_sasl_authenticated,reject"
  cat >> "$ROOT/postfix/master.cf" <<CF
127.0.0.1:587 inet n - n - - smtpd -o syslog_name=postfix/submission -o smtpd_tls_security_level=encrypt -o smtpd_tls_auth_only=yes $login
127.0.0.1:465 inet n - n - - smtpd -o syslog_name=postfix/submissions -o smtpd_tls_wrappermode=yes $login
127.0.0.2:465 inet n - n - - smtpd -o syslog_name=postfix/expired -o smtpd_tls_wrappermode=yes -o smtpd_tls_cert_file=$ROOT/tls/expired.pem -o smtpd_tls_key_file=$ROOT/tls/expired.key $login
127.0.0.1:2526 inet n - n - - smtpd -o syslog_name=postfix/opendkim -o smtpd_milters=inet:127.0.0.1:8891,inet:127.0.0.1:8893
127.0.0.1:2527 inet n - n - - smtpd -o syslog_name=postfix/rspamd -o smtpd_milters=inet:127.0.0.1:11432
127.0.0.1:2528 inet n - n - - smtpd -o syslog_name=postfix/opendkim-default -o smtpd_milters=inet:127.0.0.1:8892,inet:127.0.0.1:8893
127.0.0.1:2600 inet n - n - - smtpd -o syslog_name=postfix/signer -o myhostname=smtp.player.test -o smtpd_milters=inet:127.0.0.1:8891 -o milter_macro_daemon_name=ORIGINATING
CF
  # Postfix prints its configuration complaints only to its log; `check` also
  # creates the queue folders with their owners.
  postfix -c "$ROOT/postfix" check >/dev/null 2>&1 || true
  postfix -c "$ROOT/postfix" start </dev/null >/dev/null 2>&1 || { echo "mailstack: postfix did not start:" >&2; cat "$ROOT/postfix.log" >&2 || true; exit 1; }

  cat > "$ROOT/dovecot/dovecot.conf" <<CF
protocols = imap lmtp
listen = 127.0.0.1
# LMTP's Received: names the same host as Postfix's.
hostname = mail.test.local
recipient_delimiter = +
base_dir = $ROOT/dovecot/run
state_dir = $ROOT/dovecot/state
log_path = $ROOT/dovecot.log
ssl = yes
ssl_cert = <$ROOT/tls/server.pem
ssl_key = <$ROOT/tls/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2 oauthbearer
mail_location = maildir:$ROOT/mail/%n/Maildir
first_valid_uid = $uid
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $ROOT/dovecot/oauth2.conf.ext
}
passdb {
  driver = passwd-file
  mechanisms = plain login
  args = scheme=PLAIN username_format=%u $ROOT/dovecot/users
}
userdb {
  driver = static
  # LMTP looks a recipient up in the userdb alone.
  args = uid=$uid gid=$gid home=$ROOT/mail/%n allow_all_users=yes
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imap_starttls {
    address = 127.0.0.1
    port = 143
  }
  inet_listener imaps {
    address = 127.0.0.1 127.0.0.2
    port = 993
    ssl = yes
  }
}
local 127.0.0.2 {
  ssl_cert = <$ROOT/tls/expired.pem
  ssl_key = <$ROOT/tls/expired.key
}
service auth {
  unix_listener auth-postfix {
    mode = 0666
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0666
  }
}
protocol imap {
  imap_idle_notify_interval = 1 secs
}
CF
  cat > "$ROOT/dovecot/oauth2.conf.ext" <<CF
introspection_mode = post
introspection_url = http://127.0.0.1:$OAUTH_PORT/introspect
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
CF
  dovecot -c "$ROOT/dovecot/dovecot.conf" </dev/null >/dev/null 2>&1 || { echo "mailstack: dovecot did not start:" >&2; cat "$ROOT/dovecot.log" >&2 || true; exit 1; }

  # rspamd compiles its rules before it listens: up to a minute.
  for _ in $(seq 600); do
    if port_open "$SMTP_PORT" && port_open "$IMAP_PORT" && port_open "$OAUTH_PORT" && tls_ports_open &&
       milter_ports_open && [ -S "$ROOT/dovecot/run/lmtp" ]; then
      echo "mailstack: up in $ROOT (smtp $SMTP_PORT, imap $IMAP_PORT; TLS: smtp 587, 465, imap 143, 993; CA $ROOT/tls/ca.pem; verdict writers: smtp 2526 OpenDKIM+OpenDMARC, 2527 rspamd, 2528 OpenDKIM as installed, 2600 signer)" >&2
      return 0
    fi
    sleep 0.1
  done
  echo "mailstack: the servers did not open their ports" >&2
  tail -n 20 "$ROOT/postfix.log" "$ROOT/dovecot.log" "$ROOT/milters/rspamd/log/start.log" >&2 || true
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
  status) port_open "$SMTP_PORT" && port_open "$IMAP_PORT" && port_open "$OAUTH_PORT" && tls_ports_open && milter_ports_open ;;
  *) echo "usage: $0 start|start-for PID|stop|status" >&2; exit 2 ;;
esac
