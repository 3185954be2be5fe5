#!/usr/bin/env python3
"""A token-introspection endpoint (RFC 7662) for the test mail stack's Dovecot.

Dovecot's OAuth 2.0 passdb POSTs `token=...` here and reads back whether the
token is active and whose it is. The tokens are the lines of TOKENS_FILE,
`token user expires` (Unix seconds), read at each request: a token past its
time is answered `{"active": false}`, as an identity provider answers an
expired one. Started and stopped by tests/mailstack.sh.

    oauth_endpoint.py PORT TOKENS_FILE
"""

import json
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def lookup(tokens_file, token):
    with open(tokens_file, encoding="utf-8") as lines:
        for line in lines:
            fields = line.split()
            if len(fields) == 3 and fields[0] == token:
                user, expires = fields[1], int(fields[2])
                if expires > time.time():
                    return {"active": True, "username": user, "exp": expires}
    return {"active": False}


class Introspection(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8"))
        token = form.get("token", [""])[0]
        body = json.dumps(lookup(self.server.tokens_file, token)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    port, tokens_file = int(sys.argv[1]), sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", port), Introspection)
    server.tokens_file = tokens_file
    server.serve_forever()


if __name__ == "__main__":
    main()
